import Dispatch
import MdocBLE
import MdocTerminal
import MdocText
import NIOConcurrencyHelpers
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a live program ends on SIGINT (Ctrl-C) or SIGTERM: first a session under way is ended as
/// a cancelled one is (SessionData with status 20 and, over BLE, State 0x02: ISO/IEC 18013-5
/// 9.1.1.4 and 8.3.3.1.1.5), so that the peer learns the session was terminated rather than lost;
/// then it undoes what it set up outside itself (the `bluez` transport's GATT application and
/// advertisement on bluetoothd, an HCI controller's links); then it ends the way the program
/// chose: by default with status 128 + the signal's number, as a shell reports a program a signal
/// ended (130 for Ctrl-C, 143 for SIGTERM).
///
/// ``closeOnSignals(_:)``, ``endWith(_:)`` and ``cancellingOnSignals(_:)`` install the handling
/// the first time one is called.
package enum ProgramSignals {
    /// How long the clean-up may take before the program ends anyway: bluetoothd answers an
    /// unregistration in milliseconds, and an unanswered one must not keep the program alive.
    package static let cleanupTimeout: DispatchTimeInterval = .seconds(3)

    /// How long a session under way may take to send its termination (status 20, State 0x02)
    /// before the radio is closed anyway: over a live link that is one write, and a peer that
    /// does not take it must not keep the program alive.
    package static let sessionEndTimeout: DispatchTimeInterval = .seconds(3)

    /// A session run by ``cancellingOnSignals(_:)``: how to cancel it, and what it signals when
    /// it has ended.
    private struct Session: Sendable {
        let cancel: @Sendable () -> Void
        let ended: DispatchSemaphore
    }

    private struct State: Sendable {
        var radios: [any MdocRadio] = []
        var sessions: [Int: Session] = [:]
        var nextSession = 0
        var ending: @Sendable (Int32) -> Void = { number in ProgramSignals.leave(128 + number) }
    }

    private static let state = NIOLockedValueBox(State())
    private static let ending = Atomic<Bool>(false)

    /// Whether a signal is ending the program: its clean-up is under way and the process ends
    /// when it is done.
    package static var isEnding: Bool { ending.load(ordering: .acquiring) }

    /// When a signal is ending the program, waits for that (never returning), so that a session
    /// failing because its radio was closed under it does not end the program first with the
    /// failure's status; otherwise returns at once.
    package static func yieldToEnding() {
        guard isEnding else { return }
        DispatchSemaphore(value: 0).wait()
    }

    /// How long creating the signal sources waits for libdispatch to arm them.
    static let registrationTimeout: DispatchTimeInterval = .seconds(5)

    /// The signal sources, kept for the life of the process (a released source stops
    /// delivering); created once, on first use. libdispatch arms a source on its own queue some
    /// time after `resume()`, and a signal that comes before then meets the SIG_IGN set here and
    /// is lost (seen: a holder sent SIGINT right after it printed its engagement waited out its
    /// whole timeout), so creating them waits until each is armed.
    nonisolated(unsafe) private static let sources: [any DispatchSourceSignal] = [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        let armed = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { armed.signal() }
        source.setEventHandler { end(by: number) }
        source.resume()
        _ = armed.wait(timeout: .now() + registrationTimeout)
        return source
    }

    /// From now on SIGINT and SIGTERM close `radio` (bounded by ``cleanupTimeout``) before the
    /// program ends.
    package static func closeOnSignals(_ radio: any MdocRadio) {
        state.withLockedValue { $0.radios.append(radio) }
        _ = sources
    }

    /// Runs `session` (a holder's or reader's driver) in a task that SIGINT and SIGTERM cancel
    /// before anything else, waiting up to ``sessionEndTimeout`` for it to end: the drivers end
    /// a cancelled session with status 20 and State 0x02. Returns what `session` returned, also
    /// when it was cancelled (the program's signal handling then ends the process).
    package static func cancellingOnSignals<Value: Sendable>(_ session: @escaping @Sendable () async -> Value) async -> Value {
        let ended = DispatchSemaphore(value: 0)
        let task = Task {
            defer { ended.signal() }
            return await session()
        }
        let key = state.withLockedValue { state in
            state.nextSession += 1
            state.sessions[state.nextSession] = Session(cancel: { task.cancel() }, ended: ended)
            return state.nextSession
        }
        _ = sources
        let value = await task.value
        state.withLockedValue { _ = $0.sessions.removeValue(forKey: key) }
        return value
    }

    /// Replaces how the program ends after the clean-up: `ending` gets the signal's number and
    /// must end the process with ``leave(_:)`` (`mdoc-holder --keep-running` ends with status 0
    /// and a tally).
    package static func endWith(_ ending: @escaping @Sendable (Int32) -> Void) {
        state.withLockedValue { $0.ending = ending }
        _ = sources
    }

    private static func end(by number: Int32) {
        ending.store(true, ordering: .releasing)
        let (sessions, radios, ending) = state.withLockedValue { state in
            defer { state.radios = [] }
            return (Array(state.sessions.values), state.radios, state.ending)
        }
        // The sessions first, each ending on its own; then the radios under them.
        for session in sessions { session.cancel() }
        let deadline = DispatchTime.now() + sessionEndTimeout
        for session in sessions { _ = session.ended.wait(timeout: deadline) }
        if !sessions.isEmpty {
            // On a new line: the terminal echoed ^C after a prompt or a progress line.
            let name = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
            ProgramOutput.standardError.write(
                "\n\(name): interrupted by \(number == SIGINT ? "SIGINT" : "SIGTERM"): the session was terminated (status 20)\n")
        }
        let finished = DispatchSemaphore(value: 0)
        Task {
            for radio in radios { await radio.close() }
            finished.signal()
        }
        _ = finished.wait(timeout: .now() + cleanupTimeout)
        ending(number)
        leave(128 + number)
    }

    /// Ends the process with `status` from the signal's thread: output streams are flushed, but
    /// no atexit handler runs, since other threads may still be in the middle of a session (a
    /// key being made for the next one); OpenSSL's atexit clean-up would pull its locks from
    /// under them.
    package static func leave(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }
}
