import Dispatch
import MdocBLE
import NIOConcurrencyHelpers
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a live program ends on SIGINT (Ctrl-C) or SIGTERM: first it undoes what it set up outside
/// itself (the `bluez` transport's GATT application and advertisement on bluetoothd, an HCI
/// controller's links), then it ends the way the program chose: by default with status
/// 128 + the signal's number, as a shell reports a program a signal ended (130 for Ctrl-C).
///
/// ``closeOnSignals(_:)`` installs the handling the first time it is called.
package enum ProgramSignals {
    /// How long the clean-up may take before the program ends anyway: bluetoothd answers an
    /// unregistration in milliseconds, and an unanswered one must not keep the program alive.
    package static let cleanupTimeout: DispatchTimeInterval = .seconds(3)

    private struct State: Sendable {
        var radios: [any MdocRadio] = []
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

    /// Replaces how the program ends after the clean-up: `ending` gets the signal's number and
    /// must end the process with ``leave(_:)`` (`mdoc-holder --keep-running` ends with status 0
    /// and a tally).
    package static func endWith(_ ending: @escaping @Sendable (Int32) -> Void) {
        state.withLockedValue { $0.ending = ending }
        _ = sources
    }

    private static func end(by number: Int32) {
        ending.store(true, ordering: .releasing)
        let (radios, ending) = state.withLockedValue { state in
            defer { state.radios = [] }
            return (state.radios, state.ending)
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
