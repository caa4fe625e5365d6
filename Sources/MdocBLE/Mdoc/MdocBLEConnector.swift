#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NIOConcurrencyHelpers

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
    /// `identMismatch`. `timeout` is measured on `clock`.
    public static func holder(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                              clock: any Clock<Duration> = ContinuousClock(), over adapter: any BLEAdapter,
                              logger: Logger = Logger(label: "mdoc.ble")) async throws(BLEError) -> any MdocTransport {
        try await holder(mode: mode, serviceUUID: serviceUUID, ident: ident, sizing: .standard, timeout: timeout, clock: clock,
                         over: adapter, logger: logger)
    }

    /// The holder's side as ``holder(mode:serviceUUID:ident:timeout:clock:over:logger:)`` makes
    /// it, its ATT_MTU and chunks sized as `sizing` says.
    package static func holder(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], sizing: MdocLinkSizing, timeout: Duration,
                               clock: any Clock<Duration> = ContinuousClock(), over adapter: any BLEAdapter,
                               logger: Logger = Logger(label: "mdoc.ble")) async throws(BLEError) -> any MdocTransport {
        let deadline = LinkDeadline(timeout: timeout, clock: clock)
        switch mode {
        case .peripheralServer:
            return try await MdocSessionAcceptor(mode: mode, serviceUUID: serviceUUID, ident: nil, sizing: sizing, logger: logger)
                .accept(over: adapter, until: deadline)
        case .centralClient:
            return try await connect(mode: mode, serviceUUID: serviceUUID, expectedIdent: ident, sizing: sizing, until: deadline,
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
    /// ``maximumConnectionAttempts`` such links. `timeout` is measured on `clock`.
    public static func reader(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                              clock: any Clock<Duration> = ContinuousClock(), over adapter: any BLEAdapter,
                              logger: Logger = Logger(label: "mdoc.ble")) async throws(BLEError) -> any MdocTransport {
        try await reader(mode: mode, serviceUUID: serviceUUID, ident: ident, sizing: .standard, timeout: timeout, clock: clock,
                         over: adapter, logger: logger)
    }

    /// The reader's side as ``reader(mode:serviceUUID:ident:timeout:clock:over:logger:)`` makes
    /// it, its ATT_MTU and chunks sized as `sizing` says.
    package static func reader(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], sizing: MdocLinkSizing, timeout: Duration,
                               clock: any Clock<Duration> = ContinuousClock(), over adapter: any BLEAdapter,
                               logger: Logger = Logger(label: "mdoc.ble")) async throws(BLEError) -> any MdocTransport {
        let deadline = LinkDeadline(timeout: timeout, clock: clock)
        switch mode {
        case .peripheralServer:
            return try await connect(mode: mode, serviceUUID: serviceUUID, expectedIdent: nil, sizing: sizing, until: deadline,
                                     over: adapter, logger: logger)
        case .centralClient:
            return try await MdocSessionAcceptor(mode: mode, serviceUUID: serviceUUID, ident: ident, sizing: sizing, logger: logger)
                .accept(over: adapter, until: deadline)
        }
    }

    /// The GATT client's side: finds the service, connects and runs the connection sequence up
    /// to State 0x01. A link that drops before then is no session: the client connects again,
    /// as phones' links drop early and their clients retry, until `deadline` and for at most
    /// ``maximumConnectionAttempts`` links.
    private static func connect(mode: MdocBLEMode, serviceUUID: UUID, expectedIdent: [UInt8]?, sizing: MdocLinkSizing,
                                until deadline: LinkDeadline, over adapter: any BLEAdapter,
                                logger: Logger) async throws(BLEError) -> any MdocTransport {
        let progress = NIOLockedValueBox(ConnectionProgress())
        return try await deadline.bound(expiry: { progress.withLockedValue { $0.expiry(of: serviceUUID, within: deadline.timeout) } }) {
            () async throws(BLEError) -> any MdocTransport in
            try await attempts(mode: mode, serviceUUID: serviceUUID, expectedIdent: expectedIdent, sizing: sizing, until: deadline,
                               progress: progress, over: adapter, logger: logger)
        }
    }

    /// What the GATT client's links did so far, for the message when the time runs out.
    private struct ConnectionProgress: Sendable {
        /// The links that ended before State 0x01, each `after` it was made.
        var dropped: [(after: Duration, reason: String)] = []
        /// Whether a link is being set up now.
        var linking = false

        /// The failure when the time ran out.
        func expiry(of serviceUUID: UUID, within timeout: Duration) -> BLEError {
            if linking {
                return BLEError(.timeout, "a link to \(serviceUUID) was made, but its connection sequence did not end within \(timeout)")
            }
            guard dropped.isEmpty else { return droppedLinks(dropped, timedOut: true) }
            return BLEError(.peerNotFound, "nobody advertised \(serviceUUID) within \(timeout)")
        }
    }

    /// The GATT client's links, one after the other while they drop before State 0x01.
    private static func attempts(mode: MdocBLEMode, serviceUUID: UUID, expectedIdent: [UInt8]?, sizing: MdocLinkSizing,
                                 until deadline: LinkDeadline,
                                 progress: NIOLockedValueBox<ConnectionProgress>, over adapter: any BLEAdapter,
                                 logger: Logger) async throws(BLEError) -> any MdocTransport {
        // A link that ended before State 0x01, `after` it was made: connect again, or give up.
        func droppedBeforeStart(after: Duration, _ error: BLEError) throws(BLEError) {
            let dropped = progress.withLockedValue { progress in
                progress.linking = false
                progress.dropped.append((after, error.reason))
                return progress.dropped
            }
            guard dropped.count < maximumConnectionAttempts else { throw droppedLinks(dropped, timedOut: false) }
            guard !deadline.hasPassed else { throw droppedLinks(dropped, timedOut: true) }
            logger.info("the link dropped before the session started; connecting again", metadata: [
                "service": "\(serviceUUID)", "after": "\(MdocSessionAcceptor.seconds(after))",
                "reason": "\(error.reason)", "attempt": "\(dropped.count + 1)",
            ])
        }
        while true {
            let bearer: any ATTBearer
            do {
                bearer = try await adapter.connect(serviceUUID: serviceUUID, timeout: deadline.backstop)
            } catch where error.code == .linkClosed {
                // The peer ended the link as soon as it was made, before the bearer was handed over.
                try droppedBeforeStart(after: .zero, error)
                continue
            } catch where (error.code == .timeout || error.code == .peerNotFound)
                && !progress.withLockedValue({ $0.dropped.isEmpty }) {
                throw progress.withLockedValue { droppedLinks($0.dropped, timedOut: true) }
            }
            let connected = deadline.elapsed
            progress.withLockedValue { $0.linking = true }
            do {
                return try await MdocGATTClientTransport(mode: mode, serviceUUID: serviceUUID, expectedIdent: expectedIdent,
                                                         bearer: bearer, sizing: sizing, logger: logger)
            } catch where error.code == .linkClosed {
                try droppedBeforeStart(after: deadline.elapsed - connected, error)
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
