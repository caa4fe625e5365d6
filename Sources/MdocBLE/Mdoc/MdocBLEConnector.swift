#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sets up either side of an ISO/IEC 18013-5 BLE session over the sim link: who advertises and
/// who is the GATT server follows the mode (ISO/IEC 18013-5 8.3.3.1.1.4, Table A.1).
///
/// | | peripheral server mode | central client mode |
/// |---|---|---|
/// | holder (mdoc) | advertises, GATT server | scans, GATT client, checks Ident |
/// | reader | scans, GATT client | advertises, GATT server serving Ident |
public enum MdocBLEConnector: Sendable {
    /// The holder's side for the engagement's `serviceUUID` in `mode`. `ident` is the 16-octet
    /// Ident derived from EDeviceKeyBytes (8.3.3.1.1.4), checked against the reader's in central
    /// client mode. Throws `timeout` or `peerNotFound` when no reader came within `timeout`.
    public static func holder(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8],
                              timeout: Duration) async throws(BLEError) -> any MdocTransport {
        switch mode {
        case .peripheralServer:
            let advertiser = try SimLink.advertise(serviceUUID: serviceUUID)
            defer { advertiser.stop() }
            let bearer = try await advertiser.accept(timeout: timeout)
            return MdocGATTServerTransport(mode: mode, serviceUUID: serviceUUID, bearer: bearer)
        case .centralClient:
            let bearer = try await SimLink.connect(serviceUUID: serviceUUID, timeout: timeout)
            return try await MdocGATTClientTransport(mode: mode, serviceUUID: serviceUUID, expectedIdent: ident,
                                                     bearer: bearer)
        }
    }

    /// The reader's side for the engagement's `serviceUUID` in `mode`. `ident`, derived from the
    /// engagement's EDeviceKeyBytes, is what the reader's GATT server serves in central client
    /// mode (8.3.3.1.1.4). Throws `timeout` or `peerNotFound` when no holder came within `timeout`.
    public static func reader(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8],
                              timeout: Duration) async throws(BLEError) -> any MdocTransport {
        switch mode {
        case .peripheralServer:
            let bearer = try await SimLink.connect(serviceUUID: serviceUUID, timeout: timeout)
            return try await MdocGATTClientTransport(mode: mode, serviceUUID: serviceUUID, bearer: bearer)
        case .centralClient:
            let advertiser = try SimLink.advertise(serviceUUID: serviceUUID)
            defer { advertiser.stop() }
            let bearer = try await advertiser.accept(timeout: timeout)
            return MdocGATTServerTransport(mode: mode, serviceUUID: serviceUUID, ident: ident, bearer: bearer)
        }
    }
}
