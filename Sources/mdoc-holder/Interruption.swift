import MdocCommandLine
import MdocFiles
import MdocTerminal
import MdocText
import NIOConcurrencyHelpers

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
    static let tally = NIOLockedValueBox((ended: 0, failed: 0))

    /// From now on SIGINT and SIGTERM end the program as described above, after
    /// ``ProgramSignals`` closed the radio.
    static func endOnSignals() {
        ProgramSignals.endWith { _ in
            let (ended, failed) = tally.withLockedValue { ($0.ended, $0.failed) }
            ProgramOutput.standardError.write(
                "\nmdoc-holder: interrupted after \(TerminalText(count: ended, "session")) (\(failed) failed)\n")
            ProgramSignals.leave(ExitStatus.success.rawValue)
        }
    }

    /// Counts a session that ended, normally or not.
    static func count(failed: Bool) {
        tally.withLockedValue { tally in
            tally.ended += 1
            if failed { tally.failed += 1 }
        }
    }
}
