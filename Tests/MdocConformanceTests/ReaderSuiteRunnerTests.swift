import MdocBLE
import MdocConformance
import MdocModel
import MdocPresentation
import MdocSession
import MdocSim
import MdocTestPeers
import MdocTestSupport
import Testing

/// The reader suite's runner against a reader that misbehaves on purpose: a `HostileReader`
/// takes the response and vanishes, sending neither the status 20 that ends a session
/// (ISO/IEC 18013-5 9.1.1.4) nor the status 10 of a message that does not decrypt. The cases
/// expecting those fail, naming what was expected and what came; a case for a person is judged
/// by the answer, and without one is inconclusive.
@Suite struct ReaderSuiteRunnerTests {
    /// Each wait of the holder, generous: no case waits for one to run out.
    static let timeouts = SessionTimeouts(connection: .seconds(60 * TimeoutScale.factor), idle: .seconds(60 * TimeoutScale.factor))

    /// Runs `names` of the reader suite, a `HostileReader` taking each response and vanishing,
    /// with `answer` as the person's.
    static func run(_ names: [String], answer: Bool?) async throws -> [ConformanceResult] {
        let runner = ReaderConformanceRunner(
            credentials: [try DemoMaterial.mDL()], modes: [.peripheralServer],
            timeouts: timeouts, program: "ReaderSuiteRunnerTests", transport: "sim")
        var readers: [Task<Void, any Error>] = []
        let results = await runner.run(try ReaderConformanceSuite.reader.cases(named: names), over: SimAdapter(), engagement: { uri in
            readers.append(Task {
                let reader = try HostileReader(uri: "\(uri)", link: SimHostileLink())
                try await reader.run(until: .responseReceived)
                reader.close()
            })
        }, confirm: { _ in answer })
        for reader in readers { try await reader.value }
        return results
    }

    @Test func casesExpectingAStatusFailAgainstAReaderThatSendsNone() async throws {
        let results = try await Self.run(["mDLR_Response_WellFormed", "mDLR_Session_AlteredCiphertext"], answer: nil)
        #expect(results.map(\.conformanceCase.name) == ["mDLR_Response_WellFormed", "mDLR_Session_AlteredCiphertext"])
        #expect(results[0].outcome == .failed(
            "expected the session ended by the reader with status session termination (20), but the reader ended the link without a status"))
        #expect(results[1].outcome == .failed(
            "expected the session ended by the reader with status session encryption error (10), but the reader ended the link without a status"))
        let report = ConformanceReport(suite: "reader", results: results)
        #expect(report.counts == (passed: 0, failed: 2, inconclusive: 0))
        #expect(report.junitXML.contains(#"<testcase name="mDLR_Session_AlteredCiphertext" classname="ISO/IEC 18013-5 9.1.1.5, 9.1.1.4""#))
    }

    @Test(arguments: [(true, "passed"), (false, "failed"), (nil, "inconclusive")] as [(Bool?, String)])
    func aCaseForAPersonIsJudgedByTheAnswer(answer: Bool?, outcome: String) async throws {
        let results = try await Self.run(["mDLR_Response_DigestMismatch"], answer: answer)
        #expect(results.map(\.outcome.name) == [outcome], "\(results.map(\.outcome))")
    }

    @Test func withoutAReaderACaseIsInconclusiveAndNobodyIsAsked() async throws {
        let runner = ReaderConformanceRunner(
            credentials: [try DemoMaterial.mDL()], modes: [.peripheralServer],
            timeouts: SessionTimeouts(connection: .milliseconds(200), idle: .milliseconds(200)), program: "test", transport: "sim")
        var asked = 0
        let results = await runner.run(try ReaderConformanceSuite.reader.cases(named: ["mDLR_Response_DigestMismatch"]), over: SimAdapter(),
                                       engagement: { _ in }, confirm: { _ in
            asked += 1
            return true
        })
        #expect(asked == 0)
        #expect(results.first?.outcome.name == "inconclusive")
        #expect(results.first?.outcome.reason?.hasPrefix("no response reached the reader: ") == true, "\(results.map(\.outcome))")
    }

    @Test func anUnknownCaseIsNamed() throws {
        #expect(throws: ConformanceError(.unknownCase, "")) {
            try ReaderConformanceSuite.reader.cases(named: ["mDLR_Response_WellFormed", "mDLR_NoSuchCase"])
        }
        #expect(Set(ReaderConformanceSuite.reader.cases.map(\.name)).count == ReaderConformanceSuite.reader.cases.count)
        #expect(ReaderConformanceSuite.reader.cases.allSatisfy { $0.name.hasPrefix("mDLR_") && !$0.clause.isEmpty })
    }
}
