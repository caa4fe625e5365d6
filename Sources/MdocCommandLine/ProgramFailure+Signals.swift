import MdocFiles
import MdocTerminal
import MdocText

extension ProgramFailure {
    /// Runs the asynchronous `body` with the same reporting as the synchronous form,
    /// for the live-session commands.
    /// A failure that a signal caused, by closing the radio, is left to ``ProgramSignals``.
    package static func reporting(program: String, _ body: () async throws(ProgramFailure) -> Void) async {
        do {
            try await body()
            ProgramSignals.yieldToEnding()
        } catch let failure {
            ProgramSignals.yieldToEnding()
            failure.report(program: program)
        }
    }
}
