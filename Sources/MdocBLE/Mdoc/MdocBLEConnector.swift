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
    /// reader's in central client mode.
    ///
    /// In peripheral server mode the reader is the first central to start the session with
    /// State 0x01; centrals that connect and leave before are dropped while advertising goes
    /// on. Throws `timeout` or `peerNotFound` when no reader came within
    /// `timeout`, `sessionNotStarted` when centrals came but none started the session,
    /// `identMismatch`, and `linkClosed` saying when and where a link dropped before the
    /// session started.
    public static func holder(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                              over adapter: any BLEAdapter,
                              logger: Logger = Logger(label: "mdoc.ble")) async throws(BLEError) -> any MdocTransport {
        switch mode {
        case .peripheralServer:
            return try await MdocSessionAcceptor(mode: mode, serviceUUID: serviceUUID, ident: nil, logger: logger)
                .accept(over: adapter, timeout: timeout)
        case .centralClient:
            return try await connect(mode: mode, serviceUUID: serviceUUID, expectedIdent: ident, timeout: timeout,
                                     over: adapter, logger: logger)
        }
    }

    /// The reader's side for the engagement's `serviceUUID` in `mode`, over `adapter`. `ident`,
    /// derived from the engagement's EDeviceKeyBytes, is what the reader's GATT server serves in
    /// central client mode (8.3.3.1.1.4).
    ///
    /// In central client mode the mdoc is the first central to start the session with State
    /// 0x01, as for the holder in peripheral server mode. Throws `timeout` or `peerNotFound`
    /// when no holder came within `timeout`, `sessionNotStarted` when centrals came but none
    /// started the session, and `linkClosed` saying when and where a link dropped before the
    /// session started.
    public static func reader(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                              over adapter: any BLEAdapter,
                              logger: Logger = Logger(label: "mdoc.ble")) async throws(BLEError) -> any MdocTransport {
        switch mode {
        case .peripheralServer:
            return try await connect(mode: mode, serviceUUID: serviceUUID, expectedIdent: nil, timeout: timeout,
                                     over: adapter, logger: logger)
        case .centralClient:
            return try await MdocSessionAcceptor(mode: mode, serviceUUID: serviceUUID, ident: ident, logger: logger)
                .accept(over: adapter, timeout: timeout)
        }
    }

    /// The GATT client's side: finds the service, connects and runs the connection sequence up
    /// to State 0x01. A link that drops before then is reported with how long it lasted.
    private static func connect(mode: MdocBLEMode, serviceUUID: UUID, expectedIdent: [UInt8]?, timeout: Duration,
                                over adapter: any BLEAdapter, logger: Logger) async throws(BLEError) -> any MdocTransport {
        let bearer = try await adapter.connect(serviceUUID: serviceUUID, timeout: timeout)
        let connected = ContinuousClock.now
        do {
            return try await MdocGATTClientTransport(mode: mode, serviceUUID: serviceUUID, expectedIdent: expectedIdent,
                                                     bearer: bearer, logger: logger)
        } catch where error.code == .linkClosed {
            throw BLEError(.linkClosed, "the link dropped \(MdocSessionAcceptor.seconds(ContinuousClock.now - connected)) after it was made, before the session started (\(error.reason))")
        }
    }
}
