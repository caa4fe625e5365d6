import Logging
import MdocBLE
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocPresentation
import MdocSession
import MdocSim
import MdocTestPeers
import MdocTestSupport
import NIOConcurrencyHelpers
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a test's holder and reader meet: one in-memory radio, or the `sim` BLE transport (the
/// real GATT server and client over local sockets).
enum Air: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case sim

    var testDescription: String { rawValue }

    /// The holder's radio and the reader's.
    func radios() -> (holder: any MdocRadio, reader: any MdocRadio) {
        switch self {
        case .memory:
            let radio = InMemoryRadio()
            return (radio, radio)
        case .sim:
            return (SimAdapter(), SimAdapter())
        }
    }
}

/// Bounds no correct session comes near, for tests that are not about a bound: the suite runs
/// in parallel on two busy cores.
let generousTimeouts = SessionTimeouts(connection: .seconds(60), idle: .seconds(60), response: .seconds(60))

/// What a delegate was told, in order.
final class EventLog<Event: Sendable>: Sendable {
    private struct State {
        var events: [Event] = []
        var waiters: [(matches: @Sendable (Event) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = NIOLockedValueBox(State())

    /// Records `event`, and wakes the tasks waiting for one like it.
    func record(_ event: Event) async {
        let woken = state.withLockedValue { state in
            state.events.append(event)
            let woken = state.waiters.filter { $0.matches(event) }.map(\.continuation)
            state.waiters.removeAll { $0.matches(event) }
            return woken
        }
        for continuation in woken { continuation.resume() }
    }

    /// Everything recorded so far.
    var all: [Event] {
        state.withLockedValue { $0.events }
    }

    /// Waits until an event that `matches` is recorded, returning at once when one was.
    func wait(for matches: @escaping @Sendable (Event) -> Bool = { _ in true }) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let recorded = state.withLockedValue { state in
                guard !state.events.contains(where: matches) else { return true }
                state.waiters.append((matches, continuation))
                return false
            }
            if recorded { continuation.resume() }
        }
    }
}

/// Waits until `reader` says it waits for the holder's consent: it sent its request and its
/// wait for the response is about to start.
func readerWaitsForConsent(_ events: EventLog<ReaderEvent>) async {
    await events.wait { if case .waitingForConsent = $0 { true } else { false } }
}

/// The demo mDL's age_over_18 (ISO/IEC 18013-5 7.2.5).
let ageOver18 = [RequestPreset.ageOver18.docRequestSpec()]

/// A request for `identifiers` of the mDL name space.
func mDLRequest(_ identifiers: [String], intentToRetain: Bool = false) -> [DocRequestSpec] {
    var elements = OrderedMap<String, Bool>()
    for identifier in identifiers { elements[identifier] = intentToRetain }
    return [DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: elements])]
}

/// A holder presenting `credentials` (the demo mDL unless given) in `modes`.
func demoHolder(
    credentials: [Credential]? = nil, modes: [MdocBLEMode] = MdocBLEMode.allCases,
    consent: any HolderConsentDelegate = HolderConsent.approvingAllAvailable,
    trust: any ReaderTrustDelegate = ReaderRootTrust(trustAnchors: []),
    timeouts: SessionTimeouts = generousTimeouts, endsAfterResponse: Bool = false,
    events: EventLog<HolderEvent> = EventLog(), log: LogRecorder = LogRecorder(), clock: any Clock<Duration> = ContinuousClock()
) throws -> HolderDriver {
    try HolderDriver(
        credentials: credentials ?? [try DemoMaterial.mDL()],
        bleOptions: .offering(peripheralServerMode: modes.contains(.peripheralServer), centralClientMode: modes.contains(.centralClient)),
        trust: trust, consent: consent, timeouts: timeouts, endsAfterResponse: endsAfterResponse, logger: log.logger,
        events: events.record, clock: clock)
}

/// A reader of `holder`'s engagement asking for `request`, trusting the demo IACA.
func demoReader(
    of holder: HolderDriver, request: [DocRequestSpec] = ageOver18,
    readerAuthentication: (key: PrivateKey, chain: [Certificate])? = nil, timeouts: SessionTimeouts = generousTimeouts,
    termination: ReaderTermination = .status, events: EventLog<ReaderEvent> = EventLog(),
    clock: any Clock<Duration> = ContinuousClock()
) throws -> ReaderDriver {
    try ReaderDriver(
        uri: try MdocURI(holder.mdocURI.description), request: request, readerAuthentication: readerAuthentication,
        trustAnchors: [try DemoMaterial.iaca()], timeouts: timeouts, termination: termination, events: events.record, clock: clock)
}

/// Runs `holder` and `reader` side by side over `radios`, the reader in `mode` (its choice
/// when `nil`).
func present(
    _ holder: HolderDriver, to reader: ReaderDriver, over radios: (holder: any MdocRadio, reader: any MdocRadio),
    mode: MdocBLEMode? = nil
) async -> (holder: HolderSessionResult, reader: ReaderSessionResult) {
    async let presented = holder.run(over: radios.holder)
    let read = await reader.run(over: radios.reader, mode: mode)
    return (await presented, read)
}

/// The verified values the reader got, by identifier.
func verifiedValues(_ result: ReaderSessionResult, docType: String = DocType.mDL) -> [String: CBOR] {
    var values: [String: CBOR] = [:]
    for document in result.report?.documents ?? [] where document.docType == docType {
        for element in document.elements where element.verified {
            values[element.identifier] = element.value
        }
    }
    return values
}

/// The messages logged through ``logger``, for tests of what the BLE layers report.
final class LogRecorder: Sendable {
    private struct State {
        var messages: [String] = []
        var waiters: [(count: Int, text: String, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = NIOLockedValueBox(State())

    /// A logger at info level whose messages this recorder keeps.
    var logger: Logger {
        Logger(label: "mdoc.ble") { _ in Handler(recorder: self) }
    }

    /// How many messages so far contain `text`.
    func count(containing text: String) -> Int {
        state.withLockedValue { Self.count(in: $0, containing: text) }
    }

    /// Waits until `count` messages contain `text`.
    func waitFor(_ count: Int, containing text: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLockedValue { state in
                guard Self.count(in: state, containing: text) < count else { return true }
                state.waiters.append((count, text, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    private static func count(in state: State, containing text: String) -> Int {
        state.messages.filter { $0.contains(text) }.count
    }

    private func logged(_ message: String) {
        let woken = state.withLockedValue { state in
            state.messages.append(message)
            let messages = state
            let reached = state.waiters.filter { Self.count(in: messages, containing: $0.text) >= $0.count }
            state.waiters.removeAll { Self.count(in: messages, containing: $0.text) >= $0.count }
            return reached.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.logged(event.message.description)
        }
    }
}
