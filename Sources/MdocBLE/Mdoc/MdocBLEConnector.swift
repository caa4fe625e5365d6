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
    /// The most links a GATT client makes to a service whose links drop before the session
    /// starts, 10: a phone's link can drop at once, and Multipaz's clients try as often.
    public static let maximumConnectionAttempts = 10

    /// The holder's side for the engagement's `serviceUUID` in `mode`, over `adapter`. `ident`
    /// is the 16-octet Ident derived from EDeviceKeyBytes (8.3.3.1.1.4), checked against the
    /// reader's in central client mode.
    ///
    /// In peripheral server mode the reader is the first central to start the session with
    /// State 0x01; centrals that connect and leave before are dropped while advertising goes
    /// on. Throws `timeout` or `peerNotFound` when no reader came within
    /// `timeout`, `sessionNotStarted` when centrals came but none started the session, or when
    /// the links made in central client mode dropped before the session started (it connects
    /// again meanwhile), `linkClosed` after ``maximumConnectionAttempts`` such links, and
    /// `identMismatch`.
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
    /// started the session, or when the links made in peripheral server mode dropped before
    /// the session started (it connects again meanwhile), and `linkClosed` after
    /// ``maximumConnectionAttempts`` such links.
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
    /// to State 0x01. A link that drops before then is no session: the client connects again,
    /// as phones' links drop early and their clients retry, while `timeout` lasts and for at most
    /// ``maximumConnectionAttempts`` links.
    private static func connect(mode: MdocBLEMode, serviceUUID: UUID, expectedIdent: [UInt8]?, timeout: Duration,
                                over adapter: any BLEAdapter, logger: Logger) async throws(BLEError) -> any MdocTransport {
        let deadline = ContinuousClock.now + timeout
        var dropped: [(after: Duration, reason: String)] = []
        // A link that ended before State 0x01, `after` it was made: connect again, or give up.
        func droppedBeforeStart(after: Duration, _ error: BLEError) throws(BLEError) {
            dropped.append((after, error.reason))
            guard dropped.count < maximumConnectionAttempts else { throw droppedLinks(dropped, timedOut: false) }
            guard ContinuousClock.now < deadline else { throw droppedLinks(dropped, timedOut: true) }
            logger.info("the link dropped before the session started; connecting again", metadata: [
                "service": "\(serviceUUID)", "after": "\(MdocSessionAcceptor.seconds(after))",
                "reason": "\(error.reason)", "attempt": "\(dropped.count + 1)",
            ])
        }
        while true {
            let bearer: any ATTBearer
            do {
                bearer = try await adapter.connect(serviceUUID: serviceUUID, timeout: deadline - ContinuousClock.now)
            } catch where error.code == .linkClosed {
                // The peer ended the link as soon as it was made, before the bearer was handed over.
                try droppedBeforeStart(after: .zero, error)
                continue
            } catch where !dropped.isEmpty && (error.code == .timeout || error.code == .peerNotFound) {
                throw droppedLinks(dropped, timedOut: true)
            }
            let connected = ContinuousClock.now
            do {
                return try await MdocGATTClientTransport(mode: mode, serviceUUID: serviceUUID, expectedIdent: expectedIdent,
                                                         bearer: bearer, logger: logger)
            } catch where error.code == .linkClosed {
                try droppedBeforeStart(after: ContinuousClock.now - connected, error)
            }
        }
    }

    /// The failure of a client whose links all dropped before the session started:
    /// `sessionNotStarted` when the time ran out, `linkClosed` after
    /// ``maximumConnectionAttempts`` links; the reason says when and how the last one ended.
    private static func droppedLinks(_ dropped: [(after: Duration, reason: String)], timedOut: Bool) -> BLEError {
        let last = dropped.last.map { "\(MdocSessionAcceptor.seconds($0.after)) after it was made: \($0.reason)" } ?? ""
        let reason = dropped.count == 1
            ? "1 link was made and dropped before the session started (\(last))"
            : "\(dropped.count) links were made and dropped before the session started (the last \(last))"
        return BLEError(timedOut ? .sessionNotStarted : .linkClosed, reason)
    }
}
