import MdocConsent
import MdocPosix
import MdocTerminal
import MdocText

#if canImport(Glibc)
import Glibc
#endif

/// The tester's answer to what a reader under test showed (`test-reader`, a case marked
/// "person"): the question on standard error, a line of standard input for the answer, `yes`
/// (`y`) or `no` (`n`), spaces and case aside; another line is asked again.
enum TesterAnswer {
    /// The answer to `question` about the case `name`; `nil` at the end of the input or when
    /// none came within `bound`.
    static func ask(_ question: String, case name: String, within bound: Duration) async -> Bool? {
        ProgramOutput.standardError.write("mdoc-holder: \(name): \(question) [yes/no] ")
        let cancellation = InputLines.Cancellation()
        let timer = Task {
            try? await Task.sleep(for: bound)
            cancellation.cancel()
        }
        defer { timer.cancel() }
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool?, Never>) in
                do throws(SystemCall.Errno) {
                    try DetachedThread.start {
                        continuation.resume(returning: Self.firstAnswer(until: cancellation))
                    }
                } catch {
                    continuation.resume(returning: nil)
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        // A person's answer ended the line on the terminal; an answer from a file or a pipe, or
        // none, did not: it is written out, so that the next line starts on a line of its own.
        if let answer, isatty(STDIN_FILENO) != 1 {
            ProgramOutput.standardError.writeLine(answer ? "yes" : "no")
        } else if answer == nil {
            ProgramOutput.standardError.write("\n")
        }
        return answer
    }

    /// The first line of standard input that answers yes or no.
    private static func firstAnswer(until cancellation: InputLines.Cancellation) -> Bool? {
        while let line = InputLines.standardInput.readLine(until: cancellation) {
            switch line.lowercased().filter({ $0 != " " && $0 != "\t" }) {
            case "yes", "y": return true
            case "no", "n": return false
            default: ProgramOutput.standardError.write("mdoc-holder: answer yes or no: ")
            }
        }
        return nil
    }
}
