import MdocConsent
import MdocPresentation
import MdocSession
import MdocText
import Testing

/// Drives a ``ConsentPrompt`` with scripted answers and records what it wrote.
final class PromptScript {
    private var answers: [String]
    private(set) var output = ""
    private(set) var linesRead = 0

    init(_ answers: [String]) { self.answers = answers }

    var prompt: ConsentPrompt {
        ConsentPrompt(
            readLine: { [self] in
                guard !answers.isEmpty else { return nil }
                linesRead += 1
                return answers.removeFirst()
            },
            write: { [self] in output += $0 })
    }
}

@Suite struct ConsentPromptTests {
    typealias Fixture = ConsentTestSupport

    @Test(arguments: ["a", "all", " A ", "ALL"])
    func allReleasesEveryAvailableElement(answer: String) {
        let script = PromptScript([answer])
        #expect(script.prompt.ask(Fixture.request()) == Fixture.selection(["family_name", "portrait", "age_over_18"]))
        #expect(script.output.contains("[a]ll 3, [n]one, or [c]hoose?"))
        #expect(script.output.contains("Releasing all 3 elements."))
    }

    @Test(arguments: ["n", "none"])
    func noneReleasesNothing(answer: String) {
        let script = PromptScript([answer])
        #expect(script.prompt.ask(Fixture.request()) == .none)
        #expect(script.output.hasSuffix("Releasing nothing.\n"))
    }

    @Test func chooseAsksPerAvailableElement() {
        let script = PromptScript(["c", "y", "n", "yes"])
        #expect(script.prompt.ask(Fixture.request()) == Fixture.selection(["family_name", "age_over_18"]))
        #expect(script.linesRead == 4)
        #expect(script.output.contains("release Portrait (portrait) (will be retained)? [y/n]"))
        #expect(!script.output.contains("release Signature"))
        #expect(script.output.contains("Releasing 2 of 3 elements."))
    }

    @Test func endOfInputReleasesNothing() {
        let atFirstQuestion = PromptScript([])
        #expect(atFirstQuestion.prompt.ask(Fixture.request()) == .none)
        let whileChoosing = PromptScript(["c", "y"])
        #expect(whileChoosing.prompt.ask(Fixture.request()) == .none)
        #expect(whileChoosing.output.hasSuffix("Releasing nothing.\n"))
    }

    @Test func garbageIsAskedAgain() {
        let script = PromptScript(["maybe", "", "c", "perhaps", "y", "n", "n"])
        #expect(script.prompt.ask(Fixture.request()) == Fixture.selection(["family_name"]))
        // The answers in the order the questions name them.
        #expect(script.output.split(separator: "Please answer all, none, choose.", omittingEmptySubsequences: false).count == 3)
        #expect(script.output.contains("Please answer yes, no."))
    }

    @Test func oneElementIsCountedInTheSingular() {
        let request = PresentationRequest(documents: [
            PresentationRequest.Document(
                docType: "org.iso.18013.5.1.mDL",
                elements: [PresentationRequest.Element(nameSpace: "org.iso.18013.5.1", identifier: "age_over_18",
                                                       displayName: "Age over 18", intentToRetain: false, isAvailable: true)],
                readerAuthentication: .anonymous, isAvailable: true),
        ])
        let all = PromptScript(["a"])
        _ = all.prompt.ask(request)
        #expect(all.output.hasSuffix("Releasing the 1 element.\n"), "\(all.output)")
        let chosen = PromptScript(["c", "n"])
        _ = chosen.prompt.ask(request)
        #expect(chosen.output.hasSuffix("Releasing 0 of 1 element.\n"), "\(chosen.output)")
    }

    @Test func attemptsLimitBoundary() {
        let limit = ConsentPrompt.maximumAttempts
        #expect(limit == 5)
        let justUnder = PromptScript(Array(repeating: "?", count: limit - 1) + ["a"])
        #expect(justUnder.prompt.ask(Fixture.request()) == Fixture.selection(["family_name", "portrait", "age_over_18"]))
        let atLimit = PromptScript(Array(repeating: "?", count: limit) + ["a"])
        #expect(atLimit.prompt.ask(Fixture.request()) == .none)
        #expect(atLimit.linesRead == limit)
        #expect(atLimit.output.contains("No valid answer."))
    }

    @Test func nothingAvailableAsksNothing() {
        var request = Fixture.requestWithMissingDocument()
        request.documents.removeFirst()
        let script = PromptScript(["a"])
        #expect(script.prompt.ask(request) == .none)
        #expect(script.linesRead == 0)
        #expect(script.output.contains("You hold none of the requested elements"))
    }
}
