import Foundation
import MdocBLE
import MdocCBOR
import MdocConformance
import MdocModel
import MdocPresentation
import MdocSession
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
            named: ["mDL_Request_WellFormed", "mDL_Request_NotCBOR", "mDL_Session_AlteredCiphertext", "mDL_Session_EstablishmentWithoutEReaderKey"])
        let runner = ConformanceRunner(
            trustAnchors: [try DemoMaterial.iaca()], timeouts: Self.timeouts, program: "HolderSuiteRunnerTests", transport: "sim")
        let (engagements, feed) = AsyncStream.makeStream(of: MdocURI.self)
        let running = Task {
            var next = engagements.makeAsyncIterator()
            return await runner.run(cases, over: SimAdapter(), engagement: { await next.next() })
        }
        // One hostile holder per case. For the malformed request, the altered ciphertext and the
        // SessionEstablishment without EReaderKey its session has no response to send
        // (`run(until:)` throws), and it closes the link.
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

        let withoutKey = try #require(results[3].outcome.reason)
        #expect(results[3].outcome.name == "failed")
        #expect(withoutKey == "expected the session ended by the mdoc with status 10 or 11, with no response, "
                + "but the session failed: the connection ended before the mdoc answered the request", "\(withoutKey)")

        let report = ConformanceReport(suite: "holder", results: results)
        #expect(report.counts == (passed: 1, failed: 3, inconclusive: 0))
        #expect(report.junitXML.contains(#"<testsuite name="holder" tests="4" failures="3" errors="0" skipped="0""#), "\(report.junitXML)")
        #expect(report.junitXML.contains(#"<testcase name="mDL_Request_NotCBOR" classname="ISO/IEC 18013-5 8.3.2.1.2.3""#))
    }

    /// The outcome of case `name`, `mDL_Request_WellFormed` unless given, against one
    /// `HostileHolder` that `behave` drives through its session, the runner signing as the demo
    /// reader when `signed`; the holder is closed once the case ended.
    static func wellFormedCase(
        _ name: String = "mDL_Request_WellFormed", timeouts: SessionTimeouts = timeouts, signed: Bool = false,
        _ behave: (HostileHolder) async throws -> Void
    ) async throws -> ConformanceOutcome {
        let runner = ConformanceRunner(
            trustAnchors: [try DemoMaterial.iaca()], timeouts: timeouts, program: "HolderSuiteRunnerTests", transport: "sim",
            readerAuthentication: signed ? try DemoMaterial.readerAuthentication() : nil)
        let cases = try ConformanceSuite.holder.cases(named: [name])
        let (engagements, feed) = AsyncStream.makeStream(of: MdocURI.self)
        let running = Task {
            var next = engagements.makeAsyncIterator()
            return await runner.run(cases, over: SimAdapter(), engagement: { await next.next() })
        }
        let holder = try HostileHolder(link: SimHostileLink())
        feed.yield(try MdocURI(holder.uri))
        feed.finish()
        try await behave(holder)
        let results = await running.value
        holder.close()
        return try #require(results.first?.outcome)
    }

    /// Every fault a `HostileHolder` can inject into the chunking of its response
    /// (8.3.3.1.1.6) fails the well-formed case, the reason naming what the reader met.
    @Test(arguments: ChunkFault.allCases)
    func aResponseWithBrokenChunkingFailsTheWellFormedCase(fault: ChunkFault) async throws {
        let outcome = try await Self.wellFormedCase { holder in
            try await holder.run(until: .requestReceived)
            try await holder.sendResponse(fault)
        }
        let reason = try #require(outcome.reason)
        #expect(outcome.name == "failed", "\(outcome)")
        #expect(reason.hasPrefix("expected a verified response with org.iso.18013.5.1.mDL holding "), "\(reason)")
        #expect(reason.contains(fault.readerFailure), "\(reason)")
    }

    /// A holder that vanishes once it has the request, before or while it sends the response,
    /// fails the well-formed case: it was asked and did not answer.
    @Test(arguments: [HolderPhase.requestReceived, .midResponse])
    func aHolderVanishingAfterTheRequestFailsTheWellFormedCase(at phase: HolderPhase) async throws {
        let outcome = try await Self.wellFormedCase { holder in
            try await holder.vanish(at: phase)
        }
        #expect(outcome.name == "failed", "\(outcome)")
        #expect(outcome.reason?.hasPrefix("expected a verified response with org.iso.18013.5.1.mDL holding ") == true, "\(outcome)")
    }

    /// A holder that takes the request and stalls, sending nothing, fails the well-formed case
    /// once the reader's bound for the answer ran out.
    @Test func aHolderStallingAfterTheRequestFailsTheWellFormedCase() async throws {
        let timeouts = SessionTimeouts(
            connection: Self.timeouts.connection, idle: Self.timeouts.idle, response: .seconds(2 * TimeoutScale.factor))
        let outcome = try await Self.wellFormedCase(timeouts: timeouts) { holder in
            try await holder.run(until: .requestReceived)
        }
        #expect(outcome.name == "failed", "\(outcome)")
        #expect(outcome.reason?.hasPrefix("expected a verified response with org.iso.18013.5.1.mDL holding ") == true, "\(outcome)")
    }

    /// A holder that cuts its response for a large ATT_MTU whatever the reader took (chunks of
    /// 49 octets) passes the well-formed case, whose ATT_MTU is 515, and fails mDL_BLE_MTU23:
    /// its chunks do not fit the 20 octets an ATT_MTU of 23 leaves (8.3.3.1.1.6).
    @Test(arguments: ["mDL_Request_WellFormed", "mDL_BLE_MTU23"])
    func aHolderIgnoringTheATTMTUFailsOnlyTheSmallMTUCase(name: String) async throws {
        let outcome = try await Self.wellFormedCase(name) { holder in
            try await holder.run(until: .requestReceived)
            try await holder.sendResponse()
        }
        if name == "mDL_Request_WellFormed" {
            #expect(outcome == .passed, "\(outcome)")
        } else {
            #expect(outcome.name == "failed", "\(outcome)")
            #expect(outcome.reason?.contains("pduTooLarge") == true, "\(outcome)")
        }
    }

    /// The holder receives the request in the chunks each sized case cuts it into, and its
    /// answer in correct chunks verifies: short chunks and a last chunk of one octet are chunks
    /// of 8.3.3.1.1.6, whose reassembly a holder must manage.
    @Test(arguments: ["mDL_BLE_ShortChunks", "mDL_BLE_LastChunkOneOctet", "mDL_BLE_MTU517"])
    func aHolderThatReassemblesAnyChunksPassesTheSizedCases(name: String) async throws {
        let outcome = try await Self.wellFormedCase(name) { holder in
            try await holder.run(until: .requestReceived)
            try await holder.sendResponse()
        }
        #expect(outcome == .passed, "\(outcome)")
    }

    /// In `mDL_BLE_PauseBeforeLastChunk` the reader pauses 3 s before the last chunk of its
    /// request: a holder that sits through the pause answers and passes; one that gives up on a
    /// message whose chunks stop for more than a second, closing the link, fails.
    @Test(arguments: [nil, .seconds(1)] as [Duration?])
    func thePauseCaseCatchesAHolderThatGivesUpOnAStalledRequest(maximumChunkGap: Duration?) async throws {
        let outcome = try await Self.wellFormedCase("mDL_BLE_PauseBeforeLastChunk") { holder in
            holder.maximumChunkGap = maximumChunkGap
            guard maximumChunkGap != nil else {
                try await holder.run(until: .requestReceived)
                try await holder.sendResponse()
                return
            }
            await #expect(throws: PeerError.self) { try await holder.run(until: .requestReceived) }
        }
        if maximumChunkGap == nil {
            #expect(outcome == .passed, "\(outcome)")
        } else {
            #expect(outcome.name == "failed", "\(outcome)")
            #expect(outcome.reason?.hasPrefix("expected a verified response with org.iso.18013.5.1.mDL holding ") == true, "\(outcome)")
        }
    }

    /// A reader authentication case passes against a holder that discloses nothing, here one
    /// that ends the link once it has the request (the transport's termination, 9.1.1.4); fails
    /// against one that answers with every element asked for, whatever the reader
    /// authentication; and is inconclusive against one that never answers.
    @Test func aReaderAuthenticationCaseJudgesWhatTheHolderDisclosed() async throws {
        let name = "mDL_ReaderAuth_AlteredSignature"
        let ending = try await Self.wellFormedCase(name, signed: true) { holder in
            try await holder.vanish(at: .requestReceived)
        }
        #expect(ending == .passed, "\(ending)")

        let disclosing = try await Self.wellFormedCase(name, signed: true) { holder in
            try await holder.run(until: .requestReceived)
            try await holder.sendResponse()
        }
        #expect(disclosing.name == "failed", "\(disclosing)")
        #expect(disclosing.reason?.hasPrefix(
            "expected no data element of org.iso.18013.5.1.mDL disclosed, but 2 element(s) of it were returned (the mdoc sent a DeviceResponse") == true,
            "\(disclosing)")

        let timeouts = SessionTimeouts(
            connection: Self.timeouts.connection, idle: Self.timeouts.idle, response: .seconds(2 * TimeoutScale.factor))
        let stalling = try await Self.wellFormedCase(name, timeouts: timeouts, signed: true) { holder in
            try await holder.run(until: .requestReceived)
        }
        #expect(stalling.name == "inconclusive", "\(stalling)")
        #expect(stalling.reason?.hasPrefix("no answer of the mdoc to judge: ") == true, "\(stalling)")
    }

    /// `mDL_ReaderAuth_RequestInfo` passes against a holder that authenticates the reader over
    /// the ItemsRequestBytes it received and answers a reader it trusts; it fails against one
    /// that authenticates the reader over an ItemsRequest encoded again from the fields it
    /// knows, without requestInfo: that finds the signature wrong and withholds everything.
    @Test(arguments: [false, true])
    func theRequestInfoCaseCatchesAHolderThatEncodesTheItemsRequestAgain(encodingAgain: Bool) async throws {
        let verifier = DeviceRequestVerifier(trustAnchors: [try DemoMaterial.certificate("reader-root.pem")])
        let outcome = try await Self.wellFormedCase("mDL_ReaderAuth_RequestInfo", signed: true) { holder in
            try await holder.run(until: .requestReceived)
            let received = try #require(holder.received)
            var request = received.deviceRequest
            #expect(request.docRequests.allSatisfy { $0.itemsRequest.value.requestInfo == ConformanceSuite.requestInfoEntries })
            if encodingAgain {
                for index in request.docRequests.indices {
                    let items = request.docRequests[index].itemsRequest.value
                    request.docRequests[index].itemsRequest = EmbeddedCBOR(ItemsRequest(docType: items.docType, nameSpaces: items.nameSpaces))
                }
            }
            let report = verifier.verify(request, sessionTranscript: received.sessionTranscript, at: Date())
            if report.docRequests.allSatisfy({ $0.outcome == .authenticated }) {
                try await holder.sendResponse()
            } else {
                holder.close()
            }
        }
        if encodingAgain {
            #expect(outcome.name == "failed", "\(outcome)")
            #expect(outcome.reason?.hasPrefix("expected a verified response with org.iso.18013.5.1.mDL holding ") == true, "\(outcome)")
        } else {
            #expect(outcome == .passed, "\(outcome)")
        }
    }

    /// A SessionEstablishment with EReaderKeyBytes untagged or `data` tagged (ISO/IEC 18013-5
    /// 9.1.1.4) fails a holder that reads past tags and answers the request inside; a holder
    /// that refuses it and closes the link fails too, having sent no status 10 or 11.
    @Test(arguments: ["mDL_Session_EReaderKeyUntagged", "mDL_Session_EstablishmentDataTagged"], [false, true])
    func theRetaggedEstablishmentCasesCatchAHolderThatReadsPastTags(name: String, readsPastTags: Bool) async throws {
        let outcome = try await Self.wellFormedCase(name) { holder in
            holder.readsPastTags = readsPastTags
            do {
                try await holder.run(until: .requestReceived)
                try await holder.sendResponse()
            } catch {
                holder.close()
            }
        }
        #expect(outcome.name == "failed", "\(outcome)")
        let reason = try #require(outcome.reason)
        if readsPastTags {
            #expect(reason == "expected the session ended by the mdoc with status 10 or 11, with no response, "
                    + "but the mdoc sent a DeviceResponse with status OK (0) and 1 document(s) (org.iso.18013.5.1.mDL)", "\(reason)")
        } else {
            #expect(reason == "expected the session ended by the mdoc with status 10 or 11, with no response, "
                    + "but the session failed: the connection ended before the mdoc answered the request", "\(reason)")
        }
    }

    /// What a holder does once the reader ended the session by one means alone, in the
    /// `mDL_Termination_` cases.
    enum AfterTermination: String, CaseIterable {
        /// It closes the link, as 9.1.1.4 has it.
        case closes
        /// It keeps the link open.
        case keepsOpen
        /// It sends its response again, then closes.
        case answersAgain
    }

    /// `mDL_Termination_ReaderStatusOnly` and `mDL_Termination_ReaderStateOnly` (ISO/IEC
    /// 18013-5 9.1.1.4, 8.3.3.1.1.5): the reader's last word is SessionData with status 20 alone,
    /// or State 0x02 alone; a holder that then closes the channel passes, one that keeps it open
    /// fails once the reader's idle bound ran out, and one that sends anything more fails.
    @Test(arguments: ["mDL_Termination_ReaderStatusOnly", "mDL_Termination_ReaderStateOnly"], AfterTermination.allCases)
    func theTerminationCasesCatchAHolderThatKeepsTheChannel(name: String, after: AfterTermination) async throws {
        let timeouts = SessionTimeouts(
            connection: Self.timeouts.connection, idle: .seconds(2 * TimeoutScale.factor), response: Self.timeouts.response)
        let outcome = try await Self.wellFormedCase(name, timeouts: timeouts) { holder in
            try await holder.run(until: .requestReceived)
            try await holder.sendResponse()
            let termination = try await holder.termination()
            #expect(termination == (name.hasSuffix("StatusOnly") ? SessionData(status: .sessionTermination).encoded() : nil))
            switch after {
            case .closes:
                holder.close()
            case .keepsOpen:
                break
            case .answersAgain:
                try await holder.sendResponse()
                holder.close()
            }
        }
        let expected = "expected a response, then the channel closed by the mdoc after the reader's termination, with nothing sent after it, but "
        switch after {
        case .closes:
            #expect(outcome == .passed, "\(outcome)")
        case .keepsOpen:
            #expect(outcome.name == "failed", "\(outcome)")
            #expect(outcome.reason?.hasPrefix(expected + "the mdoc kept the channel open: ") == true, "\(outcome)")
        case .answersAgain:
            #expect(outcome.name == "failed", "\(outcome)")
            #expect(outcome.reason?.hasPrefix(expected + "the mdoc sent a message of ") == true, "\(outcome)")
            #expect(outcome.reason?.hasSuffix(" bytes after the reader's termination") == true, "\(outcome)")
        }
    }

    /// `mDL_BLE_WrongIdent` (ISO/IEC 18013-5 8.3.3.1.1.4), in virtual time: our holder, in mdoc
    /// central client mode, reads the wrong Ident the runner serves and leaves, and the case
    /// passes once the connection's bound ran out; a holder that reads Ident without checking
    /// it starts the session, answers, and fails the case.
    @Test(arguments: [true, false])
    func theWrongIdentCaseCatchesAHolderThatDoesNotCheckIdent(checksIdent: Bool) async throws {
        let clock = ManualClock()
        var runner = ConformanceRunner(
            trustAnchors: [try DemoMaterial.iaca()], timeouts: Self.timeouts, program: "HolderSuiteRunnerTests", transport: "sim")
        runner.clock = clock
        // Central client mode alone: offering peripheral server mode too, the holder would wait
        // for a reader there after leaving this one.
        let options = BleOptions.offering(peripheralServerMode: false, centralClientMode: true)
        let holder = try HolderDriver(
            credentials: [try DemoMaterial.mDL()], bleOptions: options, trust: ReaderRootTrust(trustAnchors: []),
            consent: HolderConsent.approvingAllAvailable)
        let uri = holder.mdocURI
        let running = Task { await runner.run(try ConformanceSuite.holder.cases(named: ["mDL_BLE_WrongIdent"]), over: SimAdapter(), engagement: { uri }) }
        if checksIdent {
            let result = await holder.run(over: SimAdapter())
            #expect("\(result.end)".contains("Ident mismatch"), "\(result.end)")
            await clock.sleeping(dueWithin: Self.timeouts.connection)
            clock.advance(by: Self.timeouts.connection)
        } else {
            let uuid = try #require(options.centralClientModeUUID)
            let transport = try await MdocGATTClientTransport(
                mode: .centralClient, serviceUUID: uuid, expectedIdent: nil,
                bearer: try await SimHostileLink().connect(serviceUUID: uuid, timeout: .seconds(60)))
            _ = await holder.run(on: transport)
        }
        let outcome = try #require(try await running.value.first?.outcome)
        if checksIdent {
            #expect(outcome == .passed, "\(outcome)")
        } else {
            #expect(outcome.name == "failed", "\(outcome)")
            #expect(outcome.reason?.hasPrefix("expected the mdoc connected and left without starting the session, but it started the session and ") == true,
                    "\(outcome)")
        }
    }

    /// Without a reader key, a case of reader authentication is inconclusive at once and takes
    /// no engagement, so the mdoc's engagement is the next case's.
    @Test func aReaderAuthenticationCaseWithoutAReaderKeyTakesNoEngagement() async throws {
        let (asked, outcomes) = try await Self.runWithoutEngagements(["mDL_ReaderAuth_OtherSessionTranscript", "mDL_Request_NotCBOR"], over: SimAdapter())
        #expect(asked == 1)
        #expect(outcomes == [
            .inconclusive("the case needs the key and certificate of a reader the mdoc trusts (--reader-cert, --reader-key)"),
            .inconclusive("no engagement of the mdoc came for this case"),
        ])
    }

    /// With a reader key but no expired reader certificate, the case of an expired reader
    /// certificate is inconclusive at once and takes no engagement.
    @Test func theExpiredReaderCaseWithoutAnExpiredCertificateTakesNoEngagement() async throws {
        let (asked, outcomes) = try await Self.runWithoutEngagements(
            ["mDL_ReaderAuth_ExpiredReaderCertificate", "mDL_Request_NotCBOR"], over: SimAdapter(), signed: true)
        #expect(asked == 1)
        #expect(outcomes == [
            .inconclusive(
                "the case needs the key and the expired certificate of a reader under a root the mdoc trusts (--expired-reader-cert, --expired-reader-key)"),
            .inconclusive("no engagement of the mdoc came for this case"),
        ])
    }

    /// Over a radio whose ATT layer the reader does not run (bluetoothd's, here the in-memory
    /// radio), a sized case is inconclusive and takes no engagement, so the mdoc's engagement
    /// is the next case's.
    @Test func aSizedCaseOverARadioThatCannotSizeTheLinkTakesNoEngagement() async throws {
        let (asked, outcomes) = try await Self.runWithoutEngagements(["mDL_BLE_MTU23", "mDL_Request_NotCBOR"], over: InMemoryRadio())
        #expect(asked == 1)
        #expect(outcomes[0].name == "inconclusive")
        #expect(outcomes[0].reason?.hasPrefix("this transport does not let the reader choose ATT_MTU at most 23") == true, "\(outcomes[0])")
        #expect(outcomes[1] == .inconclusive("no engagement of the mdoc came for this case"))
    }

    /// Over such a radio the reader cannot drop a link of its own either: the case that loses a
    /// link before the session's start is inconclusive the same way.
    @Test func theLinkLostCaseOverARadioWhoseLinksTheReaderDoesNotMakeTakesNoEngagement() async throws {
        let (asked, outcomes) = try await Self.runWithoutEngagements(["mDL_BLE_LinkLostBeforeStart", "mDL_Request_NotCBOR"], over: InMemoryRadio())
        #expect(asked == 1)
        #expect(outcomes[0] == .inconclusive(
            "this transport cannot drop a link of the reader's own before the session's start: run the case over hci: or sim"))
        #expect(outcomes[1] == .inconclusive("no engagement of the mdoc came for this case"))
    }

    /// In `mDL_BLE_LinkLostBeforeStart` the reader drops its first link before writing State
    /// 0x01 and connects again (ISO/IEC 18013-5 8.3.3.1.1.3): our holder takes the second link
    /// and answers, and the case passes; a holder that serves one link only and leaves when it
    /// drops fails it once the reader's bound for the second connection ran out.
    @Test(arguments: [true, false])
    func theLinkLostCaseCatchesAHolderThatTakesNoSecondLink(takesSecondLink: Bool) async throws {
        let timeouts = SessionTimeouts(
            connection: .seconds(10 * TimeoutScale.factor), idle: Self.timeouts.idle, response: Self.timeouts.response)
        let runner = ConformanceRunner(
            trustAnchors: [try DemoMaterial.iaca()], timeouts: timeouts, program: "HolderSuiteRunnerTests", transport: "sim")
        let cases = try ConformanceSuite.holder.cases(named: ["mDL_BLE_LinkLostBeforeStart"])
        let outcome: ConformanceOutcome
        if takesSecondLink {
            let holder = try HolderDriver(
                credentials: [try DemoMaterial.mDL()], bleOptions: BleOptions.offering(peripheralServerMode: true, centralClientMode: false),
                trust: ReaderRootTrust(trustAnchors: []), consent: HolderConsent.approvingAllAvailable)
            let uri = holder.mdocURI
            let running = Task { await runner.run(cases, over: SimAdapter(), engagement: { uri }) }
            let result = await holder.run(over: SimAdapter())
            #expect(result.disclosures.count == 1, "\(result.end)")
            outcome = try #require(await running.value.first?.outcome)
            #expect(outcome == .passed, "\(outcome)")
        } else {
            let holder = try HostileHolder(link: SimHostileLink())
            let uri = try MdocURI(holder.uri)
            let running = Task { await runner.run(cases, over: SimAdapter(), engagement: { uri }) }
            await #expect(throws: PeerError.self) { try await holder.run(until: .requestReceived) }
            holder.close()
            outcome = try #require(await running.value.first?.outcome)
            #expect(outcome.name == "failed", "\(outcome)")
            #expect(outcome.reason?.contains(
                "but after the reader's first link dropped before the session's start the mdoc took no second one: ") == true, "\(outcome)")
        }
    }

    @Test func aCaseWithoutAnEngagementAndEveryCaseAfterItAreInconclusive() async throws {
        let (asked, outcomes) = try await Self.runWithoutEngagements(["mDL_Request_NotCBOR", "mDL_Request_UnknownDocType"], over: SimAdapter())
        #expect(asked == 1)
        #expect(outcomes == [
            .inconclusive("no engagement of the mdoc came for this case"), .inconclusive("no engagement of the mdoc came for this case"),
        ])
    }

    /// The outcomes of the holder suite's cases `names`, in that order, run over `radio` by a
    /// runner without a reader key to which no engagement ever comes, and how often it asked
    /// for one.
    static func runWithoutEngagements(
        _ names: [String], over radio: any MdocRadio, signed: Bool = false
    ) async throws -> (asked: Int, outcomes: [ConformanceOutcome]) {
        let cases = try names.flatMap { try ConformanceSuite.holder.cases(named: [$0]) }
        let runner = ConformanceRunner(
            trustAnchors: [try DemoMaterial.iaca()], timeouts: Self.timeouts, program: "test", transport: "test",
            readerAuthentication: signed ? try DemoMaterial.readerAuthentication() : nil)
        var asked = 0
        let results = await runner.run(cases, over: radio, engagement: {
            asked += 1
            return nil
        })
        #expect(results.map(\.conformanceCase.name) == names)
        return (asked, results.map(\.outcome))
    }

    @Test func anUnknownCaseIsNamed() throws {
        #expect(throws: ConformanceError(.unknownCase, "")) {
            try ConformanceSuite.holder.cases(named: ["mDL_Request_WellFormed", "mDL_NoSuchCase"])
        }
        #expect(Set(ConformanceSuite.holder.cases.map(\.name)).count == ConformanceSuite.holder.cases.count)
    }
}
