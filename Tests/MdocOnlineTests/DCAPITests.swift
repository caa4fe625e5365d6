import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocOnline
import MdocSession
import MdocTestSupport
import MdocText
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// ISO/IEC TS 18013-7 Annex C (`org-iso-mdoc`): a request made, answered by a wallet with a real
/// credential and opened and verified; and every refusal of a hostile or stale input.
@Suite("Annex C requests, responses and the verifier's state")
struct DCAPITests {
    private static let origin = "https://verifier.example"
    /// The request time: credentials of ``IssuanceFixture`` are valid around it.
    private static let now = TestPKI.referenceTime

    /// A reader root and a reader authentication certificate it issued (ISO/IEC 18013-5 Annex B).
    private static func readerPKI() throws -> (root: Certificate, key: PrivateKey, certificate: Certificate) {
        let rootKey = try PrivateKey(generating: .p256)
        let key = try PrivateKey(generating: .p256)
        let root = try TestCertificateBuilder.issue(
            commonName: "online reader root", key: rootKey, issuer: nil,
            extensions: [
                ("basicConstraints", "critical,CA:TRUE,pathlen:0"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                ("subjectKeyIdentifier", "hash"),
            ])
        let certificate = try TestCertificateBuilder.issue(
            commonName: "online reader", key: key, issuer: (root, rootKey),
            extensions: [
                ("keyUsage", "critical,digitalSignature"),
                ("extendedKeyUsage", "critical,\(CertificateProfile.readerAuthenticationOID)"),
                ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
            ])
        return (root, key, certificate)
    }

    private static let specs = [DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["family_name": false, "age_over_18": true]])]

    /// What a wallet does: reads the request, answers it from `credential` with everything asked
    /// for, signed over the transcript of `signedFor` and sealed for `origin`.
    private static func answer(
        _ requestJSON: [UInt8], credential: Credential, origin: String, signedFor signingOrigin: String? = nil
    ) throws -> (json: [UInt8], deviceResponse: [UInt8]) {
        let request = try DCAPIRequest(json: requestJSON)
        let response = try ResponseBuilder().deviceResponse(
            request: request.deviceRequest, credentials: [credential], approved: .all(requestedIn: request.deviceRequest),
            sessionTranscript: request.sessionTranscript(origin: signingOrigin ?? origin)).encoded()
        let sealed = try request.seal(response, origin: origin)
        return (Array(sealed.json.serialized().utf8), response)
    }

    private static func json(_ value: JSONValue) -> [UInt8] { Array(value.serialized().utf8) }

    @Test("A request made, answered and opened: reader authentication verifies over the online transcript, the response verifies")
    func roundTrip() throws {
        let pki = try TestPKI()
        let reader = try Self.readerPKI()
        let credential = try IssuanceFixture.credential(pki)
        let (request, state) = try DCAPIRequestState.make(
            Self.specs, origin: Self.origin, readerAuthentication: (reader.key, [reader.certificate]), now: Self.now)
        // The wallet: the request as JSON, reader authentication over [null, null, dcapi Handover].
        let received = try DCAPIRequest(json: Self.json(request.json))
        #expect(received.encryptionInfoText == request.encryptionInfoText)
        #expect(received.deviceRequestBytes == request.deviceRequestBytes)
        let transcript = received.sessionTranscript(origin: Self.origin)
        #expect(transcript.itemBytes == state.sessionTranscript.itemBytes)
        #expect(transcript.transcript.deviceEngagementBytes == nil && transcript.transcript.eReaderKeyBytes == nil)
        let docRequest = try #require(received.deviceRequest.docRequests.first)
        let identity = ReaderAuthenticationVerifier(trustAnchors: [reader.root]).verify(docRequest, sessionTranscript: transcript, at: Self.now).identity
        #expect(identity == .trusted(subject: "CN=online reader, C=US", anchor: "CN=online reader root, C=US"))
        // Over another origin's transcript the same signature does not verify.
        let elsewhere = ReaderAuthenticationVerifier(trustAnchors: [reader.root])
            .verify(docRequest, sessionTranscript: received.sessionTranscript(origin: "https://other.example"), at: Self.now).identity
        #expect(elsewhere != identity)

        let (responseJSON, sent) = try Self.answer(Self.json(request.json), credential: credential, origin: Self.origin)
        // The verifier, from its state as written and read back.
        let restored = try DCAPIRequestState(json: Self.json(state.json))
        #expect(restored.origin == Self.origin && restored.encryptionInfo == state.encryptionInfo)
        let opened = try restored.open(try EncryptedResponse(json: responseJSON), at: Self.now.addingTimeInterval(60))
        #expect(opened == sent)
        let report = try DeviceResponseVerifier(trustAnchors: [pki.iaca], sessionTranscript: restored.sessionTranscript)
            .verify(opened, at: Self.now)
        #expect(report.outcome == .verified)
    }

    @Test("Without reader authentication the DocRequests carry no readerAuth")
    func anonymousRequest() throws {
        let (request, _) = try DCAPIRequestState.make(Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now)
        #expect(request.deviceRequest.docRequests.allSatisfy { $0.readerAuth == nil })
        #expect(request.encryptionInfo.nonce.count == DCAPILimits.nonceByteCount)
        #expect(request.encryptionInfo.recipientPublicKey.curve == .p256)
        // Two requests share neither nonce nor key.
        let (other, _) = try DCAPIRequestState.make(Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now)
        #expect(other.encryptionInfo.nonce != request.encryptionInfo.nonce)
        #expect(other.encryptionInfo.recipientPublicKey != request.encryptionInfo.recipientPublicKey)
    }

    @Test("The EncryptionInfo of the EU age verification request example reads, and writes back to the same text")
    func encryptionInfoExample() throws {
        let text = "gmVkY2FwaaJlbm9uY2VQtJvGiCZ0egQII8fQgu960HJyZWNpcGllbnRQdWJsaWNLZXmkAQIgASFYIMmliVBWgs8KKpAychO3py0Eqagows-CrraFX1rVOniXIlggIMvYr_x55AY4LKiWZLHBlQJmX1R9Y5BkUfnuSddAmyE"
        let info = try EncryptionInfo(base64URL: text)
        #expect(info.nonce == hex("b49bc68826747a040823c7d082ef7ad0"))
        #expect(info.recipientPublicKey.coordinates?.x == hex("c9a589505682cf0a2a90327213b7a72d04a9a828c2cf82aeb6855f5ad53a7897"))
        #expect(info.base64URL == text)
    }

    /// An EncryptionInfo of `nonce` and the key `key` (a COSE_Key map), with `identifier` first.
    private static func encryptionInfo(identifier: String = "dcapi", nonce: CBOR, key: CBOR) -> String {
        var parameters = CBORMap()
        parameters.append("nonce", nonce)
        parameters.append("recipientPublicKey", key)
        return Base64URL.encode(CBOR.array([.textString(identifier), .map(parameters)]).encoded())
    }

    @Test("Malformed EncryptionInfo is refused with what is wrong: identifier, nonce length on each side of its limits, key")
    func malformedEncryptionInfo() throws {
        let key = try PrivateKey(generating: .p256)
        let publicCOSE = COSEKey(publicKey: key.publicKey).cbor
        let bytes = { (count: Int) in CBOR.byteString([UInt8](repeating: 7, count: count)) }
        for count in [DCAPILimits.minimumNonceByteCount, DCAPILimits.maximumNonceByteCount] {
            #expect(try EncryptionInfo(base64URL: Self.encryptionInfo(nonce: bytes(count), key: publicCOSE)).nonce.count == count)
        }
        for count in [DCAPILimits.minimumNonceByteCount - 1, DCAPILimits.maximumNonceByteCount + 1] {
            #expect(throws: OnlineError(.malformedEncryptionInfo, "")) {
                try EncryptionInfo(base64URL: Self.encryptionInfo(nonce: bytes(count), key: publicCOSE))
            }
        }
        let refused: [String] = [
            Self.encryptionInfo(identifier: "dcapi2", nonce: bytes(16), key: publicCOSE),
            Self.encryptionInfo(nonce: .textString("0123456789abcdef"), key: publicCOSE),
            Self.encryptionInfo(nonce: bytes(16), key: COSEKey(privateKey: key).cbor),
            Self.encryptionInfo(nonce: bytes(16), key: COSEKey(publicKey: try PrivateKey(generating: .p384).publicKey).cbor),
            Base64URL.encode(CBOR.array(["dcapi"]).encoded()),
            Base64URL.encode([0xff, 0x00]),
            "not base64url!",
            Self.encryptionInfo(nonce: bytes(16), key: publicCOSE) + "=",
        ]
        for text in refused {
            #expect(throws: OnlineError(.malformedEncryptionInfo, "")) { try EncryptionInfo(base64URL: text) }
        }
        do {
            _ = try EncryptionInfo(base64URL: Self.encryptionInfo(identifier: "dcapi2", nonce: bytes(16), key: publicCOSE))
        } catch {
            #expect(error.reason.contains("\"dcapi2\""))
        }
    }

    @Test("A response sealed for another origin does not open, and names the origin it was expected for")
    func otherOrigin() throws {
        let pki = try TestPKI()
        let (request, state) = try DCAPIRequestState.make(Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now)
        let (json, _) = try Self.answer(Self.json(request.json), credential: try IssuanceFixture.credential(pki), origin: "https://phish.example")
        do {
            _ = try state.open(try EncryptedResponse(json: json), at: Self.now)
            Issue.record("a response for another origin opened")
        } catch {
            #expect(error.code == .responseDecryptionFailed)
            #expect(error.reason.contains("origin https://verifier.example"))
        }
    }

    @Test("A response sealed for the origin but signed over another origin's transcript fails device authentication")
    func signedForOtherOrigin() throws {
        let pki = try TestPKI()
        let (request, state) = try DCAPIRequestState.make(Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now)
        let (json, _) = try Self.answer(
            Self.json(request.json), credential: try IssuanceFixture.credential(pki), origin: Self.origin, signedFor: "https://phish.example")
        let opened = try state.open(try EncryptedResponse(json: json), at: Self.now)
        let report = try DeviceResponseVerifier(trustAnchors: [pki.iaca], sessionTranscript: state.sessionTranscript).verify(opened, at: Self.now)
        #expect(report.outcome == .deviceAuthenticationFailed)
    }

    @Test("A response to another request does not open with this request's state")
    func otherRequest() throws {
        let pki = try TestPKI()
        let (first, _) = try DCAPIRequestState.make(Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now)
        let (_, second) = try DCAPIRequestState.make(Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now)
        let (json, _) = try Self.answer(Self.json(first.json), credential: try IssuanceFixture.credential(pki), origin: Self.origin)
        #expect(throws: OnlineError(.responseDecryptionFailed, "")) { try second.open(try EncryptedResponse(json: json), at: Self.now) }
    }

    @Test("cipherText: one byte shorter than the tag is truncated, one over the limit too large; each limit itself reads")
    func cipherTextBounds() throws {
        let enc = try PrivateKey(generating: .p256).publicKey.x963Representation
        let longest = HPKE.maximumPlaintextByteCount + AESGCM.tagByteCount
        let response = { (count: Int) in
            EncryptedResponse(sealed: HPKESealedMessage(encapsulatedKey: enc, ciphertext: [UInt8](repeating: 1, count: count))).cbor.encoded()
        }
        #expect(try EncryptedResponse(encoded: response(AESGCM.tagByteCount)).sealed.ciphertext.count == AESGCM.tagByteCount)
        #expect(throws: OnlineError(.malformedResponse, "")) { try EncryptedResponse(encoded: response(AESGCM.tagByteCount - 1)) }
        #expect(try EncryptedResponse(encoded: response(longest)).sealed.ciphertext.count == longest)
        #expect(throws: OnlineError(.inputTooLarge, "")) { try EncryptedResponse(encoded: response(longest + 1)) }
        // The longest cipherText fits in the response object's limit.
        let object = Array(try EncryptedResponse(encoded: response(longest)).json.serialized().utf8)
        #expect(object.count <= DCAPILimits.maximumResponseByteCount)
    }

    @Test("Response objects: over the limit refused before parsing, at the limit parsed; shapes that are not a response refused")
    func responseObjects() throws {
        let padded = { (count: Int) -> [UInt8] in
            let head = Array(#"{"response":"AA"}"#.utf8)
            return head + [UInt8](repeating: 0x20, count: count - head.count)
        }
        #expect(throws: OnlineError(.inputTooLarge, "")) { try EncryptedResponse(json: padded(DCAPILimits.maximumResponseByteCount + 1)) }
        // At the limit the text is read: "AA" is no EncryptedResponse.
        #expect(throws: OnlineError(.malformedResponse, "")) { try EncryptedResponse(json: padded(DCAPILimits.maximumResponseByteCount)) }
        let enc = try PrivateKey(generating: .p256).publicKey.x963Representation
        var data = CBORMap()
        data.append("enc", .byteString(enc))
        data.append("cipherText", .byteString([UInt8](repeating: 0, count: 32)))
        for text in [
            #"["response"]"#, #"{"responses":"AA"}"#, #"{"response":7}"#, #"{"response":"AA=="}"#,
            #"{"response":"\#(Base64URL.encode(CBOR.array(["dc", .map(data)]).encoded()))"}"#,
            #"{"response":"\#(Base64URL.encode(CBOR.array(["dcapi", .map(CBORMap())]).encoded()))"}"#,
        ] {
            #expect(throws: OnlineError(.malformedResponse, "")) { try EncryptedResponse(json: Array(text.utf8)) }
        }
    }

    @Test("A request object over its limit is refused before parsing; one whose deviceRequest is not one is malformed")
    func requestObjects() throws {
        let (request, _) = try DCAPIRequestState.make(Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now)
        let text = Self.json(request.json)
        let padded = { (count: Int) in text + [UInt8](repeating: 0x20, count: count - text.count) }
        #expect(try DCAPIRequest(json: padded(DCAPILimits.maximumRequestByteCount)).deviceRequestBytes == request.deviceRequestBytes)
        #expect(throws: OnlineError(.inputTooLarge, "")) { try DCAPIRequest(json: padded(DCAPILimits.maximumRequestByteCount + 1)) }
        let notARequest = #"{"deviceRequest":"\#(Base64URL.encode(CBOR.array([]).encoded()))","encryptionInfo":"\#(request.encryptionInfoText)"}"#
        #expect(throws: OnlineError(.malformedRequest, "")) { try DCAPIRequest(json: Array(notARequest.utf8)) }
    }

    @Test("A response after the expiry is refused; at the expiry it opens")
    func expiry() throws {
        let pki = try TestPKI()
        let (request, state) = try DCAPIRequestState.make(
            Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now, validity: .seconds(30))
        #expect(state.expires == state.created.addingTimeInterval(30))
        let (json, sent) = try Self.answer(Self.json(request.json), credential: try IssuanceFixture.credential(pki), origin: Self.origin)
        let response = try EncryptedResponse(json: json)
        #expect(try state.open(response, at: state.expires) == sent)
        #expect(throws: OnlineError(.requestExpired, "")) { try state.open(response, at: state.expires.addingTimeInterval(1)) }
    }

    @Test("Validity: each limit accepted, one second beyond each refused")
    func validityLimits() throws {
        for validity in [DCAPILimits.minimumValidity, DCAPILimits.maximumValidity] {
            let (_, state) = try DCAPIRequestState.make(Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now, validity: validity)
            #expect(state.expires.timeIntervalSince(state.created) == Double(validity.components.seconds))
        }
        for validity in [DCAPILimits.minimumValidity - .seconds(1), DCAPILimits.maximumValidity + .seconds(1)] {
            #expect(throws: OnlineError(.malformedState, "")) {
                try DCAPIRequestState.make(Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now, validity: validity)
            }
        }
    }

    /// `state`'s JSON with the member `name` set to `value`.
    private static func edited(_ state: DCAPIRequestState, _ name: String, _ value: JSONValue) -> [UInt8] {
        guard case .object(let members) = state.json else { return [] }
        return json(.object(members.map { $0.0 == name ? (name, value) : $0 }))
    }

    @Test("A state whose nonce, key or times were changed is refused as tampered; other damage as malformed")
    func tamperedState() throws {
        let (_, state) = try DCAPIRequestState.make(Self.specs, origin: Self.origin, readerAuthentication: nil, now: Self.now)
        let otherKey = Base64URL.encode(try PrivateKey(generating: .p256).rawRepresentation)
        let tampered: [(String, JSONValue)] = [
            ("nonce", .string(Base64URL.encode([UInt8](repeating: 1, count: 16)))),
            ("recipientPrivateKey", .string(otherKey)),
            ("expires", .string(TDate(state.created.addingTimeInterval(-1)).text)),
            ("expires", .string(TDate(state.created.addingTimeInterval(Double(DCAPILimits.maximumValidity.components.seconds) + 1)).text)),
        ]
        for (name, value) in tampered {
            #expect(throws: OnlineError(.stateTampered, "")) { try DCAPIRequestState(json: Self.edited(state, name, value)) }
        }
        let malformed: [(String, JSONValue)] = [
            ("format", .string("something else")), ("created", .string("yesterday")), ("recipientPrivateKey", .string("AAAA")),
            ("origin", .int(1)),
        ]
        for (name, value) in malformed {
            #expect(throws: OnlineError(.malformedState, "")) { try DCAPIRequestState(json: Self.edited(state, name, value)) }
        }
        #expect(throws: OnlineError(.invalidOrigin, "")) { try DCAPIRequestState(json: Self.edited(state, "origin", .string("https://a/"))) }
        let text = Self.json(state.json)
        #expect(throws: OnlineError(.inputTooLarge, "")) {
            try DCAPIRequestState(json: text + [UInt8](repeating: 0x20, count: DCAPILimits.maximumStateByteCount + 1 - text.count))
        }
        #expect(try DCAPIRequestState(json: text + [UInt8](repeating: 0x20, count: DCAPILimits.maximumStateByteCount - text.count)).origin == Self.origin)
    }

    @Test("Origins: a scheme, a host and a port are one; a path, a final slash, a user or no scheme are not")
    func origins() throws {
        for origin in ["https://verifier.example", "https://verifier.example:8443", "http://localhost:8080"] {
            try DCAPIRequest.checkOrigin(origin)
        }
        for origin in ["https://verifier.example/", "https://verifier.example/path", "verifier.example", "https://", "https://user@host",
                       "://host", "https://host?query", "https://hö.example"] {
            #expect(throws: OnlineError(.invalidOrigin, "")) { try DCAPIRequest.checkOrigin(origin) }
        }
    }
}
