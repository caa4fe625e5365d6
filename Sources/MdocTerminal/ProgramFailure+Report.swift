#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MdocFiles
import MdocText

extension ProgramFailure {
    /// Runs `body`; a ``ProgramFailure`` it throws is written to standard error as one line,
    /// `program: error: message` (and its hint on a second line, `program: hint`), and becomes
    /// the process exit status through `exit(_:)`.
    package static func reporting(program: String, _ body: () throws(ProgramFailure) -> Void) {
        do {
            try body()
        } catch let failure {
            failure.report(program: program)
        }
    }

    /// Writes the message (and the hint) to standard error and exits with ``status``.
    package func report(program: String) -> Never {
        ProgramOutput.standardError.writeLine("\(program): error: \(message)")
        if let hint {
            ProgramOutput.standardError.writeLine("\(program): \(hint)")
        }
        exit(status.rawValue)
    }
}
