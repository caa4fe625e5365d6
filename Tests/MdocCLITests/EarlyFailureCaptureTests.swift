import Foundation
import MdocTestPeers
import MdocTestSupport
import Testing

/// `--save-session DIR` when the peer fails before the session starts: the holder and the reader
/// still write the engagement, the index with the outcome and the times, and whatever messages
/// went over the link (docs/session-capture.md, "A session that failed early"). The peers that
/// fail are in this process (MdocTestPeers), over `sim`.
@Suite("Captures of sessions that failed early", .timeLimit(.minutes(4)))
struct EarlyFailureCaptureTests {
    /// The `--timeout` that a peer which never comes is waited out for.
    static let shortTimeout = "1"

    /// The `--timeout` within which a peer in this process connects and subscribes: an
    /// inactivity bound, generous since the suite runs in parallel on two cores, and waited out
    /// by the test whose peer never starts the session.
    static let connectingTimeout = 15 * TimeoutScale.factor

    /// The sorted names of the files in `folder`.
    static func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// The replays of the capture in `folder`: `mdoc inspect --explain`, `verify --session` and
    /// `verify-request --session`, each expected to read it and say that the session had no
    /// response or request.
    static func expectReplaysNameTheOutcome(
        _ folder: String, outcome: String, environment: [String: String], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let inspected = try await ProgramRunner.run("mdoc", ["inspect", folder, "--explain"], environment: environment)
        #expect(inspected.status == 0, "\(inspected.standardError)", sourceLocation: sourceLocation)
        #expect(inspected.standardOutput.contains("  Outcome: \(outcome)"), "\(inspected.standardOutput)", sourceLocation: sourceLocation)
        let verified = try await ProgramRunner.run(
            "mdoc-reader", ["verify", "--session", folder, "--trust", "Certs/demo/iaca.pem"], environment: environment)
        #expect(verified.status == 8, "\(verified.standardError)", sourceLocation: sourceLocation)
        #expect(verified.standardError.contains("the captured session holds no response: \(outcome)"), "\(verified.standardError)",
                sourceLocation: sourceLocation)
        let request = try await ProgramRunner.run(
            "mdoc-reader", ["verify-request", "--session", folder, "--trust-readers", "Certs/demo/reader-root.pem"],
            environment: environment)
        #expect(request.status == 2, "\(request.standardError)", sourceLocation: sourceLocation)
        #expect(request.standardError.contains("the capture holds no DeviceRequest: \(outcome)"), "\(request.standardError)",
                sourceLocation: sourceLocation)
    }

    @Test("a holder no reader came to captures its engagement, the times and the outcome, without a transcript")
    func holderWithoutReader() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let capture = run.home + "/capture"
        let holder = try await run.run("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--timeout", Self.shortTimeout,
            "--save-session", capture,
        ])
        #expect(holder.status == 8, "\(holder.standardError)")
        #expect(holder.standardError.contains(
            "mdoc-holder: the session is captured in \(capture), without a transcript: no SessionEstablishment was taken"),
                "\(holder.standardError)")
        #expect(try Self.files(capture) == ["engagement-uri.txt", "engagement.cbor", "ephemeral-key.pem", "index.json"])
        for name in try Self.files(capture) { #expect(try SessionCaptureTests.mode(capture + "/" + name) == 0o600, "\(name)") }

        let index = try SessionCaptureTests.index(capture)
        #expect(index["role"] as? String == "mdoc")
        #expect(index["sessionTranscript"] is NSNull)
        #expect(index["bleMode"] is NSNull)
        #expect(index["mtu"] is NSNull)
        #expect((index["messages"] as? [Any])?.isEmpty == true)
        #expect(index["exitStatus"] as? Int == 8)
        #expect(index["started"] is String && index["ended"] is String)
        let outcome = try #require(index["outcome"] as? String)
        #expect(outcome.hasPrefix("no reader on service "), "\(outcome)")
        #expect(holder.standardError.contains("mdoc-holder: error: \(outcome)"), "\(holder.standardError)")
        let uri = try String(contentsOfFile: capture + "/engagement-uri.txt", encoding: .utf8)
        #expect(holder.standardOutput.contains(uri), "\(holder.standardOutput)")

        try await Self.expectReplaysNameTheOutcome(capture, outcome: outcome, environment: run.environment)
    }

    @Test("a holder whose reader connects and never writes State 0x01 captures an outcome that says so")
    func holderWithReaderThatNeverStarts() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let capture = folder + "/capture"
        let link = SimHostileLink()
        let holder = try BackgroundProgram("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--ble-mode", "peripheral",
            "--transport", link.transport, "--timeout", "\(Self.connectingTimeout)", "--save-session", capture,
        ], environment: link.environment)
        let reader = try HostileReader(uri: try await HostileProgramTests.engagement(holder), link: link)
        try await reader.run(until: .subscribed)
        let result = await holder.wait(timeout: LiveSession.waitTimeout)
        reader.close()
        #expect(result.status == 8, "\(result.standardError)")
        #expect(try Self.files(capture) == ["engagement-uri.txt", "engagement.cbor", "ephemeral-key.pem", "index.json"])
        let index = try SessionCaptureTests.index(capture)
        #expect(index["sessionTranscript"] is NSNull)
        #expect((index["messages"] as? [Any])?.isEmpty == true)
        let outcome = try #require(index["outcome"] as? String)
        #expect(outcome.contains("1 central was still connected without having written State 0x01"), "\(outcome)")
        try await Self.expectReplaysNameTheOutcome(capture, outcome: outcome, environment: link.environment)
    }

    @Test("a reader whose mdoc never appears captures the engagement, its transcript and the outcome")
    func readerWithoutHolder() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let capture = folder + "/capture"
        let link = SimHostileLink()
        // Its engagement is shown, and nothing serves it.
        let holder = try HostileHolder(link: link)
        let reader = try await ProgramRunner.run("mdoc-reader", [
            "request", holder.uri, "--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--transport", link.transport,
            "--timeout", Self.shortTimeout, "--save-session", capture,
        ], timeout: LiveSession.waitTimeout, environment: link.environment)
        #expect(reader.status == 8, "\(reader.standardError)")
        #expect(try Self.files(capture) == [
            "engagement-uri.txt", "engagement.cbor", "ephemeral-key.pem", "index.json", "session-transcript.cbor",
        ])
        let index = try SessionCaptureTests.index(capture)
        #expect(index["role"] as? String == "reader")
        #expect(index["bleMode"] as? String == "peripheral")
        #expect((index["messages"] as? [Any])?.isEmpty == true)
        #expect(index["report"] is NSNull)
        #expect(index["exitStatus"] as? Int == 8)
        let outcome = try #require(index["outcome"] as? String)
        #expect(reader.standardError.contains("mdoc-reader: error: \(outcome)"), "\(reader.standardError)")
        try #require(try String(contentsOfFile: capture + "/engagement-uri.txt", encoding: .utf8) == holder.uri + "\n")
        try await Self.expectReplaysNameTheOutcome(capture, outcome: outcome, environment: link.environment)
    }

    @Test("a reader whose mdoc takes the request and never answers captures the request it sent and the outcome")
    func readerWithHolderThatNeverAnswers() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let capture = folder + "/capture"
        let link = SimHostileLink()
        let holder = try HostileHolder(link: link)
        let reader = try BackgroundProgram("mdoc-reader", [
            "request", holder.uri, "--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--transport", link.transport,
            "--timeout", "\(HostileProgramTests.timeout)", "--consent-timeout", Self.shortTimeout, "--save-session", capture,
        ], environment: link.environment)
        // The reader gives up one second after its request went out (--consent-timeout); on a
        // busy machine that may come before this in-process holder has read the whole request, and
        // the holder then finds the link closed. What is checked is the reader's capture.
        _ = try? await holder.run(until: .requestReceived)
        let result = await reader.wait(timeout: LiveSession.waitTimeout)
        holder.close()
        #expect(result.status == 8, "\(result.standardError)")
        #expect(try Self.files(capture) == [
            "01-sent-device-request.cbor", "01-sent-session-establishment.cbor", "engagement-uri.txt", "engagement.cbor",
            "ephemeral-key.pem", "index.json", "session-transcript.cbor",
        ])
        let index = try SessionCaptureTests.index(capture)
        let messages = try #require(index["messages"] as? [[String: Any]])
        #expect(messages.map { $0["structure"] as? String } == ["SessionEstablishment"])
        let outcome = try #require(index["outcome"] as? String)
        #expect(result.standardError.contains("mdoc-reader: error: \(outcome)"), "\(result.standardError)")
        // Its request is there to check; the response it never got is not.
        let request = try await ProgramRunner.run(
            "mdoc-reader", ["verify-request", "--session", capture, "--trust-readers", "Certs/demo/reader-root.pem"],
            environment: link.environment)
        #expect(request.standardError.contains("the reader is anonymous"), "\(request.standardError)")
        let verified = try await ProgramRunner.run(
            "mdoc-reader", ["verify", "--session", capture, "--trust", "Certs/demo/iaca.pem"], environment: link.environment)
        #expect(verified.status == 8, "\(verified.standardError)")
        #expect(verified.standardError.contains("the captured session holds no response: \(outcome)"), "\(verified.standardError)")
    }
}
