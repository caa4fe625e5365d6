import MdocConsent
import MdocFiles
import MdocPresentation
import MdocSession
import MdocTerminal
import MdocText

/// Who decides what the holder discloses (docs/architecture.md rule 6), as the consent delegate of the
/// session: `--yes`, `--policy FILE`, or the person at the terminal.
struct ConsentSource: HolderConsentDelegate {
    enum Kind: Sendable {
        /// `--yes`: every requested element the credentials hold.
        case approveAll
        /// `--policy FILE`.
        case policy(ConsentPolicy)
        /// Ask on the terminal.
        case prompt
    }

    let kind: Kind

    /// The consent of `--yes` or `--policy FILE`, else the prompt on `output`; with neither and
    /// no terminal to ask on, a note says that answers are read from standard input.
    static func kind(yes: Bool, policy: String?, output: ProgramOutput) throws(ProgramFailure) -> Kind {
        if yes {
            return .approveAll
        }
        if let policy {
            do {
                return .policy(try ConsentPolicy.load(file: policy))
            } catch {
                throw ProgramFailure(.badTrustInput, "--policy \(error)")
            }
        }
        if !ConsentPrompt.canAsk(output: output) {
            ProgramOutput.standardError.writeLine(
                "mdoc-holder: note: no terminal to ask for consent on, and neither --yes nor --policy was given: answers are read from standard input, and every request is refused once it ends")
        }
        return .prompt
    }
    /// Where the request and the consent dialogue are shown.
    let output: ProgramOutput
    /// How long the prompt waits for an answer in a live session; `nil` for an answer written to
    /// a file (`respond`), which no reader waits for.
    let timeout: ConsentTimeout?

    /// The approved elements for `request`, after showing it on ``output``. The prompt stops at
    /// once when the session's task is cancelled (the reader left), and ends the session when
    /// nobody answers it within ``timeout``, if one is given.
    func decide(_ request: PresentationRequest) async -> ElementSelection {
        switch kind {
        case .approveAll:
            output.write(RequestPresentationText.render(request))
            return request.allAvailable
        case .policy(let policy):
            output.write(RequestPresentationText.render(request))
            let evaluation = policy.evaluate(request)
            for decision in evaluation.decisions {
                output.writeLine("  \(decision)")
            }
            return evaluation.selection
        case .prompt:
            let output = output
            guard let timeout else { return await ConsentPrompt.ask(request, output: output) }
            return await timeout.bound({ await ConsentPrompt.ask(request, output: output) }, output: output)
        }
    }
}
