import Logging
import MdocBLE
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Opens the link of a live ISO/IEC 18013-5 session over a transport, in the BLE mode both
/// sides agree on (8.3.3.1.1), and bounds each wait by a timeout.
///
/// | side   | mdoc peripheral server mode              | mdoc central client mode                    |
/// |--------|------------------------------------------|---------------------------------------------|
/// | holder | advertises key-10 UUID, GATT server      | scans for key-11 UUID, GATT client, checks Ident |
/// | reader | scans for key-10 UUID, GATT client       | advertises key-11 UUID, GATT server serving Ident |
public enum SessionLink {
    /// The holder's side over `radio`: offers every mode `options` supports and returns the
    /// first link a reader makes. `ident` is the Ident the reader's server must serve in central
    /// client mode. `timeout` is measured on `clock`.
    public static func holder(
        over radio: any MdocRadio, options: BleOptions, ident: [UInt8], timeout: Duration,
        clock: any Clock<Duration> = ContinuousClock(), logger: Logger = Logger(label: "mdoc.ble")
    ) async throws(LinkError) -> any MdocTransport {
        try await holder(over: radio, options: options, ident: ident, sizing: .standard, timeout: timeout, clock: clock, logger: logger)
    }

    /// The holder's side as ``holder(over:options:ident:timeout:clock:logger:)`` makes it, its
    /// ATT_MTU and chunks sized as `sizing` says. Only a radio that is a `BLEAdapter` (`sim`,
    /// `hci:`) lets the holder size them: bluetoothd exchanges the ATT_MTU itself, so over any
    /// other radio a sizing other than the standard one throws `unsupportedTransport`.
    package static func holder(
        over radio: any MdocRadio, options: BleOptions, ident: [UInt8], sizing: MdocLinkSizing, timeout: Duration,
        clock: any Clock<Duration>, logger: Logger
    ) async throws(LinkError) -> any MdocTransport {
        let services = offeredModes(options).compactMap { mode in serviceUUID(of: mode, in: options).map { (mode: mode, uuid: $0) } }
        guard !services.isEmpty else {
            throw LinkError(.noCommonMode, "the engagement offers no BLE mode with a service UUID")
        }
        let adapter = radio as? any BLEAdapter
        guard sizing == .standard || adapter != nil else {
            throw LinkError(.unsupportedTransport, "this transport does not let the holder choose \(sizing)")
        }
        let attempts = services.map { service -> @Sendable () async -> Result<any MdocTransport, BLEError> in
            return {
                do throws(BLEError) {
                    if sizing != .standard, let adapter {
                        return .success(try await MdocBLEConnector.holder(
                            mode: service.mode, serviceUUID: service.uuid, ident: ident, sizing: sizing, timeout: timeout, clock: clock,
                            over: adapter, logger: logger))
                    }
                    return .success(try await radio.holderLink(
                        mode: service.mode, serviceUUID: service.uuid, ident: ident, timeout: timeout, clock: clock, logger: logger))
                } catch {
                    return .failure(error)
                }
            }
        }
        let failures: [BLEError]
        switch await firstLink(of: attempts) {
        case .success(let link): return link
        case .failure(let all): failures = all.errors
        }
        // No reader came in any mode: one sentence names every service offered.
        guard failures.contains(where: { $0.code != .timeout && $0.code != .peerNotFound }) else {
            let offered = services.map { "service \($0.uuid) (\($0.mode.rawValue) mode)" }.joined(separator: " or ")
            throw LinkError(.timeout, "no reader on \(offered) within \(seconds(timeout))")
        }
        // Otherwise the most telling failure: what happened to a link before a timeout.
        let errors = zip(services, failures)
            .filter { $0.1.code != .timeout && $0.1.code != .peerNotFound }
            .map { linkError($0.1, peer: "reader", uuid: $0.0.uuid, mode: $0.0.mode, timeout: timeout) }
        throw errors.first { $0.code != .timeout } ?? errors[0]
    }

    /// The reader's side over `radio` in `mode`, which the engagement's `options` must
    /// offer. `ident` is the Ident derived from the engagement's EDeviceKeyBytes, served in
    /// central client mode. `timeout` is measured on `clock`.
    public static func reader(
        over radio: any MdocRadio, options: BleOptions, mode: MdocBLEMode, ident: [UInt8], timeout: Duration,
        clock: any Clock<Duration> = ContinuousClock(), logger: Logger = Logger(label: "mdoc.ble")
    ) async throws(LinkError) -> any MdocTransport {
        guard let uuid = serviceUUID(of: mode, in: options) else {
            throw LinkError(.noCommonMode, "the mdoc does not offer \(mode.rawValue) mode")
        }
        do throws(BLEError) {
            return try await radio.readerLink(mode: mode, serviceUUID: uuid, ident: ident, timeout: timeout, clock: clock,
                                             logger: logger)
        } catch {
            throw linkError(error, peer: "mdoc", uuid: uuid, mode: mode, timeout: timeout)
        }
    }

    /// The reader's side as ``reader(over:options:mode:ident:timeout:clock:logger:)`` makes it,
    /// its ATT_MTU and chunks sized as `sizing` says. Only a radio that is a `BLEAdapter` (`sim`,
    /// `hci:`) lets the reader size them: bluetoothd exchanges the ATT_MTU itself, so over any
    /// other radio a sizing other than the standard one throws `unsupportedTransport`.
    package static func reader(
        over radio: any MdocRadio, options: BleOptions, mode: MdocBLEMode, ident: [UInt8], sizing: MdocLinkSizing,
        timeout: Duration, clock: any Clock<Duration>, logger: Logger
    ) async throws(LinkError) -> any MdocTransport {
        guard sizing != .standard else {
            return try await reader(over: radio, options: options, mode: mode, ident: ident, timeout: timeout, clock: clock, logger: logger)
        }
        guard let adapter = radio as? any BLEAdapter else {
            throw LinkError(.unsupportedTransport, "this transport does not let the reader choose \(sizing)")
        }
        guard let uuid = serviceUUID(of: mode, in: options) else {
            throw LinkError(.noCommonMode, "the mdoc does not offer \(mode.rawValue) mode")
        }
        do throws(BLEError) {
            return try await MdocBLEConnector.reader(mode: mode, serviceUUID: uuid, ident: ident, sizing: sizing, timeout: timeout,
                                                     clock: clock, over: adapter, logger: logger)
        } catch {
            throw linkError(error, peer: "mdoc", uuid: uuid, mode: mode, timeout: timeout)
        }
    }

    /// The mode a reader uses with an mdoc offering `options`: `preferred` when given (and
    /// offered), else mdoc peripheral server mode when offered, since every mdoc reader can be
    /// a GATT client, else central client mode.
    public static func readerMode(for options: BleOptions, preferring preferred: MdocBLEMode?) throws(LinkError) -> MdocBLEMode {
        let offered = offeredModes(options)
        if let preferred {
            guard offered.contains(preferred) else {
                throw LinkError(.noCommonMode, "the mdoc does not offer \(preferred.rawValue) mode (it offers: \(names(offered)))")
            }
            return preferred
        }
        guard let mode = offered.first else {
            throw LinkError(.noCommonMode, "the engagement offers no BLE mode with a service UUID")
        }
        return mode
    }

    /// The service UUID of `mode` when the options offer that mode.
    public static func serviceUUID(of mode: MdocBLEMode, in options: BleOptions) -> UUID? {
        switch mode {
        case .peripheralServer:
            return options.peripheralServerModeSupported ? options.peripheralServerModeUUID : nil
        case .centralClient:
            return options.centralClientModeSupported ? options.centralClientModeUUID : nil
        }
    }

    /// How long ending the link with State 0x02 may take before it is closed anyway: a Write
    /// Command or notification and, for a GATT client, the unsubscription before it.
    public static let endTimeout: Duration = .seconds(2)

    /// Sends `message` on `transport`; when the peer has not taken it after `timeout` (it never
    /// started the session, never subscribed to the messages, or stopped reading), or the calling
    /// task is cancelled, the link is closed and a `LinkError.Code.timeout` (or
    /// `LinkError.Code.cancelled`) names `what` was being sent and why it could not be. The
    /// bound is measured on `clock`.
    public static func send(
        _ message: [UInt8], on transport: any MdocTransport, within timeout: Duration, sending what: String,
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws(LinkError) {
        let result = await withTaskGroup(of: SendStep.self) { group -> Result<Void, LinkError> in
            group.addTask {
                do throws(BLEError) {
                    try await transport.send(message)
                    return .sent(.success(()))
                } catch {
                    return .sent(.failure(error))
                }
            }
            group.addTask {
                do {
                    try await clock.sleep(for: timeout)
                } catch {
                    return .cancelled
                }
                return .timedOut
            }
            let first = await group.next()
            if case .sent(let outcome)? = first {
                group.cancelAll()
                return outcome.mapError { linkError($0, "sending \(what)") }
            }
            // The peer did not take it in time, or the caller was cancelled: closing the link
            // ends the send still waiting; what it then fails with says why it could not finish.
            transport.close()
            var failure = if case .timedOut? = first {
                LinkError(.timeout, "the peer did not take \(what) within \(seconds(timeout))")
            } else {
                LinkError(.cancelled, "the session was cancelled while sending \(what)")
            }
            while let next = await group.next() {
                if case .sent(.failure(let error)) = next, error.code != .linkClosed {
                    failure.reason += ": \(error.reason)"
                }
            }
            return .failure(failure)
        }
        try result.get()
    }

    /// Ends `transport` with State 0x02 (8.3.3.1.1.5); after ``endTimeout`` it is closed, which
    /// ends what `MdocTransport.end()` still waits for. Runs to its end even when the calling
    /// task is cancelled: a session that is cancelled still tells the peer it is over. The bound
    /// is measured on `clock`.
    public static func end(_ transport: any MdocTransport, clock: any Clock<Duration> = ContinuousClock()) async {
        await Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await transport.end() }
                group.addTask {
                    try? await clock.sleep(for: endTimeout)
                    if !Task.isCancelled { transport.close() }
                }
                await group.next()
                group.cancelAll()
            }
        }.value
    }

    // MARK: - Internals

    /// What one task of a bounded send reports.
    private enum SendStep: Sendable {
        case sent(Result<Void, BLEError>)
        case timedOut
        case cancelled
    }

    /// The failures of every attempt of ``firstLink(of:)``, in the order of the attempts.
    private struct FailedAttempts: Error {
        var errors: [BLEError]
    }

    /// Runs the attempts side by side; the first link wins and the others are cancelled.
    private static func firstLink(
        of attempts: [@Sendable () async -> Result<any MdocTransport, BLEError>]
    ) async -> Result<any MdocTransport, FailedAttempts> {
        await withTaskGroup(of: (Int, Result<any MdocTransport, BLEError>).self) { group in
            for (index, attempt) in attempts.enumerated() {
                group.addTask { (index, await attempt()) }
            }
            var failures: [(Int, BLEError)] = []
            while let arrival = await group.next() {
                switch arrival.1 {
                case .success(let link):
                    group.cancelAll()
                    return .success(link)
                case .failure(let error):
                    failures.append((arrival.0, error))
                }
            }
            return .failure(FailedAttempts(errors: failures.sorted { $0.0 < $1.0 }.map(\.1)))
        }
    }

    private static func offeredModes(_ options: BleOptions) -> [MdocBLEMode] {
        MdocBLEMode.allCases.filter { serviceUUID(of: $0, in: options) != nil }
    }

    private static func names(_ modes: [MdocBLEMode]) -> String {
        modes.isEmpty ? "none" : modes.map(\.rawValue).joined(separator: ", ")
    }

    /// The failure of an operation on an open link, in `context`; `receiving` when it came from
    /// what the peer sent, whose chunking errors are the peer's (8.3.3.1.1.6).
    static func linkError(_ error: BLEError, _ context: String, receiving: Bool = false) -> LinkError {
        switch error.code {
        case .timeout, .peerNotFound:
            return LinkError(.timeout, context)
        case .invalidChunkHeader, .pduTooLarge, .messageTooLarge, .tooManyChunks:
            return LinkError(receiving ? .brokenChunking : .bluetooth, "\(context): \(error)")
        default:
            return LinkError(.bluetooth, "\(context): \(error)")
        }
    }

    /// The failure of the link to the `peer` ("reader" or "mdoc") on service `uuid` in `mode`:
    /// a timeout when none came, what the centrals that came did, or what happened to the link
    /// (a link that dropped, another Ident, another failure).
    private static func linkError(_ error: BLEError, peer: String, uuid: UUID, mode: MdocBLEMode, timeout: Duration) -> LinkError {
        let service = "service \(uuid) (\(mode.rawValue) mode)"
        switch error.code {
        case .timeout where peer == "mdoc", .peerNotFound where peer == "mdoc":
            // An mdoc stops advertising, and connecting, once a reader started a session on the
            // engagement (8.3.3.1.1.4): nothing on the air tells busy from gone.
            return LinkError(
                .timeout,
                "no mdoc on \(service) within \(seconds(timeout)): the mdoc is busy with another reader or gone (an mdoc stops advertising an engagement once a reader has started a session on it; ask for its current engagement)")
        case .timeout, .peerNotFound:
            return LinkError(.timeout, "no \(peer) on \(service) within \(seconds(timeout))")
        case .sessionNotStarted:
            return LinkError(.sessionNotStarted, "no \(peer) started a session on \(service) within \(seconds(timeout)): \(error.reason)")
        case .identMismatch:
            return LinkError(.bluetooth, "Ident mismatch on \(service): \(error.reason)")
        case .serviceInUse:
            return LinkError(.busy, "the \(peer) is busy: another reader serves \(service) for this engagement already")
        default:
            return LinkError(.bluetooth, "the link to the \(peer) on \(service) failed: \(error)")
        }
    }

    /// `duration` in seconds, whole when it is whole ("30 s", "0.5 s").
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
