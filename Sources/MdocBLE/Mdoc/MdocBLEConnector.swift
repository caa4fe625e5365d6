#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Sets up either side of an ISO/IEC 18013-5 BLE session over a ``BLEAdapter``: who advertises
/// and who is the GATT server follows the mode (ISO/IEC 18013-5 8.3.3.1.1.4, Table A.1).
///
/// | | peripheral server mode | central client mode |
/// |---|---|---|
/// | holder (mdoc) | advertises, GATT server | scans, GATT client, checks Ident |
/// | reader | scans, GATT client | advertises, GATT server serving Ident |
public enum MdocBLEConnector: Sendable {
    /// The holder's side for the engagement's `serviceUUID` in `mode`, over `adapter`. `ident`
    /// is the 16-octet Ident derived from EDeviceKeyBytes (8.3.3.1.1.4), checked against the
    /// reader's in central client mode. Throws `timeout` or `peerNotFound` when no reader came
    /// within `timeout`.
    public static func holder(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                              over adapter: any BLEAdapter,
                              logger: Logger = Logger(label: "mdoc.ble")) async throws(BLEError) -> any MdocTransport {
        switch mode {
        case .peripheralServer:
            let bearer = try await acceptOne(serviceUUID: serviceUUID, timeout: timeout, over: adapter)
            return MdocGATTServerTransport(mode: mode, serviceUUID: serviceUUID, bearer: bearer, logger: logger)
        case .centralClient:
            let bearer = try await adapter.connect(serviceUUID: serviceUUID, timeout: timeout)
            return try await MdocGATTClientTransport(mode: mode, serviceUUID: serviceUUID, expectedIdent: ident,
                                                     bearer: bearer, logger: logger)
        }
    }

    /// The reader's side for the engagement's `serviceUUID` in `mode`, over `adapter`. `ident`,
    /// derived from the engagement's EDeviceKeyBytes, is what the reader's GATT server serves in
    /// central client mode (8.3.3.1.1.4). Throws `timeout` or `peerNotFound` when no holder came
    /// within `timeout`.
    public static func reader(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                              over adapter: any BLEAdapter,
                              logger: Logger = Logger(label: "mdoc.ble")) async throws(BLEError) -> any MdocTransport {
        switch mode {
        case .peripheralServer:
            let bearer = try await adapter.connect(serviceUUID: serviceUUID, timeout: timeout)
            return try await MdocGATTClientTransport(mode: mode, serviceUUID: serviceUUID, bearer: bearer, logger: logger)
        case .centralClient:
            let bearer = try await acceptOne(serviceUUID: serviceUUID, timeout: timeout, over: adapter)
            return MdocGATTServerTransport(mode: mode, serviceUUID: serviceUUID, ident: ident, bearer: bearer, logger: logger)
        }
    }

    /// Advertises `serviceUUID` until one central connected or `timeout` passed; advertising
    /// stops either way (8.3.3.1.1.4: the GATT server stops advertising once connected).
    private static func acceptOne(serviceUUID: UUID, timeout: Duration,
                                  over adapter: any BLEAdapter) async throws(BLEError) -> any ATTBearer {
        let advertisement = try await adapter.advertise(serviceUUID: serviceUUID)
        do {
            let bearer = try await advertisement.accept(timeout: timeout)
            await advertisement.stop()
            return bearer
        } catch {
            await advertisement.stop()
            throw error
        }
    }
}
