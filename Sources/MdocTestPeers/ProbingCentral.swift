import MdocBLE
import MdocTestSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A central that looks at an 18013-5 GATT server and leaves without starting a session, as
/// phones' scanners and retrying readers do (ISO/IEC 18013-5 8.3.3.1.1.4).
package enum ProbingCentral {
    /// Connects to the GATT server of `serviceUUID` in `mode` over `link`, exchanges MTUs,
    /// discovers the service and, when `subscribing`, reads Ident (central client mode) and
    /// enables State and Server2Client notifications; it never writes State 0x01. The caller
    /// closes the client.
    package static func probe(_ mode: MdocBLEMode, serviceUUID: UUID, over link: any HostileLink, subscribing: Bool) async throws -> GATTClient {
        let client = GATTClient(
            bearer: try await link.connect(serviceUUID: serviceUUID, timeout: .seconds(60)),
            transactionTimeout: GATTClient.transactionTimeout * TimeoutScale.factor)
        _ = try await client.exchangeMTU(MdocGATTClientTransport.requestedMTU)
        let characteristics = try await client.discoverCharacteristics(
            of: try await client.discoverPrimaryService(BluetoothUUID(serviceUUID)))
        if subscribing {
            if mode == .centralClient, let ident = characteristics.first(where: { $0.uuid == MdocGATTProfile.ident }) {
                _ = try await client.read(ident)
            }
            for uuid in [MdocGATTProfile.state(mode: mode), MdocGATTProfile.server2Client(mode: mode)] {
                guard let characteristic = characteristics.first(where: { $0.uuid == uuid }) else {
                    throw PeerError("characteristic \(uuid) not discovered")
                }
                try await client.setNotifications(true, for: characteristic)
            }
        }
        return client
    }
}
