import Foundation
import Glibc
import MdocTestSupport
import Testing

/// The holder's decision as the programs meet it (ISO/IEC 18013-5 8.3.2.1.2.1): a person at
/// `mdoc-holder`'s prompt may take longer than the reader's idle bound, the reader may give up
/// while the question is open, the person may press Ctrl-C instead of answering, and the reader's
/// operator may stop the reader meanwhile: each interrupted side ends the session with status 20
/// (9.1.1.4), and the other says the session was ended, not lost. The holder
/// reads its answers from a pipe here, as it does without a terminal; nothing is typed unless a
/// test says so. Meanwhile a second reader finds the mdoc busy.
@Suite struct HolderDecisionCommandTests {
    /// The reader's idle bound (`--timeout`) in these tests; a decision takes longer than this.
    static let readerIdleSeconds = 5 * TimeoutScale.factor
    /// The prompt's question for the demo mDL's one requested element.
    static let question = "Release [a]ll 1, [n]one, or [c]hoose? "

    /// Starts a holder that asks (no `--yes`) and, once it advertises, a reader asking for
    /// age_over_18 with `readerArguments`; returns both once the holder shows its question.
    static func holderAsking(
        _ run: IsolatedRun, reader readerArguments: [String], holder holderArguments: [String] = []
    ) async throws -> (holder: BackgroundProgram, reader: BackgroundProgram) {
        let holder = try run.start("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--no-qr", "--transport", "sim",
            "--timeout", "\(LiveSession.programTimeout)",
        ] + holderArguments)
        let uri = try #require(await holder.line(startingWith: "mdoc:", number: 1, timeout: LiveSession.waitTimeout),
                               "\(holder.standardError)")
        let reader = try run.start("mdoc-reader", [
            "request", uri, "--transport", "sim", "--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem",
        ] + readerArguments)
        let asked = await holder.line(startingWith: Self.question, number: 1, timeout: LiveSession.waitTimeout)
        try #require(asked != nil, "holder: \(holder.standardOutput)\n\(holder.standardError)\nreader: \(reader.standardError)")
        return (holder, reader)
    }

    @Test func aDecisionLongerThanTheReadersIdleBoundIsWaitedFor() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (holder, reader) = try await Self.holderAsking(run, reader: ["--timeout", "\(Self.readerIdleSeconds)"])
        defer { holder.stop() }
        #expect(await reader.waitForStandardError(containing: "waiting for the holder's consent", timeout: LiveSession.waitTimeout),
                "\(reader.standardError)")
        // The person thinks for longer than the reader's idle bound, then releases.
        try await Task.sleep(for: .seconds(Self.readerIdleSeconds + 2))
        holder.send("a\n")

        let read = await reader.wait(timeout: LiveSession.waitTimeout)
        let presented = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardOutput.contains("age_over_18"), "\(read.standardOutput)")
        #expect(presented.status == 0, "\(presented.standardError)")
    }

    @Test func theQuestionIsWithdrawnWhenTheReaderGivesUp() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (holder, reader) = try await Self.holderAsking(run, reader: ["--consent-timeout", "1"])
        defer { holder.stop() }

        let read = await reader.wait(timeout: LiveSession.waitTimeout)
        // Nobody answers: the holder ends because the reader left, not because of input.
        let presented = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(read.status == 8, "\(read.standardError)")
        #expect(read.standardError.contains("no response from the mdoc within 1 s"), "\(read.standardError)")
        #expect(!presented.standardError.contains("sending"), "\(presented.standardError)")
        #expect(presented.standardError.contains("before you decided; nothing was sent"), "\(presented.standardError)")
        // Exit status 8, the session failed: not a kill at the test's bound.
        #expect(presented.status == 8, "\(presented.standardError)")
    }

    @Test func aSecondReaderIsToldTheMdocIsBusyOrGoneAndTheFirstSessionGoesOn() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (holder, reader) = try await Self.holderAsking(run, reader: [])
        defer { holder.stop() }
        let uri = try #require(holder.standardOutput.split(separator: "\n").first { $0.hasPrefix("mdoc:") })

        // 8.3.3.1.1.4: once a reader started the session, the mdoc no longer advertises it.
        let second = try await run.run("mdoc-reader", [
            "request", String(uri), "--transport", "sim", "--trust", "Certs/demo/iaca.pem", "--timeout", "1",
        ])
        #expect(second.status == 8, "\(second.standardError)")
        #expect(second.standardError.contains("the mdoc is busy with another reader or gone"), "\(second.standardError)")

        holder.send("a\n")
        let read = await reader.wait(timeout: LiveSession.waitTimeout)
        let presented = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(read.status == 0, "\(read.standardError)")
        #expect(presented.status == 0, "\(presented.standardError)")
    }

    /// The BLE modes an interrupted session is tried in (8.3.3.1.1): the holder offers only the
    /// one given, so the reader takes it.
    static let modes = ["peripheral", "central"]

    @Test(arguments: modes)
    func ctrlCAtThePromptEndsTheHolderWithoutAnAnswer(mode: String) async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (holder, reader) = try await Self.holderAsking(run, reader: [], holder: ["--ble-mode", mode])
        defer { holder.stop() }

        holder.signal(SIGINT)
        let presented = await holder.wait(timeout: LiveSession.waitTimeout)
        let read = await reader.wait(timeout: LiveSession.waitTimeout)
        #expect(presented.status == 128 + SIGINT, "\(presented.standardError)")
        #expect(!presented.standardError.contains("sending"), "\(presented.standardError)")
        #expect(read.status != 0, "\(read.standardError)")
        #expect(!read.standardOutput.contains("age_over_18"), "\(read.standardOutput)")
        // The session ended as a cancelled one does (9.1.1.4): status 20, said on both sides.
        #expect(presented.standardError.contains("\nmdoc-holder: interrupted by SIGINT: the session was terminated (status 20)"),
                "\(presented.standardError)")
        #expect(read.standardError.contains("mdoc-reader: the mdoc ended the session\n"), "\(read.standardError)")
        // The status message is no response: nothing says one was received and is being verified.
        #expect(!read.standardError.contains("response received") && !read.standardError.contains("verifying"),
                "\(read.standardError)")
    }

    /// The holder's own bound on its question in these tests (`--consent-timeout`).
    static let consentSeconds = 2 * TimeoutScale.factor

    @Test(arguments: modes)
    func aQuestionNobodyAnswersEndsTheSessionAfterTheConsentTimeout(mode: String) async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (holder, reader) = try await Self.holderAsking(
            run, reader: [], holder: ["--ble-mode", mode, "--consent-timeout", "\(Self.consentSeconds)"])
        defer { holder.stop() }

        let presented = await holder.wait(timeout: LiveSession.waitTimeout)
        let read = await reader.wait(timeout: LiveSession.waitTimeout)
        #expect(presented.status == 8, "\(presented.standardError)")
        #expect(presented.standardError.contains(
            "mdoc-holder: error: nobody answered the consent prompt within \(Self.consentSeconds) s (--consent-timeout): the session was ended (status 20) and nothing was sent"),
                "\(presented.standardError)")
        #expect(!presented.standardError.contains("sending"), "\(presented.standardError)")
        // The question's line is ended before anything else is said.
        #expect(presented.standardOutput.contains(Self.question + "\n"), "\(presented.standardOutput)")
        // From the reader's side: the mdoc ended the session (status 20), it was not lost.
        #expect(read.status != 0, "\(read.standardError)")
        #expect(read.standardError.contains("mdoc-reader: the mdoc ended the session\n"), "\(read.standardError)")
        #expect(!read.standardOutput.contains("age_over_18"), "\(read.standardOutput)")
    }

    @Test func aQuestionThatRanOutOfTimeIsAFailedSessionInJSON() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let holder = try run.start("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--transport", "sim", "--json",
            "--timeout", "\(LiveSession.programTimeout)", "--consent-timeout", "\(Self.consentSeconds)",
        ])
        defer { holder.stop() }
        let engagement = try #require(await holder.firstLine(startingWith: "{", timeout: LiveSession.waitTimeout), "\(holder.standardError)")
        let uri = try #require((try JSONSerialization.jsonObject(with: Data(engagement.utf8)) as? [String: Any])?["uri"] as? String)
        let read = try await run.run("mdoc-reader", [
            "request", uri, "--transport", "sim", "--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem",
        ])
        let presented = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(read.status != 0, "\(read.standardError)")
        #expect(presented.status == 8, "\(presented.standardError)")
        let last = try #require(presented.standardOutput.split(separator: "\n").last.map(String.init))
        let session = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(session["type"] as? String == "holderSession", "\(last)")
        #expect(session["outcome"] as? String == "failed", "\(last)")
        #expect(session["exitStatus"] as? Int == 8, "\(last)")
        #expect((session["description"] as? String)?.hasPrefix("nobody answered the consent prompt within") == true, "\(last)")
        #expect(session["released"] as? Int == 0, "\(last)")
    }

    @Test func anAnswerWithinTheConsentTimeoutIsSent() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (holder, reader) = try await Self.holderAsking(
            run, reader: [], holder: ["--consent-timeout", "\(LiveSession.programTimeout)"])
        defer { holder.stop() }
        holder.send("a\n")

        let read = await reader.wait(timeout: LiveSession.waitTimeout)
        let presented = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardOutput.contains("age_over_18"), "\(read.standardOutput)")
        #expect(presented.status == 0, "\(presented.standardError)")
    }

    @Test(arguments: ["0", "-1"])
    func aConsentTimeoutOfNoTimeIsAUsageError(_ seconds: String) async throws {
        let result = try await ProgramRunner.run("mdoc-holder", ["present", "--consent-timeout=\(seconds)", "--yes"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("--consent-timeout must be more than 0 seconds"), "\(result.standardError)")
    }

    @Test(arguments: modes)
    func sigtermToAWaitingReaderEndsTheSessionWithStatus20(mode: String) async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (holder, reader) = try await Self.holderAsking(run, reader: [], holder: ["--ble-mode", mode])
        defer { holder.stop() }
        #expect(await reader.waitForStandardError(containing: "waiting for the holder's consent", timeout: LiveSession.waitTimeout),
                "\(reader.standardError)")

        reader.signal(SIGTERM)
        let read = await reader.wait(timeout: LiveSession.waitTimeout)
        let presented = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(read.status == 128 + SIGTERM, "\(read.standardError)")
        #expect(read.standardError.contains("\nmdoc-reader: interrupted by SIGTERM: the session was terminated (status 20)"),
                "\(read.standardError)")
        #expect(presented.standardError.contains("mdoc-holder: the reader ended the session before you decided; nothing was sent"),
                "\(presented.standardError)")
    }
}
