import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocPresentation
import MdocSession
import Testing
import MdocTestSupport

@Suite("HolderSession and ReaderSession wired in memory (ISO/IEC 18013-5 9.1.1, 8.3.2.1.2)")
struct HolderReaderSessionTests {
    static let drivingRequest = RequestPreset.driving.docRequestSpec()

    static func mDLRequest(_ identifiers: [String], intentToRetain: Bool = false) -> DocRequestSpec {
        var elements = OrderedMap<String, Bool>()
        for identifier in identifiers {
            elements[identifier] = intentToRetain
        }
        return DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: elements])
    }

    @Test("approving everything returns every requested element the credential holds, verified with DeviceMac")
    func allElements() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)],
            request: [Self.mDLRequest(["family_name", "given_name", "age_over_18", "portrait", "height"])],
            issuerAnchors: [pki.iaca])
        let (request, report, response) = try pair.exchange(\.allAvailable)

        let document = try #require(request.documents.first)
        #expect(document.docType == DocType.mDL)
        #expect(document.isAvailable)
        #expect(document.readerAuthentication == .anonymous)
        #expect(document.elements.map(\.identifier) == ["family_name", "given_name", "age_over_18", "portrait", "height"])
        #expect(document.elements.map(\.displayName) == ["Family name", "Given names", "Age over 18", "Portrait", "Height (cm)"])
        #expect(document.elements.map(\.isAvailable) == [true, true, true, true, false])

        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.deviceAuthenticationMethod == .mac)
        let values = disclosedValues(report)
        #expect(values["family_name"] == "Doe")
        #expect(values["given_name"] == "Jane")
        #expect(values["age_over_18"] == .boolean(true))
        #expect(values["portrait"] == .byteString(TestCredentials.portrait))
        #expect(values.count == 4)
        #expect(response.status == .ok)
        #expect(pair.holder.responsesSent == 1)
        #expect(pair.reader.responsesReceived == 1)
    }

    @Test("the consent question carries IntentToRetain per element")
    func intentToRetain() throws {
        let pki = try TestPKI()
        var request = Self.mDLRequest(["family_name"], intentToRetain: true)
        request.nameSpaces[NameSpace.mDL]?["portrait"] = false
        var pair = try SessionPair(credentials: [TestCredentials.mDL(pki: pki)], request: [request], issuerAnchors: [pki.iaca])
        let question = try pair.ask()
        #expect(question.documents.first?.elements.map(\.intentToRetain) == [true, false])
    }

    @Test("two DocRequests for one docType are asked about once, under the stricter terms of the two")
    func sameDocTypeTwice() throws {
        let pki = try TestPKI()
        let first = Self.mDLRequest(["family_name"])
        let second = Self.mDLRequest(["family_name", "age_over_18"], intentToRetain: true)
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [first, second], issuerAnchors: [pki.iaca])
        let question = try pair.ask()
        // One decision covers both DocRequests, so it is taken seeing the retention either asks for.
        #expect(question.documents.count == 1)
        let document = try #require(question.documents.first)
        #expect(document.elements.map(\.identifier) == ["family_name", "age_over_18"])
        #expect(document.elements.map(\.intentToRetain) == [true, true])

        // And they are answered together: one Document, no contradicting documentErrors.
        var approved = ElementSelection()
        approved.insert(docType: DocType.mDL, nameSpace: NameSpace.mDL, identifier: "age_over_18")
        let (_, report, response) = try pair.answer(question) { _ in approved }
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(response.documents?.count == 1)
        #expect(response.documentErrors == nil)
        #expect(disclosedValues(report) == ["age_over_18": .boolean(true)])
    }

    @Test("any number of DocRequests for one docType merge, in first-requested order, around another docType")
    func manyDocRequestsOfOneDocType() throws {
        let pki = try TestPKI()
        let pidRequest = DocRequestSpec(docType: DocType.eudiPID, nameSpaces: [NameSpace.eudiPID: ["family_name": false]])
        let requests = [
            Self.mDLRequest(["family_name"]), pidRequest, Self.mDLRequest(["given_name", "family_name"], intentToRetain: true),
            Self.mDLRequest(["age_over_18", "given_name"]),
        ]
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki), TestCredentials.pid(pki: pki)], request: requests, issuerAnchors: [pki.iaca])
        let question = try pair.ask()
        #expect(question.documents.map(\.docType) == [DocType.mDL, DocType.eudiPID])
        let mDL = try #require(question.documents.first)
        #expect(mDL.elements.map(\.identifier) == ["family_name", "given_name", "age_over_18"])
        #expect(mDL.elements.map(\.intentToRetain) == [true, true, false])

        let (_, report, response) = try pair.answer(question) { $0.allAvailable }
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(response.documents?.map(\.docType) == [DocType.mDL, DocType.eudiPID])
        #expect(report.documents.first?.elements.map(\.identifier) == ["family_name", "given_name", "age_over_18"])
    }

    @Test("a response that cannot be authenticated is answered with status 10 and ends the session as failed")
    func unauthenticatableResponse() throws {
        let pki = try TestPKI()
        // An X25519 device key can only MAC, and the reader's key is on P-256.
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki, deviceKey: PrivateKey(generating: .x25519))],
            request: [Self.mDLRequest(["family_name"])], issuerAnchors: [pki.iaca])
        let question = try pair.ask()
        guard case .sendAndFinish(let message, .failed(let error)) = pair.holder.decide(question.allAvailable) else {
            Issue.record("the holder did not end the session as failed")
            return
        }
        #expect(error.code == .messageConstructionFailed)
        guard case .received(_, let response) = pair.toReader(message) else {
            Issue.record("the reader did not receive the error response")
            return
        }
        #expect(response.status == .generalError)
        #expect(response.documents == nil)
        guard case .finished(.failed) = pair.holder.transportEnded() else {
            Issue.record("the end of the link after a failed response counted as a normal end")
            return
        }
    }

    @Test("approving a subset returns only that subset")
    func subset() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        let (_, report, _) = try pair.exchange { _ in
            ElementSelection([DocType.mDL: [NameSpace.mDL: ["family_name", "document_number"]]])
        }
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(Set(disclosedValues(report).keys) == ["family_name", "document_number"])
    }

    @Test("an approval of an element that was not requested does not release it")
    func approvalBeyondRequest() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.mDLRequest(["family_name"])], issuerAnchors: [pki.iaca])
        let (_, report, _) = try pair.exchange { _ in
            ElementSelection([DocType.mDL: [NameSpace.mDL: ["family_name", "birth_place"]]])
        }
        #expect(Set(disclosedValues(report).keys) == ["family_name"])
        let plaintexts = try pair.decryptedHolderMessages()
        #expect(plaintexts.count == 1)
        #expect(plaintexts.allSatisfy { $0.offsets(of: Array(TestCredentials.secretBirthPlace.utf8)).isEmpty })
    }

    @Test("approving nothing still answers, with documentErrors and no document")
    func refusal() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        let (_, report, response) = try pair.exchange { _ in .none }
        #expect(response.documents == nil)
        #expect(response.status == .ok)
        #expect(report.outcome == .noDocuments)
        #expect(report.documentErrors == [VerificationReport.DocumentErrorEntry(docType: DocType.mDL, code: 0)])
    }

    @Test("a request for a document the holder does not have is shown as unavailable and answered with documentErrors")
    func missingDocument() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.pid(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        let (request, report, _) = try pair.exchange(\.allAvailable)
        #expect(request.documents.first?.isAvailable == false)
        #expect(request.documents.first?.elements.allSatisfy { !$0.isAvailable } == true)
        #expect(report.documentErrors.map(\.docType) == [DocType.mDL])
    }

    @Test("privacy: neither the value nor the IssuerSignedItemBytes of a refused element is in any byte the holder sent")
    func refusedElementNeverSent() throws {
        let pki = try TestPKI()
        let credential = try TestCredentials.mDL(pki: pki)
        let refused = try #require(credential.item(nameSpace: NameSpace.mDL, identifier: "birth_place"))
        let approved = try #require(credential.item(nameSpace: NameSpace.mDL, identifier: "family_name"))
        var pair = try SessionPair(
            credentials: [credential], request: [Self.mDLRequest(["family_name", "birth_place"])], issuerAnchors: [pki.iaca])
        let (request, report, _) = try pair.exchange { request in
            var selection = request.allAvailable
            selection.remove(docType: DocType.mDL, nameSpace: NameSpace.mDL, identifier: "birth_place")
            return selection
        }
        #expect(request.documents.first?.elements.map(\.identifier) == ["family_name", "birth_place"])
        #expect(Set(disclosedValues(report).keys) == ["family_name"])

        let plaintexts = try pair.decryptedHolderMessages()
        #expect(plaintexts.count == 1)
        let secret = Array(TestCredentials.secretBirthPlace.utf8)
        for bytes in plaintexts + pair.holderSent {
            #expect(bytes.offsets(of: secret).isEmpty)
            #expect(bytes.offsets(of: Array(refused.bytes)).isEmpty)
        }
        // The check can fail: the approved element's IssuerSignedItemBytes are in the plaintext.
        #expect(plaintexts.contains { !$0.offsets(of: Array(approved.bytes)).isEmpty })
    }

    @Test("a device key on another curve than EReaderKey authenticates with DeviceSignature")
    func deviceSignature() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki, deviceKey: PrivateKey(generating: .p384))],
            request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        let (_, report, _) = try pair.exchange(\.allAvailable)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.deviceAuthenticationMethod == .signature)
    }

    @Test("the signature policy authenticates with DeviceSignature even where a MAC is possible")
    func signaturePolicy() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca],
            responseBuilder: ResponseBuilder(deviceAuthentication: .signature))
        let (_, report, _) = try pair.exchange(\.allAvailable)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.deviceAuthenticationMethod == .signature)
    }

    @Test("two documents in one request are both returned and verified")
    func twoDocuments() throws {
        let pki = try TestPKI()
        let pidRequest = DocRequestSpec(docType: DocType.eudiPID, nameSpaces: [NameSpace.eudiPID: ["age_over_18": false]])
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki), TestCredentials.pid(pki: pki)],
            request: [Self.mDLRequest(["family_name"]), pidRequest], issuerAnchors: [pki.iaca])
        let (request, report, _) = try pair.exchange(\.allAvailable)
        #expect(request.documents.map(\.docType) == [DocType.mDL, DocType.eudiPID])
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.map(\.docType) == [DocType.mDL, DocType.eudiPID])
        #expect(disclosedValues(report, document: 1)["age_over_18"] == .boolean(true))
    }

    @Test("a second request in the same session asks for consent again and is answered")
    func secondRequest() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.mDLRequest(["family_name"])], issuerAnchors: [pki.iaca])
        _ = try pair.exchange(\.allAvailable)
        guard case .send(let second) = try pair.reader.request([Self.mDLRequest(["age_over_18"])]) else {
            Issue.record("the second request was not sent")
            return
        }
        let (request, report, _) = try pair.answer(pair.toHolder(second), \.allAvailable)
        #expect(request.documents.first?.elements.map(\.identifier) == ["age_over_18"])
        #expect(Set(disclosedValues(report).keys) == ["age_over_18"])
        #expect(pair.holder.responsesSent == 2)
    }

    @Test("status 20 from the reader ends the holder's session as terminated by the reader")
    func terminationByReader() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        _ = try pair.exchange(\.allAvailable)
        guard case .sendAndFinish(let termination, let readerOutcome) = pair.reader.terminate() else {
            Issue.record("terminate() did not send status 20")
            return
        }
        #expect(readerOutcome == .terminatedByReader)
        #expect(sessionStatus(termination) == .sessionTermination)
        guard case .finished(let outcome) = pair.toHolder(termination) else {
            Issue.record("the holder did not finish")
            return
        }
        #expect(outcome == .terminatedByReader)
        #expect(pair.holder.isFinished)
        #expect(pair.reader.isFinished)
    }

    @Test("status 20 from the holder ends the reader's session as terminated by the mdoc")
    func terminationByHolder() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        guard case .requestReceived = try pair.start(), case .sendAndFinish(let message, .terminatedByHolder) = pair.holder.terminate() else {
            Issue.record("the holder did not terminate")
            return
        }
        guard case .finished(let outcome) = pair.toReader(message) else {
            Issue.record("the reader did not finish")
            return
        }
        #expect(outcome == .terminatedByHolder)
    }

    @Test("a tampered request gets status 10 from the holder, which the reader reports as the mdoc's error")
    func tamperedRequest() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        guard case .send(let establishment) = try pair.reader.start() else {
            Issue.record("no SessionEstablishment")
            return
        }
        var parsed = try SessionEstablishment(encoded: establishment)
        parsed.data[parsed.data.count / 2] ^= 0x01
        guard case .sendAndFinish(let reply, .failed(let error)) = pair.toHolder(parsed.encoded()) else {
            Issue.record("the holder did not fail")
            return
        }
        #expect(error.code == .decryptionFailed)
        #expect(sessionStatus(reply) == .sessionEncryptionError)
        guard case .finished(.failed(let readerError)) = pair.toReader(reply) else {
            Issue.record("the reader did not fail")
            return
        }
        #expect(readerError.code == .peerReportedError)
        #expect(readerError.reason.contains("session encryption error (10)"))
    }

    @Test("a tampered response gets status 10 from the reader")
    func tamperedResponse() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        guard case .requestReceived = try pair.start(), case .send(let response) = pair.holder.decide(.none) else {
            Issue.record("no response")
            return
        }
        var parsed = try SessionData(encoded: response)
        parsed.data?[0] ^= 0x80
        guard case .sendAndFinish(let reply, .failed(let error)) = pair.toReader(parsed.encoded()) else {
            Issue.record("the reader did not fail")
            return
        }
        #expect(error.code == .decryptionFailed)
        #expect(sessionStatus(reply) == .sessionEncryptionError)
        guard case .finished(.failed(let holderError)) = pair.toHolder(reply) else {
            Issue.record("the holder did not fail")
            return
        }
        #expect(holderError.code == .peerReportedError)
    }

    @Test("garbage instead of SessionEstablishment gets status 11")
    func garbage() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        for garbage: [UInt8] in [[0xFF, 0x00, 0x13], [], CBOR.array([1, 2]).encoded()] {
            var holder = pair.holder
            guard case .sendAndFinish(let reply, .failed(let error)) = holder.receive(garbage) else {
                Issue.record("the holder did not fail on \(garbage)")
                continue
            }
            #expect(error.code == .messageDecodingFailed)
            #expect(sessionStatus(reply) == .cborDecodingError)
        }
        guard case .sendAndFinish(let reply, .failed(let error)) = pair.toReader([0x42]) else {
            Issue.record("the reader did not fail")
            return
        }
        #expect(error.code == .messageDecodingFailed)
        #expect(sessionStatus(reply) == .cborDecodingError)
    }

    @Test("a replayed request is rejected with status 10")
    func replayedRequest() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.mDLRequest(["family_name"])], issuerAnchors: [pki.iaca])
        _ = try pair.exchange(\.allAvailable)
        guard case .send(let second) = try pair.reader.request([Self.mDLRequest(["given_name"])]) else {
            Issue.record("no second request")
            return
        }
        _ = try pair.answer(pair.toHolder(second), \.allAvailable)
        guard case .sendAndFinish(let reply, .failed(let error)) = pair.toHolder(second) else {
            Issue.record("the replay was not rejected")
            return
        }
        #expect(error.code == .decryptionFailed)
        #expect(sessionStatus(reply) == .sessionEncryptionError)
    }

    @Test("a replayed SessionEstablishment after the session started is rejected with status 10")
    func replayedEstablishment() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        _ = try pair.exchange(\.allAvailable)
        let establishment = try #require(pair.readerSent.first)
        guard case .sendAndFinish(let reply, .failed(let error)) = pair.toHolder(establishment) else {
            Issue.record("the replay was not rejected")
            return
        }
        #expect(error.code == .decryptionFailed)
        #expect(sessionStatus(reply) == .sessionEncryptionError)
    }

    @Test("a replayed response is rejected by the reader with status 10")
    func replayedResponse() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.mDLRequest(["family_name"])], issuerAnchors: [pki.iaca])
        _ = try pair.exchange(\.allAvailable)
        let firstResponse = try #require(pair.holderSent.first)
        guard case .send(let second) = try pair.reader.request([Self.mDLRequest(["given_name"])]),
              case .requestReceived = pair.toHolder(second)
        else {
            Issue.record("no second request")
            return
        }
        guard case .sendAndFinish(let reply, .failed(let error)) = pair.toReader(firstResponse) else {
            Issue.record("the replay was not rejected")
            return
        }
        #expect(error.code == .decryptionFailed)
        #expect(sessionStatus(reply) == .sessionEncryptionError)
    }

    @Test("a request that decrypts but is not a DeviceRequest is answered with DeviceResponse status 11 or 12")
    func undecodableRequest() throws {
        let pki = try TestPKI()
        let pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: [Self.drivingRequest], issuerAnchors: [pki.iaca])
        let eDeviceKey = try pair.holder.deviceEngagement.value.security.eDeviceKeyBytes.value.publicKey()
        let keys = try SessionKeys(
            privateKey: pair.eReaderKey, peerPublicKey: eDeviceKey, sessionTranscriptBytes: pair.reader.sessionTranscript.taggedBytes)
        let cases: [([UInt8], DeviceResponse.Status)] = [([0xFF], .cborDecodingError), (CBOR.map(CBORMap()).encoded(), .cborValidationError)]
        for (plaintext, status) in cases {
            // SessionEstablishment as the reader would send it, around a plaintext that is no DeviceRequest.
            var encryption = SessionEncryption(role: .reader, keys: keys)
            let message = SessionEstablishment(eReaderKey: pair.reader.eReaderKeyBytes, data: try encryption.encrypt(plaintext)).encoded()
            var holder = pair.holder
            guard case .send(let reply) = holder.receive(message) else {
                Issue.record("no DeviceResponse for \(plaintext)")
                continue
            }
            var reader = pair.reader
            _ = try reader.start()
            guard case .received(_, let response) = reader.receive(reply) else {
                Issue.record("the reader did not read the DeviceResponse")
                continue
            }
            #expect(response.status == status)
            #expect(response.documents == nil)
            #expect(!holder.isFinished)
        }
    }
}
