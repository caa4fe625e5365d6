import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocPresentation
import MdocSession
import Testing
import MdocTestSupport

@Suite("ReaderSession (ISO/IEC 18013-5 9.1.1, 9.1.4)")
struct ReaderSessionTests {
    static let request = [RequestPreset.ageOver18.docRequestSpec()]

    static func engagement(
        key: PrivateKey? = nil, cipherSuite: Security.CipherSuiteIdentifier = .suite1
    ) throws -> EmbeddedCBOR<DeviceEngagement> {
        let publicKey = try (key ?? PrivateKey(generating: .p256)).publicKey
        return EmbeddedCBOR(DeviceEngagement(
            security: Security(cipherSuiteIdentifier: cipherSuite, eDeviceKeyBytes: EmbeddedCBOR(COSEKey(publicKey: publicKey))),
            deviceRetrievalMethods: [.ble(.offering(peripheralServerMode: true, centralClientMode: false))]))
    }

    static func reader(
        engagement: EmbeddedCBOR<DeviceEngagement>? = nil,
        request: [DocRequestSpec] = ReaderSessionTests.request,
        readerAuthentication: (key: PrivateKey, chain: [Certificate])? = nil
    ) throws -> ReaderSession {
        try ReaderSession(
            engagement: engagement ?? Self.engagement(), request: request, readerAuthentication: readerAuthentication,
            trustAnchors: [], now: { TestPKI.referenceTime })
    }

    @Test("a trusted reader certificate shows the holder the reader's subject and root")
    func trustedReader() throws {
        let pki = try TestPKI()
        let readerPKI = try TestReaderPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: Self.request, readerPKI: readerPKI,
            holderTrusts: [readerPKI.root], issuerAnchors: [pki.iaca])
        let (request, report, _) = try pair.exchange(\.allAvailable)
        #expect(request.documents.first?.readerAuthentication == .trusted(subject: "CN=fsm reader, C=US", anchor: "CN=fsm reader root, C=US"))
        #expect(report.outcome == .verified)
    }

    @Test("a reader certificate from a root the holder does not trust shows the holder an untrusted claim")
    func untrustedReader() throws {
        let pki = try TestPKI()
        let readerPKI = try TestReaderPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: Self.request, readerPKI: readerPKI,
            holderTrusts: [TestReaderPKI(name: "other reader").root], issuerAnchors: [pki.iaca])
        let (request, _, _) = try pair.exchange(\.allAvailable)
        guard case .untrusted(let subject, let reason) = request.documents.first?.readerAuthentication else {
            Issue.record("the reader was not reported untrusted: \(String(describing: request.documents.first?.readerAuthentication))")
            return
        }
        #expect(subject == "CN=fsm reader, C=US")
        #expect(!reason.isEmpty)
    }

    @Test("without reader authentication the holder sees an anonymous reader, even when it trusts reader roots")
    func anonymousReader() throws {
        let pki = try TestPKI()
        let readerPKI = try TestReaderPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: Self.request,
            holderTrusts: [readerPKI.root], issuerAnchors: [pki.iaca])
        let (request, _, _) = try pair.exchange(\.allAvailable)
        #expect(request.documents.first?.readerAuthentication == .anonymous)
    }

    @Test("the readerAuth is a detached COSE_Sign1 with the reader certificate in x5chain, one per DocRequest")
    func readerAuthStructure() throws {
        let pki = try TestPKI()
        let readerPKI = try TestReaderPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)],
            request: Self.request + [RequestPreset.driving.docRequestSpec()], readerPKI: readerPKI, issuerAnchors: [pki.iaca])
        guard case .send(let establishment) = try pair.reader.start() else {
            Issue.record("no SessionEstablishment")
            return
        }
        let eDeviceKey = try pair.holder.deviceEngagement.value.security.eDeviceKeyBytes.value.publicKey()
        var decryption = SessionEncryption(role: .mdoc, keys: try SessionKeys(
            privateKey: pair.eReaderKey, peerPublicKey: eDeviceKey, sessionTranscriptBytes: pair.reader.sessionTranscript.taggedBytes))
        let request = try DeviceRequest(encoded: decryption.decrypt(SessionEstablishment(encoded: establishment).data))
        #expect(request.docRequests.count == 2)
        for docRequest in request.docRequests {
            let readerAuth = try #require(docRequest.readerAuth)
            #expect(readerAuth.payload == nil)
            #expect(readerAuth.x5chain == [readerPKI.certificate.derRepresentation])
            #expect(readerAuth.algorithm == .es256)
            let payload = pair.reader.sessionTranscript.readerAuthenticationBytes(itemsRequestBytes: docRequest.itemsRequest)
            #expect(readerAuth.isValidSignature(publicKey: readerPKI.key.publicKey, detachedPayload: payload))
        }
    }

    @Test("a DeviceRequest given as bytes is sent byte for byte, not well-formed as one and in a non-preferred encoding")
    func givenRequestIsSentAsGiven() throws {
        let eDeviceKey = try PrivateKey(generating: .p256)
        // {"version": "2.0", "docRequests": [], "version": 1}: a key twice and a count in two
        // bytes, which no encoder writes and the decoder refuses.
        let given = try #require(Hex.decode("b90003" + "6776657273696f6e63322e30" + "6b646f63526571756573747380" + "6776657273696f6e01"))
        var reader = try ReaderSession(
            engagement: Self.engagement(key: eDeviceKey), deviceRequest: given, trustAnchors: [], now: { TestPKI.referenceTime })
        #expect(reader.initialRequest.isEmpty)
        #expect(reader.givenRequest == given)
        guard case .send(let establishment) = try reader.start() else {
            Issue.record("no SessionEstablishment")
            return
        }
        var decryption = SessionEncryption(role: .mdoc, keys: try SessionKeys(
            privateKey: eDeviceKey, peerPublicKey: reader.eReaderKeyBytes.value.publicKey(),
            sessionTranscriptBytes: reader.sessionTranscript.taggedBytes))
        #expect(try decryption.decrypt(SessionEstablishment(encoded: establishment).data) == given)
        #expect(throws: SessionError(.messageConstructionFailed, "")) {
            try ReaderSession(engagement: Self.engagement(), deviceRequest: [], trustAnchors: [], now: { TestPKI.referenceTime })
        }
    }

    @Test("an X25519 engagement works end to end, with DeviceSignature since the device key is P-256")
    func x25519() throws {
        let pki = try TestPKI()
        let credential = try TestCredentials.mDL(pki: pki)
        var holder = try HolderSession(
            credentials: [credential], eDeviceKey: PrivateKey(generating: .x25519),
            bleOptions: .offering(peripheralServerMode: true, centralClientMode: false))
        var reader = try ReaderSession(
            engagement: holder.deviceEngagement, request: Self.request, trustAnchors: [pki.iaca], now: { TestPKI.referenceTime })
        #expect(reader.eReaderKeyBytes.value.curve == .x25519)
        guard case .send(let establishment) = try reader.start(),
              case .requestReceived(let request) = holder.receive(establishment),
              case .send(let response) = holder.decide(.all(requestedIn: request.deviceRequest)),
              case .received(let report, _) = reader.receive(response)
        else {
            Issue.record("the exchange did not complete")
            return
        }
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.deviceAuthenticationMethod == .signature)
    }

    @Test("an engagement with another cipher suite or an EdDSA EDeviceKey cannot start a session")
    func unusableEngagement() throws {
        #expect(throws: SessionError(.unsupportedCipherSuite, "")) {
            try Self.reader(engagement: Self.engagement(cipherSuite: Security.CipherSuiteIdentifier(rawValue: 2)))
        }
        #expect(throws: SessionError(.invalidEngagement, "")) {
            try Self.reader(engagement: Self.engagement(key: PrivateKey(generating: .ed25519)))
        }
        #expect(throws: SessionError(.keyDerivationFailed, "")) {
            try ReaderSession(
                engagement: Self.engagement(), request: Self.request, trustAnchors: [],
                eReaderKey: PrivateKey(generating: .p384), now: { TestPKI.referenceTime })
        }
    }

    @Test("a request must name a document, a name space and an element")
    func emptyRequests() {
        #expect(throws: SessionError(.messageConstructionFailed, "")) { try Self.reader(request: []) }
        #expect(throws: SessionError(.messageConstructionFailed, "")) {
            try Self.reader(request: [DocRequestSpec(docType: DocType.mDL, nameSpaces: [:])])
        }
        #expect(throws: SessionError(.messageConstructionFailed, "")) {
            try Self.reader(request: [DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: [:]])])
        }
    }

    @Test("reader authentication needs a chain whose first certificate is the signing key's, and a key that can sign")
    func readerAuthenticationInputs() throws {
        let readerPKI = try TestReaderPKI()
        #expect(throws: SessionError(.messageConstructionFailed, "")) {
            try Self.reader(readerAuthentication: (readerPKI.key, []))
        }
        #expect(throws: SessionError(.messageConstructionFailed, "")) {
            try Self.reader(readerAuthentication: (PrivateKey(generating: .p256), [readerPKI.certificate]))
        }
        _ = try Self.reader(readerAuthentication: readerPKI.signer)
    }

    @Test("start() sends SessionEstablishment once; request() needs an answered request")
    func callOrder() throws {
        var reader = try Self.reader()
        #expect(throws: SessionError(.invalidState, "")) { try reader.request(Self.request) }
        guard case .send(let establishment) = try reader.start() else {
            Issue.record("no SessionEstablishment")
            return
        }
        let parsed = try SessionEstablishment(encoded: establishment)
        #expect(parsed.eReaderKey.bytes == reader.eReaderKeyBytes.bytes)
        #expect(throws: SessionError(.invalidState, "")) { try reader.start() }
        #expect(throws: SessionError(.invalidState, "")) { try reader.request(Self.request) }
    }

    @Test("a status without data ends the session, naming the status")
    func statusMessages() throws {
        for (status, expected) in [(10, "session encryption error (10)"), (11, "CBOR decoding error (11)"), (99, "unknown status 99")] {
            var reader = try Self.reader()
            _ = try reader.start()
            guard case .finished(.failed(let error)) = reader.receive(SessionData(status: SessionData.Status(rawValue: UInt64(status))).encoded()) else {
                Issue.record("status \(status) did not end the session")
                continue
            }
            #expect(error.code == .peerReportedError)
            #expect(error.reason.contains(expected))
            #expect(reader.isFinished)
        }
        var reader = try Self.reader()
        _ = try reader.start()
        guard case .finished(.terminatedByHolder) = reader.receive(SessionStatusMapping.terminationMessage) else {
            Issue.record("status 20 did not end the session normally")
            return
        }
        #expect(reader.terminate().isFinishedWithoutSending)
    }

    @Test("SessionData with neither data nor status, or data nobody asked for, ends the session with status 20")
    func unexpectedMessages() throws {
        var reader = try Self.reader()
        _ = try reader.start()
        guard case .sendAndFinish(let reply, .failed(let error)) = reader.receive(SessionData().encoded()) else {
            Issue.record("an empty SessionData was accepted")
            return
        }
        #expect(error.code == .unexpectedMessage)
        #expect(sessionStatus(reply) == .sessionTermination)

        var unstarted = try Self.reader()
        guard case .sendAndFinish(_, .failed(let early)) = unstarted.receive(SessionData(data: [1, 2, 3]).encoded()) else {
            Issue.record("data before start() was accepted")
            return
        }
        #expect(early.code == .unexpectedMessage)
    }

    @Test("the transport ending is a normal end only after a response")
    func transportEnd() throws {
        let pki = try TestPKI()
        var pair = try SessionPair(
            credentials: [TestCredentials.mDL(pki: pki)], request: Self.request, issuerAnchors: [pki.iaca])
        var early = pair.reader
        _ = try early.start()
        guard case .finished(.failed(let error)) = early.transportEnded() else {
            Issue.record("an early end was not an error")
            return
        }
        #expect(error.code == .transportEndedEarly)
        _ = try pair.exchange(\.allAvailable)
        guard case .finished(.transportEnded) = pair.reader.transportEnded() else {
            Issue.record("an end after the response was not normal")
            return
        }
    }

    @Test("the presets ask for the mDL elements they name")
    func presets() {
        #expect(RequestPreset.ageOver18.elementIdentifiers == ["age_over_18"])
        #expect(RequestPreset.driving.elementIdentifiers
            == ["family_name", "given_name", "portrait", "driving_privileges", "document_number", "expiry_date", "issuing_country"])
        #expect(RequestPreset.full.elementIdentifiers == DataElementCatalogue.identifiers(in: NameSpace.mDL))
        #expect(RequestPreset.full.elementIdentifiers.contains("signature_usual_mark"))
        let spec = RequestPreset.driving.docRequestSpec(intentToRetain: true)
        #expect(spec.docType == DocType.mDL)
        #expect(spec.nameSpaces[NameSpace.mDL]?.values.allSatisfy { $0 } == true)
        #expect(spec.itemsRequest.nameSpaces[NameSpace.mDL]?.keys == RequestPreset.driving.elementIdentifiers)
        #expect(RequestPreset(rawValue: "age-over-18") == .ageOver18)
    }
}

extension ReaderAction {
    /// `true` for ``finished(_:)``.
    var isFinishedWithoutSending: Bool {
        if case .finished = self { return true }
        return false
    }
}
