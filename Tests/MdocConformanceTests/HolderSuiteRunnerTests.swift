import MdocBLE
import MdocConformance
import MdocModel
import MdocPresentation
import MdocSim
import MdocTestPeers
import MdocTestSupport
import Testing

/// The holder suite's runner against a holder that misbehaves on purpose: a `HostileHolder`
/// answers a request it can read with everything asked for, and to anything else it closes the
/// link, sending neither the status 11 of an unreadable DeviceRequest (ISO/IEC 18013-5
/// 8.3.2.1.2.3) nor the status 10 of a message that does not decrypt (9.1.1.4). The cases
/// expecting those fail, naming what was expected and what came; the well-formed request passes.
@Suite struct HolderSuiteRunnerTests {
    /// Each wait of the reader, generous: no case waits for one to run out.
    static let timeouts = SessionTimeouts(
        connection: .seconds(60 * TimeoutScale.factor), idle: .seconds(60 * TimeoutScale.factor),
        response: .seconds(60 * TimeoutScale.factor))

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
        // One hostile holder per case. For the malformed request and the altered ciphertext its
        // session has no response to send (`run(until:)` throws), and it closes the link.
        var holders: [HostileHolder] = []
        for _ in cases {
            let holder = try HostileHolder(link: SimHostileLink())
            holders.append(holder)
            feed.yield(try MdocURI(holder.uri))
            do {
                try await holder.run(until: .requestReceived)
                try await holder.sendResponse()
            } catch {
                holder.close()
            }
        }
        feed.finish()
        let results = await running.value
        for holder in holders { holder.close() }

        #expect(results.map(\.conformanceCase.name) == cases.map(\.name))
        #expect(results[0].outcome == .passed, "\(results[0].outcome)")
        let notCBOR = try #require(results[1].outcome.reason)
        #expect(results[1].outcome.name == "failed")
        #expect(notCBOR.hasPrefix("expected a DeviceResponse with status CBOR decoding error (11) and no document, but "), "\(notCBOR)")
        #expect(notCBOR.hasSuffix("but the session failed: the connection ended before the mdoc answered the request"), "\(notCBOR)")
        let altered = try #require(results[2].outcome.reason)
        #expect(results[2].outcome.name == "failed")
        #expect(altered == "expected the session ended by the mdoc with status session encryption error (10), "
                + "but the session failed: the connection ended before the mdoc answered the request", "\(altered)")

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
