import MdocBLE
import MdocCBOR
import MdocCOSE
import MdocConformance
import MdocCrypto
import MdocModel
import MdocPresentation
import MdocSession
import MdocSim
import MdocTestPeers
import MdocTestSupport
import Testing

/// The reader suite's runner against readers that misbehave on purpose. A `HostileReader`
/// takes the response and vanishes, sending neither the status 20 that ends a session
/// (ISO/IEC 18013-5 9.1.1.4) nor the status 10 of a message that does not decrypt. The cases
/// expecting those fail, naming what was expected and what came; a case for a person is judged
/// by the answer, and without one is inconclusive. Readers of ``Reader`` kinds show the session
/// and engagement cases pass against a conforming reader and fail against the one each targets.
@Suite struct ReaderSuiteRunnerTests {
    /// Each wait of the holder, generous: no case waits for one to run out.
    static let timeouts = SessionTimeouts(connection: .seconds(60 * TimeoutScale.factor), idle: .seconds(60 * TimeoutScale.factor))

    /// A runner presenting the demo mDL in peripheral server mode over `sim`.
    static func runner() throws -> ReaderConformanceRunner {
        ReaderConformanceRunner(
            credentials: [try DemoMaterial.mDL()], modes: [.peripheralServer],
            timeouts: timeouts, program: "ReaderSuiteRunnerTests", transport: "sim")
    }

    /// The outcome of an engagement case against a reader whose request does not decrypt: its
    /// SessionTranscript does not hold the engagement as shown (9.1.5.1).
    static let undecryptableRequest = ConformanceOutcome.failed(
        "expected the engagement taken, the request readable and the session ended by the reader with status session termination (20) or BLE State 0x02, " +
        "but the reader's request broke ISO/IEC 18013-5: the session failed: message 1 from the reader did not decrypt " +
        "(wrong key, wrong counter, or altered)")

    /// Runs `names` of the reader suite, a `HostileReader` taking each response and vanishing,
    /// with `answer` as the person's.
    static func run(_ names: [String], answer: Bool?) async throws -> [ConformanceResult] {
        let runner = try Self.runner()
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
            "expected the session ended by the reader with status session termination (20) or BLE State 0x02, but the reader ended the link without a status"))
        #expect(results[1].outcome == .failed(
            "expected the session ended by the reader with status session encryption error (10), but the reader ended the link without a status"))
        let report = ConformanceReport(suite: "reader", results: results)
        #expect(report.counts == (passed: 0, failed: 2, inconclusive: 0))
        #expect(report.junitXML.contains(#"<testcase name="mDLR_Session_AlteredCiphertext" classname="ISO/IEC 18013-5 9.1.1.5, 9.1.1.4""#))
    }

    /// A reader that takes the response and ends the session with BLE State 0x02 and no status
    /// passes the status-20 cases, as 9.1.1.4 allows, and fails a case that expects status 10:
    /// the transport's termination says the session ended, not why.
    @Test func aReaderEndingWithStateEndPassesTheStatusTwentyCasesOnly() async throws {
        let runner = try Self.runner()
        var readers: [Task<Void, any Error>] = []
        let names = ["mDLR_Response_WellFormed", "mDLR_Session_AlteredCiphertext", "mDLR_Engagement_RFUKey"]
        let results = await runner.run(try ReaderConformanceSuite.reader.cases(named: names), over: SimAdapter(), engagement: { uri in
            readers.append(Task {
                let reader = try HostileReader(uri: "\(uri)", link: SimHostileLink())
                try await reader.run(until: .responseReceived)
                try await reader.endWithState()
            })
        }, confirm: { _ in nil })
        for reader in readers { try await reader.value }
        #expect(results.map(\.conformanceCase.name) == names)
        #expect(results.map(\.outcome) == [
            .passed,
            .failed("expected the session ended by the reader with status session encryption error (10), "
                    + "but the reader ended the session with BLE State 0x02 (end) and no status"),
            .passed,
        ], "\(results.map(\.outcome))")
    }

    /// In the termination cases the holder ends the session itself right after its response:
    /// with a SessionData of status 20 after it, with status 20 beside the response's data, with
    /// the link's end alone, or by dropping the link. A conforming reader keeps the response,
    /// and the person's yes (here: the reader took a DeviceResponse with the mDL) passes each
    /// case.
    @Test(arguments: [
        ("mDLR_Termination_MdocStatus", ScriptedHolderSession.Ending.status),
        ("mDLR_Termination_StatusBesideResponse", .statusBesideResponse),
        ("mDLR_Termination_MdocState", .state),
        ("mDLR_Termination_MdocDropsLink", .linkDrop),
    ])
    func theHolderEndsTheSessionAsTheCaseSaysAndAConformingReaderKeepsTheResponse(name: String, ending: ScriptedHolderSession.Ending) async throws {
        let runner = try Self.runner()
        let cases = try ReaderConformanceSuite.reader.cases(named: [name])
        #expect(cases.first?.session.ending == ending)
        var reader: Task<(first: SessionData, second: SessionData?, kept: Bool), any Error>?
        let results = await runner.run(cases, over: SimAdapter(), engagement: { uri in
            reader = Task {
                let hostile = try HostileReader(uri: "\(uri)", link: SimHostileLink())
                defer { hostile.close() }
                try await hostile.run(until: .requestSent)
                let message = try await hostile.receiveResponse()
                var session = hostile.session
                guard case .received(_, let response) = session.receive(message) else { return (try SessionData(encoded: message), nil, false) }
                let second = try? await hostile.receiveResponse()
                return (try SessionData(encoded: message), try second.map { try SessionData(encoded: $0) },
                        response.documents?.first?.docType == DocType.mDL)
            }
        }, confirm: { _ in try? await reader?.value.kept })
        let seen = try #require(try await reader?.value)
        #expect(results.map(\.outcome) == [.passed], "\(results.map(\.outcome))")
        #expect(seen.first.data != nil)
        switch ending {
        case .status, .statusLeavingChannel:
            #expect(seen.first.status == nil)
            #expect(seen.second == SessionData(status: .sessionTermination))
        case .statusBesideResponse:
            #expect(seen.first.status == .sessionTermination)
            #expect(seen.second == nil)
        case .state, .linkDrop:
            #expect(seen.first.status == nil)
            #expect(seen.second == nil)
        }
    }

    /// How a reader in this process answers, in `mDLR_Termination_MdocStatusOnly`, the holder's
    /// status 20 alone after the response (ISO/IEC 18013-5 9.1.1.4).
    enum StatusOnlyReader: CaseIterable {
        /// Closes the link once the status came, as it must.
        case closes
        /// Sends a status 20 of its own as soon as the response came, which crosses the
        /// holder's, then closes the link once the holder's came.
        case crossesWithItsOwnStatus
        /// Keeps the link open after the status.
        case keepsTheLink
        /// Sends another SessionData with data after the status, then closes the link.
        case goesOn
    }

    /// In `mDLR_Termination_MdocStatusOnly` the holder sends status 20 alone after its response
    /// and keeps the link for the reader to close: a reader that closes it passes, also after a
    /// status of its own that crossed the holder's; one that keeps the link open fails once the
    /// holder's idle bound ran out, and one that sends anything else after the status fails.
    @Test(arguments: StatusOnlyReader.allCases)
    func theStatusOnlyTerminationCaseCatchesAReaderThatKeepsTheChannelOrGoesOn(reader kind: StatusOnlyReader) async throws {
        var runner = try Self.runner()
        runner.timeouts = SessionTimeouts(connection: .seconds(60 * TimeoutScale.factor), idle: .seconds(2 * TimeoutScale.factor))
        let cases = try ReaderConformanceSuite.reader.cases(named: ["mDLR_Termination_MdocStatusOnly"])
        #expect(cases.first?.needsPerson == false)
        var reader: Task<[SessionData], any Error>?
        let results = await runner.run(cases, over: SimAdapter(), engagement: { uri in
            reader = Task {
                let hostile = try HostileReader(uri: "\(uri)", link: SimHostileLink())
                defer { hostile.close() }
                try await hostile.run(until: .requestSent)
                let response = try SessionData(encoded: try await hostile.receiveResponse())
                if kind == .crossesWithItsOwnStatus {
                    try await hostile.send(message: SessionData(status: .sessionTermination).encoded())
                }
                let status = try SessionData(encoded: try await hostile.receiveResponse())
                switch kind {
                case .closes, .crossesWithItsOwnStatus:
                    break
                case .keepsTheLink:
                    try await hostile.awaitLinkEnd()
                case .goesOn:
                    try await hostile.send(message: SessionData(data: Array(repeating: 0x5a, count: 40)).encoded())
                }
                return [response, status]
            }
        }, confirm: { _ in
            Issue.record("nobody is asked in this case")
            return nil
        })
        let seen = try #require(try await reader?.value)
        #expect(seen.first?.data != nil && seen.first?.status == nil)
        #expect(seen.last == SessionData(status: .sessionTermination))
        let expected = "the channel closed by the reader after the mdoc's status session termination (20), with no message after it but a termination"
        switch kind {
        case .closes, .crossesWithItsOwnStatus:
            #expect(results.map(\.outcome) == [.passed])
        case .keepsTheLink:
            #expect(results.map(\.outcome) == [.failed(
                "expected \(expected), but the reader kept the channel open: "
                + "no end of the link by the reader after status 20 within \(2 * TimeoutScale.factor) s")])
        case .goesOn:
            #expect(results.map(\.outcome) == [.failed(
                "expected \(expected), but the reader sent a message of 48 bytes after the mdoc's termination")])
        }
    }

    /// In `mDLR_BLE_PauseBeforeLastChunk` the holder pauses 3 s before the last chunk of its
    /// response: a reader that sits through the pause takes the response and passes; one that
    /// gives up on a message whose chunks stop for more than a second, and ends the session
    /// with status 11 as for a message it could not decode, fails.
    @Test(arguments: [nil, .seconds(1)] as [Duration?])
    func thePauseCaseCatchesAReaderThatGivesUpOnAStalledResponse(maximumChunkGap: Duration?) async throws {
        let runner = try Self.runner()
        var reader: Task<Bool, any Error>?
        let cases = try ReaderConformanceSuite.reader.cases(named: ["mDLR_BLE_PauseBeforeLastChunk"])
        let results = await runner.run(cases, over: SimAdapter(), engagement: { uri in
            reader = Task {
                let hostile = try HostileReader(uri: "\(uri)", link: SimHostileLink())
                hostile.maximumChunkGap = maximumChunkGap
                defer { hostile.close() }
                try await hostile.run(until: .requestSent)
                do {
                    _ = try await hostile.receiveResponse()
                } catch is PeerError {
                    try await hostile.send(message: SessionData(status: .cborDecodingError).encoded())
                    try await hostile.awaitLinkEnd()
                    return false
                }
                try await hostile.send(message: SessionData(status: .sessionTermination).encoded())
                try await hostile.awaitLinkEnd()
                return true
            }
        }, confirm: { _ in nil })
        let taken = try await reader?.value
        let tookResponse = try #require(taken as Bool?)
        #expect(tookResponse == (maximumChunkGap == nil))
        #expect(results.map(\.outcome) == [maximumChunkGap == nil ? .passed : .failed(
            "expected the session ended by the reader with status session termination (20) or BLE State 0x02, "
            + "but the reader ended the session with status CBOR decoding error (11)")],
                "\(results.map(\.outcome))")
    }

    /// How a reader in this process treats the holder's response and engagement.
    enum Reader {
        /// Reads the response with its `ReaderSession` and sends what the session answers:
        /// status 20 once a response is taken, 10 for one that does not decrypt, 11 for a
        /// plaintext that is not a DeviceResponse (ISO/IEC 18013-5 9.1.1.4, 9.1.1.5).
        case conforming
        /// Reads the ciphertext past any tag it is under, opens it under any of the first three
        /// counters and with either session key, and ends the session with status 20 when it
        /// opens to a DeviceResponse and with status 10 otherwise, a plaintext that is not CBOR
        /// included: the departures from 9.1.1.4, 9.1.1.5 and Table 20 the session cases are
        /// meant to catch.
        case lenient
        /// Re-encodes the engagement from the fields it knows, as one of version "1.0", before
        /// using it, so that an entry under a key it does not know, or another version, is lost
        /// from its SessionTranscript (9.1.5.1); otherwise conforming.
        case reencodingEngagement
    }

    /// Runs `names` of the reader suite, each session served by a reader behaving as `kind`.
    static func run(_ names: [String], against kind: Reader) async throws -> [ConformanceResult] {
        let runner = try Self.runner()
        var readers: [Task<Void, any Error>] = []
        let results = await runner.run(try ReaderConformanceSuite.reader.cases(named: names), over: SimAdapter(), engagement: { uri in
            readers.append(Task { try await serve(uri, as: kind) })
        }, confirm: { _ in nil })
        for reader in readers { try await reader.value }
        return results
    }

    /// A reader behaving as `kind` with the holder that showed `uri`, until the holder ends the
    /// link; the DeviceResponse a conforming reader took, if it took one.
    @discardableResult
    static func serve(_ uri: MdocURI, as kind: Reader) async throws -> DeviceResponse? {
        let eReaderKey = try PrivateKey(generating: uri.deviceEngagementBytes.value.security.eDeviceKeyBytes.value.publicKey().curve)
        var shown = uri
        if kind == .reencodingEngagement {
            var engagement = uri.deviceEngagementBytes.value
            engagement.additionalEntries = CBORMap()
            engagement.version = "1.0"
            shown = MdocURI(deviceEngagementBytes: EmbeddedCBOR(engagement))
        }
        let reader = try HostileReader(uri: "\(shown)", link: SimHostileLink(), eReaderKey: eReaderKey)
        defer { reader.close() }
        try await reader.run(until: .requestSent)
        guard let message = try? await reader.receiveResponse() else { return nil }
        var taken: DeviceResponse?
        switch kind {
        case .conforming, .reencodingEngagement:
            var session = reader.session
            switch session.receive(message) {
            case .received(_, let response):
                taken = response
                try await reader.send(message: SessionData(status: .sessionTermination).encoded())
            case .sendAndFinish(let status, _):
                try await reader.send(message: status)
            case .send, .finished:
                return nil
            }
        case .lenient:
            let keys = try SessionKeys(
                privateKey: eReaderKey, peerPublicKey: try uri.deviceEngagementBytes.value.security.eDeviceKeyBytes.value.publicKey(),
                sessionTranscriptBytes: reader.session.sessionTranscript.taggedBytes)
            guard case .map(let sessionData) = try CBOR.decode(message) else { throw SessionError(.messageDecodingFailed, "not a map") }
            var data = sessionData[text: "data"]
            if case .tagged(_, let content)? = data { data = content }
            let sealed = data.flatMap { value -> [UInt8]? in
                guard case .byteString(let bytes) = value else { return nil }
                return Array(bytes)
            } ?? []
            let opened = [keys.skDevice, keys.skReader].lazy.flatMap { key in
                (1...3).lazy.compactMap { counter in
                    try? AESGCM.open(sealed, key: key, nonce: SessionEncryption.nonce(identifier: SessionRole.mdoc.identifier, counter: counter))
                }
            }.first
            let taken = opened.flatMap { try? DeviceResponse(encoded: $0) } != nil
            try await reader.send(message: SessionData(status: taken ? .sessionTermination : .sessionEncryptionError).encoded())
        }
        try await reader.awaitLinkEnd()
        return taken
    }

    static let sessionCases = ["mDLR_Session_SkippedCounter", "mDLR_Session_EncryptedWithSKReader", "mDLR_Response_NotCBOR", "mDLR_Session_DataTagged"]

    @Test func theSessionCasesPassAgainstAConformingReader() async throws {
        let results = try await Self.run(["mDLR_Response_WellFormed"] + Self.sessionCases + ["mDLR_Engagement_RFUKey"], against: .conforming)
        #expect(results.map(\.outcome) == Array(repeating: .passed, count: 6), "\(results.map(\.outcome))")
    }

    @Test func theSessionCasesFailAgainstAReaderThatTriesOtherCountersAndKeysAndCallsEveryFailureTen() async throws {
        let results = try await Self.run(["mDLR_Response_WellFormed"] + Self.sessionCases, against: .lenient)
        // The reader takes a well-formed response as it should: what fails is what it lets through.
        #expect(results.map(\.outcome) == [
            .passed,
            .failed("expected the session ended by the reader with status session encryption error (10), " +
                    "but the reader ended the session with status session termination (20)"),
            .failed("expected the session ended by the reader with status session encryption error (10), " +
                    "but the reader ended the session with status session termination (20)"),
            .failed("expected the session ended by the reader with status CBOR decoding error (11), " +
                    "but the reader ended the session with status session encryption error (10)"),
            .failed("expected the session ended by the reader with status session encryption error (10) or CBOR decoding error (11), " +
                    "but the reader ended the session with status session termination (20)"),
        ], "\(results.map(\.outcome))")
    }

    /// An engagement of version "1.9" (ISO/IEC 18013-5 8.1: a known major version, an unknown
    /// minor one) is shown as such; a conforming reader takes it, and one that rebuilds the
    /// engagement as a version 1.0 one loses it from its SessionTranscript (9.1.5.1), so that
    /// its request does not decrypt.
    @Test func theEngagementOfAnUnknownMinorVersionPassesAConformingReaderAndFailsOneThatRebuildsIt() async throws {
        let runner = try Self.runner()
        var shown: [String] = []
        var readers: [Task<DeviceResponse?, any Error>] = []
        let cases = try ReaderConformanceSuite.reader.cases(named: ["mDLR_Engagement_UnknownMinorVersion"])
        var results: [ConformanceResult] = []
        for kind in [Reader.conforming, .reencodingEngagement] {
            results += await runner.run(cases, over: SimAdapter(), engagement: { uri in
                shown.append(uri.deviceEngagementBytes.value.version)
                readers.append(Task { try await Self.serve(uri, as: kind) })
            }, confirm: { _ in nil })
        }
        for reader in readers { _ = try await reader.value }
        #expect(shown == ["1.9", "1.9"])
        #expect(results.map(\.outcome) == [
            .passed,
            Self.undecryptableRequest,
        ], "\(results.map(\.outcome))")
    }

    /// The response of version "1.9" is the response as built with only its version changed:
    /// a conforming reader verifies it (issuer data and mdoc authentication, whose signed bytes
    /// the holder carried over as they were), and the person's yes, here from what that reader
    /// took, passes the case.
    @Test func theResponseOfAnUnknownMinorVersionVerifiesInAConformingReader() async throws {
        let runner = try Self.runner()
        var reader: Task<(VerificationReport, DeviceResponse)?, any Error>?
        let results = await runner.run(try ReaderConformanceSuite.reader.cases(named: ["mDLR_Response_UnknownMinorVersion"]), over: SimAdapter(),
                                       engagement: { uri in
            reader = Task {
                let hostile = try HostileReader(uri: "\(uri)", link: SimHostileLink())
                defer { hostile.close() }
                try await hostile.run(until: .requestSent)
                var session = hostile.session
                guard case .received(let report, let response) = session.receive(try await hostile.receiveResponse()) else { return nil }
                try await hostile.send(message: SessionData(status: .sessionTermination).encoded())
                return (report, response)
            }
        }, confirm: { conformanceCase in
            #expect(conformanceCase.expectation.question == "did the reader show the response verified, although its version is 1.9?")
            guard let (report, _) = try? await reader?.value else { return false }
            return report.outcome == .verified
        })
        let taken = try #require(try await reader?.value)
        #expect(taken.1.version == "1.9")
        #expect(taken.1.documents?.map(\.docType) == [DocType.mDL])
        #expect(taken.0.outcome == .verified, "\(taken.0)")
        #expect(results.map(\.outcome) == [.passed], "\(results.map(\.outcome))")
    }

    @Test func theRFUKeyCaseFailsAgainstAReaderThatDropsTheKeyFromItsTranscript() async throws {
        // The cases run in the suite's order: the well-formed response first.
        let results = try await Self.run(["mDLR_Response_WellFormed", "mDLR_Engagement_RFUKey"], against: .reencodingEngagement)
        #expect(results.map(\.outcome) == [
            .passed,
            Self.undecryptableRequest,
        ], "\(results.map(\.outcome))")
    }

    @Test(arguments: [
        ("mDLR_Response_StatusGeneralError", 10), ("mDLR_Response_StatusCBORDecodingError", 11), ("mDLR_Response_StatusCBORValidationError", 12),
    ] as [(String, UInt64)])
    func aStatusCaseAnswersWithADeviceResponseOfItsStatusAndNoDocument(name: String, status: UInt64) async throws {
        let runner = try Self.runner()
        var reader: Task<DeviceResponse?, any Error>?
        let results = await runner.run(try ReaderConformanceSuite.reader.cases(named: [name]), over: SimAdapter(), engagement: { uri in
            reader = Task { try await Self.serve(uri, as: .conforming) }
        }, confirm: { conformanceCase in
            // The person answers from what the reader took: a response of the status, no document.
            #expect(conformanceCase.expectation.question == "did the reader show that the mdoc answered with status " +
                    "\(DeviceResponse.Status(rawValue: status)) and no document?")
            guard let response = try? await reader?.value else { return false }
            return response.status.rawValue == status && response.documents == nil && response.version == "1.0"
        })
        #expect(results.map(\.outcome) == [.passed], "\(results.map(\.outcome))")
    }

    /// Every fault a `HostileReader` can inject into the chunking of its request
    /// (8.3.3.1.1.6) fails the well-formed case: the reader broke 18013-5 before the holder
    /// could answer, which is no inconclusive session.
    @Test(arguments: ChunkFault.allCases)
    func aRequestWithBrokenChunkingFailsTheWellFormedCase(fault: ChunkFault) async throws {
        let runner = try Self.runner()
        var reader: Task<Void, any Error>?
        let results = await runner.run(try ReaderConformanceSuite.reader.cases(named: ["mDLR_Response_WellFormed"]), over: SimAdapter(),
                                       engagement: { uri in
            reader = Task {
                let hostile = try HostileReader(uri: "\(uri)", link: SimHostileLink())
                try await hostile.run(until: .started)
                try await hostile.sendRequest(fault)
                try? await hostile.awaitLinkEnd()
                hostile.close()
            }
        }, confirm: { _ in nil })
        try await reader?.value
        let outcome = try #require(results.first?.outcome)
        let reason = try #require(outcome.reason)
        #expect(outcome.name == "failed", "\(outcome)")
        #expect(reason.hasPrefix("expected the session ended by the reader with status session termination (20) or BLE State 0x02, "
                + "but the reader's request broke ISO/IEC 18013-5: "), "\(reason)")
        #expect(reason.contains(fault.holderFailure), "\(reason)")
    }

    /// A reader that cuts its request into 49-octet chunks whatever the ATT_MTU passes the
    /// well-formed case (ATT_MTU 515) and fails mDLR_BLE_MTU23, whose 20 octets its chunks do not
    /// fit (8.3.3.1.1.6); the same reader, which reassembles any chunks, passes the other sized
    /// cases.
    @Test func aReaderIgnoringTheATTMTUFailsOnlyTheSmallMTUCase() async throws {
        let names = ["mDLR_Response_WellFormed", "mDLR_BLE_MTU23", "mDLR_BLE_MTU517", "mDLR_BLE_ShortChunks", "mDLR_BLE_LastChunkOneOctet"]
        let results = try await Self.run(names, against: .conforming)
        #expect(results.map(\.conformanceCase.name) == names)
        #expect(results.map(\.outcome.name) == ["passed", "failed", "passed", "passed", "passed"], "\(results.map(\.outcome))")
        let reason = try #require(results[1].outcome.reason)
        #expect(reason.hasPrefix("expected the session ended by the reader with status session termination (20) or BLE State 0x02, "
                + "but the reader's request broke ISO/IEC 18013-5: "), "\(reason)")
        #expect(reason.contains("pduTooLarge"), "\(reason)")
    }

    /// Over a radio whose ATT layer the holder does not run (bluetoothd's, here the in-memory
    /// radio), a sized case is inconclusive and shows no engagement.
    @Test func aSizedCaseOverARadioThatCannotSizeTheLinkShowsNoEngagement() async throws {
        let runner = ReaderConformanceRunner(
            credentials: [try DemoMaterial.mDL()], modes: [.peripheralServer], timeouts: Self.timeouts, program: "test", transport: "memory")
        var shown = 0
        let results = await runner.run(try ReaderConformanceSuite.reader.cases(named: ["mDLR_BLE_ShortChunks"]),
                                       over: InMemoryRadio(), engagement: { _ in shown += 1 }, confirm: { _ in true })
        #expect(shown == 0)
        #expect(results.first?.outcome.name == "inconclusive")
        #expect(results.first?.outcome.reason?.hasPrefix("this transport does not let the holder choose chunks of at most 20 octets") == true,
                "\(results.map(\.outcome))")
    }

    @Test func theExpiredSignerCaseWithoutItsCredentialIsInconclusiveAndShowsNoEngagement() async throws {
        let runner = ReaderConformanceRunner(
            credentials: [try DemoMaterial.mDL()], modes: [.peripheralServer], timeouts: Self.timeouts, program: "test", transport: "sim")
        var shown = 0
        let results = await runner.run(try ReaderConformanceSuite.reader.cases(named: ["mDLR_Response_ExpiredDocumentSigner"]),
                                       over: SimAdapter(), engagement: { _ in shown += 1 }, confirm: { _ in true })
        #expect(shown == 0)
        #expect(results.map(\.outcome) == [
            .inconclusive("the case needs a credential whose document signer certificate has expired, and none was given"),
        ])
    }

    @Test func theRFUKeyCaseIsInconclusiveWhenNoReaderCame() async throws {
        let runner = ReaderConformanceRunner(
            credentials: [try DemoMaterial.mDL()], modes: [.peripheralServer],
            timeouts: SessionTimeouts(connection: .milliseconds(200), idle: .milliseconds(200)), program: "test", transport: "sim")
        let results = await runner.run(try ReaderConformanceSuite.reader.cases(named: ["mDLR_Engagement_RFUKey"]), over: SimAdapter(),
                                       engagement: { _ in }, confirm: { _ in nil })
        #expect(results.first?.outcome.reason?.hasPrefix("the reader sent nothing: ") == true, "\(results.map(\.outcome))")
        #expect(results.first?.outcome.name == "inconclusive")
    }

    @Test func theRFUKeyCaseShowsTheKeyInTheEngagement() async throws {
        let runner = ReaderConformanceRunner(
            credentials: [try DemoMaterial.mDL()], modes: [.peripheralServer],
            timeouts: SessionTimeouts(connection: .milliseconds(200), idle: .milliseconds(200)), program: "test", transport: "sim")
        var shown: [MdocURI] = []
        _ = await runner.run(try ReaderConformanceSuite.reader.cases(named: ["mDLR_Response_WellFormed", "mDLR_Engagement_RFUKey"]),
                             over: SimAdapter(), engagement: { shown.append($0) }, confirm: { _ in nil })
        let entries = shown.map { $0.deviceEngagementBytes.value.additionalEntries }
        #expect(entries == [CBORMap(), CBORMap([CBORMap.Entry(key: CBOR(ReaderConformanceSuite.rfuEngagementKey), value: .textString("RFU"))])])
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
