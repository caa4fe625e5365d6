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
    /// client mode.
    public static func holder(
        over radio: any MdocRadio, options: BleOptions, ident: [UInt8], timeout: Duration,
        logger: Logger = Logger(label: "mdoc.ble")
    ) async throws(LinkError) -> any MdocTransport {
        let attempts = offeredModes(options).compactMap { mode -> (@Sendable () async -> Result<any MdocTransport, LinkError>)? in
            guard let uuid = serviceUUID(of: mode, in: options) else { return nil }
            return {
                do throws(BLEError) {
                    return .success(try await radio.holderLink(
                        mode: mode, serviceUUID: uuid, ident: ident, timeout: timeout, logger: logger))
                } catch {
                    return .failure(linkError(error, peer: "reader", uuid: uuid, mode: mode, timeout: timeout))
                }
            }
        }
        guard !attempts.isEmpty else {
            throw LinkError(.noCommonMode, "the engagement offers no BLE mode with a service UUID")
        }
        return try await firstLink(of: attempts).get()
    }

    /// The reader's side over `radio` in `mode`, which the engagement's `options` must
    /// offer. `ident` is the Ident derived from the engagement's EDeviceKeyBytes, served in
    /// central client mode.
    public static func reader(
        over radio: any MdocRadio, options: BleOptions, mode: MdocBLEMode, ident: [UInt8], timeout: Duration,
        logger: Logger = Logger(label: "mdoc.ble")
    ) async throws(LinkError) -> any MdocTransport {
        guard let uuid = serviceUUID(of: mode, in: options) else {
            throw LinkError(.noCommonMode, "the mdoc does not offer \(mode.rawValue) mode")
        }
        do throws(BLEError) {
            return try await radio.readerLink(mode: mode, serviceUUID: uuid, ident: ident, timeout: timeout, logger: logger)
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

    /// How long ending the link with State 0x02 may take when a wait ran out, before it is
    /// closed anyway: a Write Command or notification and, for a GATT client, the unsubscription
    /// before it.
    public static let endTimeout: Duration = .seconds(2)

    /// Waits for the next event on `transport`; after `timeout` the session's transport is
    /// ended, State 0x02 first (8.3.3.1.1.5, bounded by ``endTimeout``), and a
    /// ``LinkError/Code/timeout`` names `what` was awaited.
    public static func receive(
        from transport: any MdocTransport, within timeout: Duration, awaiting what: String
    ) async throws(LinkError) -> MdocTransportEvent {
        try await bounded(
            transport, within: timeout, failing: "while waiting for \(what)",
            timedOut: "no \(what) within \(seconds(timeout))", endingOnTimeout: true
        ) { () throws(BLEError) in try await transport.receive() }
    }

    /// Sends `message` on `transport`; when the peer has not taken it after `timeout` (it never
    /// started the session, never subscribed to the messages, or stopped reading) the link is
    /// closed and a ``LinkError/Code/timeout`` names `what` was being sent and why it could not
    /// be.
    public static func send(
        _ message: [UInt8], on transport: any MdocTransport, within timeout: Duration, sending what: String
    ) async throws(LinkError) {
        try await bounded(
            transport, within: timeout, failing: "sending \(what)",
            timedOut: "the peer did not take \(what) within \(seconds(timeout))", endingOnTimeout: false
        ) { () throws(BLEError) in try await transport.send(message) }
    }

    // MARK: - Internals

    /// What one task of a bounded operation reports.
    private enum BoundedStep<Value: Sendable>: Sendable {
        case finished(Result<Value, BLEError>)
        case timedOut
    }

    /// Runs `operation` on `transport` against a `timeout`. When the time runs out first the
    /// link is ended (State 0x02, within ``endTimeout``) or closed, which ends the operation
    /// still waiting, so nothing is left behind; the error the operation then ends with says why
    /// it could not finish, unless it is only the link closing.
    private static func bounded<Value: Sendable>(
        _ transport: any MdocTransport, within timeout: Duration, failing context: String, timedOut: String,
        endingOnTimeout: Bool, _ operation: @escaping @Sendable () async throws(BLEError) -> Value
    ) async throws(LinkError) -> Value {
        let result = await withTaskGroup(of: BoundedStep<Value>?.self) { group -> Result<Value, LinkError> in
            group.addTask {
                do throws(BLEError) {
                    return .finished(.success(try await operation()))
                } catch {
                    return .finished(.failure(error))
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .timedOut
            }
            guard case .finished(let outcome)?? = await group.next() else {
                if endingOnTimeout {
                    await end(transport, within: endTimeout)
                } else {
                    transport.close()
                }
                var reason = timedOut
                while let next = await group.next() {
                    if case .finished(.failure(let error))? = next, error.code != .linkClosed {
                        reason += ": \(error.reason)"
                    }
                }
                return .failure(LinkError(.timeout, reason))
            }
            group.cancelAll()
            return outcome.mapError { linkError($0, context) }
        }
        return try result.get()
    }

    /// Ends `transport` with State 0x02; after `limit` it is closed, which ends what ``MdocTransport/end()``
    /// still waits for.
    private static func end(_ transport: any MdocTransport, within limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await transport.end() }
            group.addTask {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { transport.close() }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Runs the attempts side by side; the first link wins and the others are cancelled. When
    /// all fail, the most telling failure is returned: any other than a timeout.
    private static func firstLink(
        of attempts: [@Sendable () async -> Result<any MdocTransport, LinkError>]
    ) async -> Result<any MdocTransport, LinkError> {
        await withTaskGroup(of: Result<any MdocTransport, LinkError>.self) { group in
            for attempt in attempts {
                group.addTask { await attempt() }
            }
            var failures: [LinkError] = []
            while let next = await group.next() {
                switch next {
                case .success:
                    group.cancelAll()
                    return next
                case .failure(let error):
                    failures.append(error)
                }
            }
            return .failure(failures.first { $0.code != .timeout } ?? failures.first
                ?? LinkError(.timeout, "no reader connected"))
        }
    }

    private static func offeredModes(_ options: BleOptions) -> [MdocBLEMode] {
        MdocBLEMode.allCases.filter { serviceUUID(of: $0, in: options) != nil }
    }

    private static func names(_ modes: [MdocBLEMode]) -> String {
        modes.isEmpty ? "none" : modes.map(\.rawValue).joined(separator: ", ")
    }

    private static func linkError(_ error: BLEError, _ context: String) -> LinkError {
        if error.code == .timeout || error.code == .peerNotFound {
            return LinkError(.timeout, context)
        }
        return LinkError(.bluetooth, "\(context): \(error)")
    }

    /// The failure of the link to the `peer` ("reader" or "mdoc") on service `uuid` in `mode`:
    /// a timeout when none came, what the centrals that came did, or what happened to the link
    /// (a link that dropped, another Ident, another failure).
    private static func linkError(_ error: BLEError, peer: String, uuid: UUID, mode: MdocBLEMode, timeout: Duration) -> LinkError {
        let service = "service \(uuid) (\(mode.rawValue) mode)"
        switch error.code {
        case .timeout, .peerNotFound:
            return LinkError(.timeout, "no \(peer) on \(service) within \(seconds(timeout))")
        case .sessionNotStarted:
            return LinkError(.timeout, "no \(peer) started a session on \(service) within \(seconds(timeout)): \(error.reason)")
        case .identMismatch:
            return LinkError(.bluetooth, "Ident mismatch on \(service): \(error.reason)")
        default:
            return LinkError(.bluetooth, "the link to the \(peer) on \(service) failed: \(error)")
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
