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
                    return .failure(linkError(error, "no reader on service \(uuid) (\(mode.rawValue) mode) within \(seconds(timeout))"))
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
            throw linkError(error, "no mdoc on service \(uuid) (\(mode.rawValue) mode) within \(seconds(timeout))")
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

    /// Waits for the next event on `transport`; after `timeout` the link is closed and a
    /// ``LinkError/Code/timeout`` names `what` was awaited.
    public static func receive(
        from transport: any MdocTransport, within timeout: Duration, awaiting what: String
    ) async throws(LinkError) -> MdocTransportEvent {
        try await bounded(
            transport, within: timeout, failing: "while waiting for \(what)",
            timedOut: "no \(what) within \(seconds(timeout))"
        ) { () throws(BLEError) in try await transport.receive() }
    }

    /// Sends `message` on `transport`; when the peer has not taken it after `timeout` (it never
    /// started the session, or stopped reading) the link is closed and a
    /// ``LinkError/Code/timeout`` names `what` was being sent.
    public static func send(
        _ message: [UInt8], on transport: any MdocTransport, within timeout: Duration, sending what: String
    ) async throws(LinkError) {
        try await bounded(
            transport, within: timeout, failing: "sending \(what)",
            timedOut: "the peer did not take \(what) within \(seconds(timeout))"
        ) { () throws(BLEError) in try await transport.send(message) }
    }

    // MARK: - Internals

    /// Runs `operation` on `transport` against a `timeout`; when the time runs out first the
    /// link is closed, which ends the operation still waiting, so nothing is left behind.
    private static func bounded<Value: Sendable>(
        _ transport: any MdocTransport, within timeout: Duration, failing context: String, timedOut: String,
        _ operation: @escaping @Sendable () async throws(BLEError) -> Value
    ) async throws(LinkError) -> Value {
        let result = await withTaskGroup(of: Result<Value, LinkError>?.self) { group in
            group.addTask {
                do throws(BLEError) {
                    return .success(try await operation())
                } catch {
                    return .failure(linkError(error, context))
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(LinkError(.timeout, timedOut))
            }
            var outcome: Result<Value, LinkError>? = nil
            while outcome == nil, let next = await group.next() {
                outcome = next
            }
            if case .failure(let error)? = outcome, error.code == .timeout {
                transport.close()
            }
            group.cancelAll()
            return outcome ?? .failure(LinkError(.timeout, timedOut))
        }
        return try result.get()
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

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
