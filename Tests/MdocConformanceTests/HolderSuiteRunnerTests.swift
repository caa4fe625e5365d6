import MdocBLE
import MdocConformance
import MdocModel
import MdocPresentation
import MdocSim
import MdocTestPeers
import Testing

/// The holder suite's runner against a holder that misbehaves on purpose: a `HostileHolder`
/// answers a request it can read with everything asked for, and answers nothing else, neither
/// the status 11 of an unreadable DeviceRequest (ISO/IEC 18013-5 8.3.2.1.2.3) nor the status 10
/// of a message that does not decrypt (9.1.1.4). The cases expecting those fail, naming what
/// was expected and what came; the well-formed request passes.
@Suite struct HolderSuiteRunnerTests {
    /// Each wait of the reader: short, since the hostile holder leaves the reader waiting.
    static let timeouts = SessionTimeouts(connection: .seconds(60), idle: .seconds(3), response: .seconds(3))

    @Test func casesExpectingAnErrorFailAgainstAHolderThatSendsNone() async throws {
        let cases = try ConformanceSuite.holder.cases(
            named: ["mDL_Request_WellFormed", "mDL_Request_NotCBOR", "mDL_Session_AlteredCiphertext"])
        let runner = ConformanceRunner(
            trustAnchors: [try DemoMaterial.iaca()], timeouts: Self.timeouts, program: "HolderSuiteRunnerTests", transport: "sim")
        let (engagements, feed) = AsyncStream.makeStream(of: MdocURI.self)
        let running = Task {
            var next = engagements.makeAsyncIterator()
            return await runner.run(cases, over: SimAdapter(), engagement: { await next.next() })
        }
        // One hostile holder per case, each left open until the run ends: for the malformed
        // request and the altered ciphertext it answers nothing (its session throws), and the
        // reader's wait for an answer runs out.
        var holders: [HostileHolder] = []
        for _ in cases {
            let holder = try HostileHolder(link: SimHostileLink())
            holders.append(holder)
            feed.yield(try MdocURI(holder.uri))
            _ = try? await holder.run(until: .requestReceived)
            _ = try? await holder.sendResponse()
        }
        feed.finish()
        let results = await running.value
        for holder in holders { holder.close() }

        #expect(results.map(\.conformanceCase.name) == cases.map(\.name))
        #expect(results[0].outcome == .passed, "\(results[0].outcome)")
        let notCBOR = try #require(results[1].outcome.reason)
        #expect(results[1].outcome.name == "failed")
        #expect(notCBOR.hasPrefix("expected a DeviceResponse with status CBOR decoding error (11) and no document, but "), "\(notCBOR)")
        #expect(notCBOR.contains("no response from the mdoc within 3 s"), "\(notCBOR)")
        let altered = try #require(results[2].outcome.reason)
        #expect(results[2].outcome.name == "failed")
        #expect(altered.hasPrefix("expected the session ended by the mdoc with status session encryption error (10), but "), "\(altered)")

        let report = ConformanceReport(suite: "holder", results: results)
        #expect(report.counts == (passed: 1, failed: 2, inconclusive: 0))
        #expect(report.junitXML.contains(#"<testsuite name="holder" tests="3" failures="2" errors="0" skipped="0""#), "\(report.junitXML)")
        #expect(report.junitXML.contains(#"<testcase name="mDL_Request_NotCBOR" classname="ISO/IEC 18013-5 8.3.2.1.2.3""#))
    }

    @Test func aCaseWithoutAnEngagementAndEveryCaseAfterItAreInconclusive() async throws {
        let cases = try ConformanceSuite.holder.cases(named: ["mDL_Request_NotCBOR", "mDL_Request_UnknownDocType"])
        let runner = ConformanceRunner(trustAnchors: [try DemoMaterial.iaca()], timeouts: Self.timeouts, program: "test", transport: "sim")
        var asked = 0
        let results = await runner.run(cases, over: SimAdapter(), engagement: {
            asked += 1
            return nil
        })
        #expect(asked == 1)
        #expect(results.map(\.outcome) == [
            .inconclusive("no engagement of the mdoc came for this case"), .inconclusive("no engagement of the mdoc came for this case"),
        ])
    }

    @Test func anUnknownCaseIsNamed() throws {
        #expect(throws: ConformanceError(.unknownCase, "")) {
            try ConformanceSuite.holder.cases(named: ["mDL_Request_WellFormed", "mDL_NoSuchCase"])
        }
        #expect(Set(ConformanceSuite.holder.cases.map(\.name)).count == ConformanceSuite.holder.cases.count)
    }
}
