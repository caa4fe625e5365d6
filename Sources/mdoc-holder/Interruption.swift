import Dispatch
import MdocTerminal
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `mdoc-holder present --keep-running` stops: SIGINT (Ctrl-C) or SIGTERM end it with exit
/// status 0 and one line saying how many sessions it served, since being interrupted is the
/// normal end of a holder that waits for reader after reader.
enum Interruption {
    /// The sessions that ended so far, and how many of them failed.
    static let tally = Mutex((ended: 0, failed: 0))

    /// The signal sources; kept for the life of the process (a released source stops
    /// delivering). Created once, on the first ``endOnSignals()``, and never changed.
    nonisolated(unsafe) private static let sources: [any DispatchSourceSignal] = [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            let (ended, failed) = tally.withLock { ($0.ended, $0.failed) }
            ProgramFailure.writeError(
                "\nmdoc-holder: interrupted after \(ended) session\(ended == 1 ? "" : "s") (\(failed) failed)\n")
            exit(ExitStatus.success.rawValue)
        }
        source.resume()
        return source
    }

    /// From now on SIGINT and SIGTERM end the program as described above.
    static func endOnSignals() {
        _ = sources
    }

    /// Counts a session that ended, normally or not.
    static func count(failed: Bool) {
        tally.withLock { tally in
            tally.ended += 1
            if failed { tally.failed += 1 }
        }
    }
}
