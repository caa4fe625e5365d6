import MdocCBOR
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

/// OpenID4VP 1.0 for mdocs: a request made in each response mode, answered by a wallet with a
/// real credential, opened and verified over the Appendix B.2.6 transcript; and every refusal
/// of a hostile request, response or state.
@Suite("OpenID4VP 1.0 requests, vp_token responses and the verifier's state")
struct OpenID4VPTests {
    private static let origin = "https://verifier.example"
    private static let client = OpenID4VPRequestState.Verifier.client(
        id: "redirect_uri:https://verifier.example/post", responseURI: "https://verifier.example/post")
    private static let now = TestPKI.referenceTime

    private static func query() throws -> DCQLQuery {
        try DCQLQuery(specs: [DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["family_name": false, "age_over_18": true]])])
    }

    private static func verifier(for mode: OpenID4VPResponseMode) -> OpenID4VPRequestState.Verifier {
        mode.usesDigitalCredentialsAPI ? .origin(origin) : client
    }

    private static func json(_ value: JSONValue) -> [UInt8] { Array(value.serialized().utf8) }

    /// What a wallet does: reads the request, answers each Credential Query from `credential`
    /// with everything asked for, signed over the transcript of `origin` (or of `transcript`
    /// when given), and returns the response as the mode sends it.
    private static func answer(
        _ requestJSON: [UInt8], credential: Credential, origin: String? = Self.origin, transcript: SessionTranscriptBinding? = nil
    ) throws -> (body: [UInt8], deviceResponses: [[UInt8]]) {
        let request = try OpenID4VPRequest(json: requestJSON)
        let signedOver = try transcript ?? request.sessionTranscript(origin: origin)
        var answers: [(id: String, deviceResponse: [UInt8])] = []
        for query in request.dcqlQuery.credentials {
            let deviceResponse = try ResponseBuilder().deviceResponse(
                request: query.deviceRequest, credentials: [credential], approved: .all(requestedIn: query.deviceRequest),
                sessionTranscript: signedOver).encoded()
            answers.append((query.id, deviceResponse))
        }
        let response = try request.respond(answers)
        return (Array(response.serialized(for: request.responseMode).utf8), answers.map(\.deviceResponse))
    }

    @Test("Each response mode: made, answered and opened; the DeviceResponse verifies over the Appendix B.2.6 transcript", arguments: OpenID4VPResponseMode.allCases)
    func roundTrip(mode: OpenID4VPResponseMode) throws {
        let pki = try TestPKI()
        let (request, state) = try OpenID4VPRequestState.make(try Self.query(), responseMode: mode, verifier: Self.verifier(for: mode), now: Self.now)
        let received = try OpenID4VPRequest(json: Self.json(request.json))
        #expect(received.responseMode == mode && received.nonce == state.nonce)
        #expect(received.dcqlQuery == request.dcqlQuery)
        #expect(try received.sessionTranscript(origin: Self.origin).itemBytes == state.sessionTranscript.itemBytes)
        #expect((try state.encryptionKey != nil) == mode.isEncrypted)
        let (body, sent) = try Self.answer(Self.json(request.json), credential: try IssuanceFixture.credential(pki))
        // Through the Digital Credentials API a JSON object, to a response_uri a form.
        #expect((body.first == UInt8(ascii: "{")) == mode.usesDigitalCredentialsAPI)
        let restored = try OpenID4VPRequestState(json: Self.json(state.json))
        let opened = try restored.open(try OpenID4VPResponse(received: body), at: Self.now.addingTimeInterval(60))
        #expect(opened.map(\.id) == state.credentialIDs && opened.map(\.deviceResponse) == sent)
        let report = try DeviceResponseVerifier(trustAnchors: [pki.iaca], sessionTranscript: restored.sessionTranscript)
            .verify(opened[0].deviceResponse, at: Self.now)
        #expect(report.outcome == .verified)
    }

    @Test("The request object: response_type, mode, nonce, DCQL for mso_mdoc, and for an encrypted mode an ECDH-ES key with its kid")
    func requestShape() throws {
        let (request, state) = try OpenID4VPRequestState.make(
            try Self.query(), responseMode: .digitalCredentialsAPIJWT, verifier: .origin(Self.origin), now: Self.now,
            encryptions: [.a256gcm, .a128gcm])
        let key = try #require(try state.encryptionKey)
        let (x, y) = try #require(key.key.coordinates)
        let expected = """
            {"response_type":"vp_token","response_mode":"dc_api.jwt","nonce":"\(state.nonce)","dcql_query":{"credentials":[\
            {"id":"org_iso_18013_5_1_mDL","format":"mso_mdoc","meta":{"doctype_value":"org.iso.18013.5.1.mDL"},"claims":[\
            {"path":["org.iso.18013.5.1","family_name"],"intent_to_retain":false},{"path":["org.iso.18013.5.1","age_over_18"],"intent_to_retain":true}]}]},\
            "client_metadata":{"jwks":{"keys":[{"kty":"EC","crv":"P-256","x":"\(Base64URL.encode(x))","y":"\(Base64URL.encode(y))",\
            "use":"enc","alg":"ECDH-ES","kid":"\(key.keyID)"}]},"encrypted_response_enc_values_supported":["A256GCM","A128GCM"],\
            "vp_formats_supported":{"mso_mdoc":{}}}}
            """
        #expect(request.json.serialized() == expected)
        #expect(key.keyID == Base64URL.encode(try JWKThumbprint(of: key.key).bytes))
        #expect(Base64URL.decode(state.nonce)?.count == OpenID4VPLimits.nonceByteCount)
        // direct_post carries client_id and response_uri, and no key.
        let (plain, _) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .directPost, verifier: Self.client, now: Self.now)
        let text = plain.json.serialized()
        #expect(text.contains(#""client_id":"redirect_uri:https://verifier.example/post","response_uri":"https://verifier.example/post""#))
        #expect(!text.contains("jwks"))
    }

    @Test("OpenID4VP 1.0 section 8.3: the example encrypted response decrypts with the example key to its vp_token")
    func specificationExample() throws {
        let body = #"""
            {"response":"eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSIsImtpZCI6ImFjIiwiZXBrIjp7Imt0eSI6IkVDIiwieCI6Im5ubVZwbTNWM2piaGNhZlFhUkJrU1ZOSGx3Wkh3dC05ck9wSnVmeVlJdWsiLCJ5IjoicjRmakRxd0p5czlxVU9QLV9iM21SNVNaRy0tQ3dPMm1pYzVWU05UWU45ZyIsImNydiI6IlAtMjU2In19..uAYcHRUSSn2X0WPX.yVzlGSYG4qbg0bq18JcUiDRw56yVnbKR8E7S7YlEtzT00RqE3Pw5oTpUG3hdLN4taHZ9gC1kwak8JOnJgQ.1wR024_3-qtAlx1oFIUpQQ"}
            """#
        guard case .encrypted(let compact) = try OpenID4VPResponse(received: Array(body.utf8)) else {
            Issue.record("the example is not read as an encrypted response")
            return
        }
        let jwe = try CompactJWE(compact: compact)
        #expect(jwe.keyID == "ac" && jwe.contentEncryption == .a128gcm)
        let key = try PrivateKey(rawRepresentation: try #require(Base64URL.decode("Et-3ce0omz8_TuZ96Df9lp0GAaaDoUnDe6X-CRO7Aww")), curve: .p256)
        let payload = try jwe.decrypt(with: key)
        guard case .vpToken(let token) = try OpenID4VPResponse(received: payload) else {
            Issue.record("the decrypted example holds no vp_token")
            return
        }
        #expect(token.presentations == [VPToken.Entry(id: "example_credential_id", values: ["eyJhb...YMetA"])])
    }

    @Test("Another origin, client_id or nonce than the request's: the DeviceResponse fails device authentication")
    func otherBinding() throws {
        let pki = try TestPKI()
        let credential = try IssuanceFixture.credential(pki)
        let cases: [(OpenID4VPResponseMode, any OnlineHandover)] = [
            (.digitalCredentialsAPI, OpenID4VPDCAPIHandover(origin: "https://phish.example", nonce: "", jwkThumbprint: nil)),
            (.directPost, OpenID4VPHandover(clientID: "x509_san_dns:phish.example", nonce: "", jwkThumbprint: nil, responseURI: "https://verifier.example/post")),
            (.directPostJWT, OpenID4VPHandover(clientID: "redirect_uri:https://verifier.example/post", nonce: "another-nonce", jwkThumbprint: nil, responseURI: "https://verifier.example/post")),
        ]
        for (mode, handover) in cases {
            let (request, state) = try OpenID4VPRequestState.make(try Self.query(), responseMode: mode, verifier: Self.verifier(for: mode), now: Self.now)
            // The wallet signs over the transcript of the handover given, with the request's nonce unless the case changes it.
            var signed: any OnlineHandover = handover
            if let dcapi = handover as? OpenID4VPDCAPIHandover {
                signed = OpenID4VPDCAPIHandover(origin: dcapi.origin, nonce: state.nonce, jwkThumbprint: nil)
            } else if let redirect = handover as? OpenID4VPHandover, redirect.nonce.isEmpty {
                signed = OpenID4VPHandover(clientID: redirect.clientID, nonce: state.nonce, jwkThumbprint: try state.encryptionKey.map { try JWKThumbprint(of: $0.key) }, responseURI: redirect.responseURI)
            }
            let (body, _) = try Self.answer(
                Self.json(request.json), credential: credential, transcript: SessionTranscriptBinding(signed.sessionTranscript))
            let opened = try state.open(try OpenID4VPResponse(received: body), at: Self.now)
            let report = try DeviceResponseVerifier(trustAnchors: [pki.iaca], sessionTranscript: state.sessionTranscript)
                .verify(opened[0].deviceResponse, at: Self.now)
            #expect(report.outcome == .deviceAuthenticationFailed, "\(mode)")
        }
    }

    @Test("A JWE answering another request names another kid; one with this kid but for another key does not decrypt")
    func otherKey() throws {
        let pki = try TestPKI()
        let credential = try IssuanceFixture.credential(pki)
        let (first, _) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .directPostJWT, verifier: Self.client, now: Self.now)
        let (_, second) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .directPostJWT, verifier: Self.client, now: Self.now)
        let (body, _) = try Self.answer(Self.json(first.json), credential: credential)
        #expect(throws: OpenID4VPTests.code(.responseDecryptionFailed)) { try second.open(try OpenID4VPResponse(received: body), at: Self.now) }
        // The payload encrypted to the first request's key but labelled with the second's kid.
        let payload = Array(#"{"vp_token":{"org_iso_18013_5_1_mDL":["AA"]}}"#.utf8)
        let forged = try CompactJWE.encrypt(
            payload, to: try #require(first.encryptionKey).key, encryption: .a128gcm, keyID: try #require(try second.encryptionKey).keyID)
        #expect(throws: OpenID4VPTests.code(.responseDecryptionFailed)) { try second.open(.encrypted(forged), at: Self.now) }
        // Without a kid.
        let unnamed = try CompactJWE.encrypt(payload, to: try #require(try second.encryptionKey).key, encryption: .a128gcm)
        #expect(throws: OpenID4VPTests.code(.responseDecryptionFailed)) { try second.open(.encrypted(unnamed), at: Self.now) }
    }

    @Test("Algorithm confusion: an enc not offered, alg dir or none, and ECDH-ES+A128KW are refused before any key is used")
    func algorithmConfusion() throws {
        let (_, state) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .digitalCredentialsAPIJWT, verifier: .origin(Self.origin), now: Self.now)
        let key = try #require(try state.encryptionKey)
        let payload = Array(#"{"vp_token":{"org_iso_18013_5_1_mDL":["AA"]}}"#.utf8)
        let a256 = try CompactJWE.encrypt(payload, to: key.key, encryption: .a256gcm, keyID: key.keyID)
        #expect(throws: OpenID4VPTests.code(.unsupportedJWEAlgorithm)) { try state.open(.encrypted(a256), at: Self.now) }
        let rest = a256.split(separator: ".", omittingEmptySubsequences: false).dropFirst().joined(separator: ".")
        for alg in ["dir", "none", "ECDH-ES+A128KW", "RSA-OAEP"] {
            let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","enc":"A128GCM","kid":"\#(key.keyID)"}"#.utf8))
            #expect(throws: OpenID4VPTests.code(.unsupportedJWEAlgorithm)) { try state.open(.encrypted("\(header).\(rest)"), at: Self.now) }
        }
    }

    @Test("A truncated JWE is malformed; a response at its byte limit is read, one byte over is refused before parsing")
    func truncatedAndOversized() throws {
        let pki = try TestPKI()
        let (request, state) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .directPostJWT, verifier: Self.client, now: Self.now)
        let (body, _) = try Self.answer(Self.json(request.json), credential: try IssuanceFixture.credential(pki))
        guard case .encrypted(let compact) = try OpenID4VPResponse(received: body) else {
            Issue.record("no JWE")
            return
        }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        for truncated in [String(compact.dropLast(4)), parts.dropLast().joined(separator: "."), String(compact.prefix(40))] {
            #expect(throws: OnlineError.self) { try state.open(.encrypted(truncated), at: Self.now) }
        }
        #expect(throws: OpenID4VPTests.code(.malformedJWE)) { try state.open(.encrypted(parts.dropLast().joined(separator: ".")), at: Self.now) }
        // A compact JWE over its own limit.
        let long = compact + String(repeating: "A", count: JWELimits.maximumCompactByteCount + 1 - compact.utf8.count)
        #expect(throws: OpenID4VPTests.code(.jweTooLarge)) { try state.open(.encrypted(long), at: Self.now) }
        // The response body: padded with spaces (JSON) to the limit and one over.
        let object = Array(#"{"response":"\#(compact)"}"#.utf8)
        let padded = { (count: Int) in object + [UInt8](repeating: 0x20, count: count - object.count) }
        #expect(try OpenID4VPResponse(received: padded(OpenID4VPLimits.maximumResponseByteCount)) == .encrypted(compact))
        #expect(throws: OpenID4VPTests.code(.inputTooLarge)) { try OpenID4VPResponse(received: padded(OpenID4VPLimits.maximumResponseByteCount + 1)) }
    }

    @Test("vp_token: a Credential Query missing, one not asked for, two presentations for one, or not base64url is refused")
    func vpTokenMismatch() throws {
        let (_, state) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .digitalCredentialsAPI, verifier: .origin(Self.origin), now: Self.now)
        let id = state.credentialIDs[0]
        let mismatched = [
            #"{"vp_token":{}}"#, #"{"vp_token":{"\#(id)":["AA"],"extra":["AA"]}}"#, #"{"vp_token":{"other":["AA"]}}"#,
            #"{"vp_token":{"\#(id)":["AA","AA"]}}"#,
        ]
        for text in mismatched {
            #expect(throws: OpenID4VPTests.code(.vpTokenMismatch), "\(text)") { try state.open(try OpenID4VPResponse(received: Array(text.utf8)), at: Self.now) }
        }
        for text in [#"{"vp_token":{"\#(id)":["AA=="]}}"#, #"{"vp_token":{"\#(id)":["not base64!"]}}"#] {
            #expect(throws: OpenID4VPTests.code(.malformedResponse)) { try state.open(try OpenID4VPResponse(received: Array(text.utf8)), at: Self.now) }
        }
        for text in [#"{"vp_token":{"\#(id)":[]}}"#, #"{"vp_token":{"\#(id)":"AA"}}"#, #"{"vp_token":["AA"]}"#, #"{"state":"x"}"#,
                     #"{"vp_token":{"\#(id)":["AA"]},"response":"x"}"#, "vp_token=%7", "vp_token=1&vp_token=2", "vp_token=%7B"] {
            #expect(throws: OpenID4VPTests.code(.malformedResponse), "\(text)") { try OpenID4VPResponse(received: Array(text.utf8)) }
        }
        // Presentations for one id: at the limit read (and refused as more than one), one over the limit malformed.
        let presentations = { (count: Int) in
            Array(#"{"vp_token":{"\#(id)":[\#(Array(repeating: #""AA""#, count: count).joined(separator: ","))]}}"#.utf8)
        }
        #expect(throws: OpenID4VPTests.code(.vpTokenMismatch)) {
            try state.open(try OpenID4VPResponse(received: presentations(OpenID4VPLimits.maximumPresentationCount)), at: Self.now)
        }
        #expect(throws: OpenID4VPTests.code(.malformedResponse)) {
            try OpenID4VPResponse(received: presentations(OpenID4VPLimits.maximumPresentationCount + 1))
        }
        // Members of the vp_token: at the limit read, one over refused.
        let members = { (count: Int) in
            Array(#"{"vp_token":{\#((0..<count).map { #""q\#($0)":["AA"]"# }.joined(separator: ","))}}"#.utf8)
        }
        #expect(throws: OpenID4VPTests.code(.vpTokenMismatch)) {
            try state.open(try OpenID4VPResponse(received: members(OpenID4VPLimits.maximumCredentialQueryCount)), at: Self.now)
        }
        #expect(throws: OpenID4VPTests.code(.malformedResponse)) { try OpenID4VPResponse(received: members(OpenID4VPLimits.maximumCredentialQueryCount + 1)) }
        // The form of direct_post reads as the JSON does; other members are ignored.
        let form = "state=abc&vp_token=%7B%22\(id)%22%3A%5B%22AA%22%5D%7D"
        #expect(try state.open(try OpenID4VPResponse(received: Array(form.utf8)), at: Self.now).map(\.deviceResponse) == [[0]])
    }

    @Test("A response of the other kind than the mode asked for is refused; after the expiry too")
    func modeAndExpiry() throws {
        let (_, plain) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .directPost, verifier: Self.client, now: Self.now, validity: .seconds(30))
        let (_, encrypted) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .directPostJWT, verifier: Self.client, now: Self.now)
        let token = OpenID4VPResponse.vpToken(VPToken(deviceResponses: [(plain.credentialIDs[0], [0])]))
        #expect(throws: OpenID4VPTests.code(.responseModeMismatch)) { try encrypted.open(token, at: Self.now) }
        #expect(throws: OpenID4VPTests.code(.responseModeMismatch)) { try plain.open(.encrypted("a.b.c.d.e"), at: Self.now) }
        #expect(try plain.open(token, at: plain.expires).count == 1)
        #expect(throws: OpenID4VPTests.code(.requestExpired)) { try plain.open(token, at: plain.expires.addingTimeInterval(1)) }
    }

    /// A request object with `members` replaced or added (`nil` removes one).
    private static func request(_ mode: OpenID4VPResponseMode, _ changes: [(String, JSONValue?)]) throws -> [UInt8] {
        let (request, _) = try OpenID4VPRequestState.make(try query(), responseMode: mode, verifier: verifier(for: mode), now: now)
        guard case .object(var members) = request.json else { return [] }
        for (name, value) in changes {
            members.removeAll { $0.0 == name }
            if let value { members.append((name, value)) }
        }
        return json(.object(members))
    }

    @Test("An unsigned direct_post request's client_id: redirect_uri: of its response_uri or no known prefix; never a prefix that needs a signature")
    func unsignedClientIdentifiers() throws {
        let responseURI = "https://verifier.example/post"
        let accepted = ["redirect_uri:\(responseURI)", "verifier.example", "https://verifier.example"]
        let refused = [
            "redirect_uri:https://verifier.example/other", "redirect_uri:", "x509_san_dns:verifier.example", "x509_hash:Uvo3HtuIxuhC92rShpgqcT3YXwrqRxWEviRiA0OZszk",
            "decentralized_identifier:did:example:123", "verifier_attestation:verifier.example", "openid_federation:https://verifier.example",
            "origin:https://verifier.example",
        ]
        for mode in [OpenID4VPResponseMode.directPost, .directPostJWT] {
            for clientID in accepted {
                let (request, _) = try OpenID4VPRequestState.make(
                    try Self.query(), responseMode: mode, verifier: .client(id: clientID, responseURI: responseURI), now: Self.now)
                #expect(try OpenID4VPRequest(json: Self.json(request.json)).clientID == clientID)
            }
            for clientID in refused {
                // The verifier does not make such a request ...
                #expect(throws: Self.code(.malformedRequest), "\(clientID)") {
                    try OpenID4VPRequestState.make(
                        try Self.query(), responseMode: mode, verifier: .client(id: clientID, responseURI: responseURI), now: Self.now)
                }
                // ... and the wallet does not answer one.
                #expect(throws: Self.code(.malformedRequest), "\(clientID)") {
                    try OpenID4VPRequest(json: try Self.request(mode, [("client_id", .string(clientID))]))
                }
            }
        }
    }

    @Test("Requests the wallet refuses: signed, with transaction data, another response type or mode, a bad nonce, no response_uri")
    func refusedRequests() throws {
        let unsupported: [(OpenID4VPResponseMode, [(String, JSONValue?)])] = [
            (.digitalCredentialsAPI, [("request", .string("eyJ..."))]),
            (.directPost, [("transaction_data", .array([.string("e30")]))]),
            (.digitalCredentialsAPI, [("dcql_query", .object([("credentials", .array([.object([
                ("id", .string("a")), ("format", .string("dc+sd-jwt")), ("meta", .object([])),
            ])]))]))]),
            (.digitalCredentialsAPI, [("dcql_query", .object([
                ("credentials", .array([.object([("id", .string("a")), ("format", .string("mso_mdoc")), ("meta", .object([("doctype_value", .string("d"))])),
                                                 ("claims", .array([.object([("path", .array([.string("n"), .string("e")]))])]))])])),
                ("credential_sets", .array([])),
            ]))]),
            (.directPostJWT, [("client_metadata", .object([
                ("jwks", .object([("keys", .array([.object([("kty", .string("OKP")), ("crv", .string("X25519")), ("alg", .string("ECDH-ES")), ("kid", .string("1"))])]))])),
            ]))]),
        ]
        for (mode, changes) in unsupported {
            #expect(throws: OpenID4VPTests.code(.unsupportedRequest)) { try OpenID4VPRequest(json: Self.request(mode, changes)) }
        }
        let malformed: [(OpenID4VPResponseMode, [(String, JSONValue?)])] = [
            (.digitalCredentialsAPI, [("response_type", .string("code"))]),
            (.digitalCredentialsAPI, [("response_mode", .string("fragment"))]),
            (.digitalCredentialsAPI, [("nonce", .string("a nonce with spaces"))]),
            (.digitalCredentialsAPI, [("nonce", .string(""))]),
            (.digitalCredentialsAPI, [("nonce", .string(String(repeating: "n", count: OpenID4VPLimits.maximumNonceLength + 1)))]),
            (.digitalCredentialsAPI, [("dcql_query", nil)]),
            (.directPost, [("response_uri", nil)]),
            (.directPost, [("client_id", nil)]),
            (.directPost, [("redirect_uri", .string("https://verifier.example/cb"))]),
            (.digitalCredentialsAPIJWT, [("client_metadata", nil)]),
        ]
        for (mode, changes) in malformed {
            #expect(throws: OpenID4VPTests.code(.malformedRequest), "\(changes.map(\.0))") { try OpenID4VPRequest(json: Self.request(mode, changes)) }
        }
        let longest = String(repeating: "n", count: OpenID4VPLimits.maximumNonceLength)
        #expect(try OpenID4VPRequest(json: Self.request(.digitalCredentialsAPI, [("nonce", .string(longest))])).nonce == longest)
        // An unsigned DC API request's client_id is ignored (Appendix A.2).
        #expect(try OpenID4VPRequest(json: Self.request(.digitalCredentialsAPI, [("client_id", .string("x509_san_dns:a"))])).clientID == nil)
    }

    @Test("The request object at its byte limit is read, one byte over refused; deeper than its depth limit refused")
    func requestLimits() throws {
        let text = try Self.request(.digitalCredentialsAPI, [])
        let padded = { (count: Int) in text + [UInt8](repeating: 0x20, count: count - text.count) }
        #expect(try OpenID4VPRequest(json: padded(OpenID4VPLimits.maximumRequestByteCount)).responseMode == .digitalCredentialsAPI)
        #expect(throws: OpenID4VPTests.code(.inputTooLarge)) { try OpenID4VPRequest(json: padded(OpenID4VPLimits.maximumRequestByteCount + 1)) }
        var deep = JSONValue.string("x")
        for _ in 0..<OpenID4VPLimits.maximumRequestDepth { deep = .array([deep]) }
        #expect(throws: OpenID4VPTests.code(.malformedRequest)) { try OpenID4VPRequest(json: Self.request(.digitalCredentialsAPI, [("extra", deep)])) }
    }

    @Test("DCQL: ids of 1 to 64 allowed characters, 1 to 16 Credential Queries, distinct ids; ids made from doc types")
    func dcqlLimits() throws {
        let claim = [DCQLClaimQuery(nameSpace: "n", elementIdentifier: "e", intentToRetain: nil)]
        let longest = String(repeating: "a", count: OpenID4VPLimits.maximumCredentialIDLength)
        #expect(try DCQLCredentialQuery(id: longest, docType: "d", claims: claim).id == longest)
        for id in [longest + "a", "", "a.b", "a b", "é"] {
            #expect(throws: OpenID4VPTests.code(.malformedRequest)) { try DCQLCredentialQuery(id: id, docType: "d", claims: claim) }
        }
        #expect(throws: OpenID4VPTests.code(.malformedRequest)) { try DCQLCredentialQuery(id: "a", docType: "d", claims: []) }
        let queries = { (count: Int) throws in try (0..<count).map { try DCQLCredentialQuery(id: "q\($0)", docType: "d", claims: claim) } }
        #expect(try DCQLQuery(credentials: queries(OpenID4VPLimits.maximumCredentialQueryCount)).credentials.count == OpenID4VPLimits.maximumCredentialQueryCount)
        #expect(throws: OpenID4VPTests.code(.malformedRequest)) { try DCQLQuery(credentials: queries(OpenID4VPLimits.maximumCredentialQueryCount + 1)) }
        #expect(throws: OpenID4VPTests.code(.malformedRequest)) { try DCQLQuery(credentials: queries(0)) }
        let twice = try queries(1)
        #expect(throws: OpenID4VPTests.code(.malformedRequest)) { try DCQLQuery(credentials: twice + twice) }
        let spec = DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["age_over_18": false]])
        #expect(try DCQLQuery(specs: [spec, spec]).ids == ["org_iso_18013_5_1_mDL", "org_iso_18013_5_1_mDL-2"])
    }

    /// `state`'s JSON with the member `name` set to `value` (`nil` removes it).
    private static func edited(_ state: OpenID4VPRequestState, _ name: String, _ value: JSONValue?) -> [UInt8] {
        guard case .object(var members) = state.json else { return [] }
        members.removeAll { $0.0 == name }
        if let value { members.append((name, value)) }
        return json(.object(members))
    }

    @Test("A state without its key, with a key in a plain mode, an origin for direct_post, or a bad expiry is tampered; other damage malformed")
    func tamperedState() throws {
        let (_, encrypted) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .digitalCredentialsAPIJWT, verifier: .origin(Self.origin), now: Self.now)
        let (_, plain) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .directPost, verifier: Self.client, now: Self.now)
        let tampered: [[UInt8]] = [
            Self.edited(encrypted, "recipientPrivateKey", nil),
            Self.edited(encrypted, "responseMode", .string("dc_api")),
            Self.edited(plain, "responseMode", .string("dc_api")),
            Self.edited(plain, "origin", .string(Self.origin)),
            Self.edited(plain, "credentialIds", .array([.string("a"), .string("a")])),
            Self.edited(plain, "expires", .string(TDate(plain.created.addingTimeInterval(-1)).text)),
        ]
        for text in tampered {
            #expect(throws: OpenID4VPTests.code(.stateTampered)) { try OpenID4VPRequestState(json: text) }
        }
        let malformed: [[UInt8]] = [
            Self.edited(plain, "format", .string("swift-mdoc ISO/IEC TS 18013-7 Annex C request state")),
            Self.edited(plain, "responseMode", .string("query")),
            Self.edited(plain, "created", .string("yesterday")),
            Self.edited(encrypted, "recipientPrivateKey", .string("AAAA")),
            Self.edited(encrypted, "encryptions", .array([.string("A128CBC-HS256")])),
            Self.edited(plain, "nonce", .string("no spaces allowed")),
        ]
        for text in malformed {
            #expect(throws: OnlineError.self) { try OpenID4VPRequestState(json: text) }
        }
        #expect(throws: OpenID4VPTests.code(.malformedState)) { try OpenID4VPRequestState(json: Self.edited(plain, "created", .string("yesterday"))) }
        let text = Self.json(encrypted.json)
        #expect(try OpenID4VPRequestState(json: text + [UInt8](repeating: 0x20, count: OpenID4VPLimits.maximumStateByteCount - text.count)).nonce == encrypted.nonce)
        #expect(throws: OpenID4VPTests.code(.inputTooLarge)) {
            try OpenID4VPRequestState(json: text + [UInt8](repeating: 0x20, count: OpenID4VPLimits.maximumStateByteCount + 1 - text.count))
        }
    }

    @Test("Making a request: the verifier must be of the mode's kind, the validity within its limits")
    func makeChecks() throws {
        #expect(throws: OpenID4VPTests.code(.malformedRequest)) {
            try OpenID4VPRequestState.make(try Self.query(), responseMode: .directPost, verifier: .origin(Self.origin), now: Self.now)
        }
        #expect(throws: OpenID4VPTests.code(.malformedRequest)) {
            try OpenID4VPRequestState.make(try Self.query(), responseMode: .digitalCredentialsAPI, verifier: Self.client, now: Self.now)
        }
        #expect(throws: OpenID4VPTests.code(.invalidOrigin)) {
            try OpenID4VPRequestState.make(try Self.query(), responseMode: .digitalCredentialsAPI, verifier: .origin("https://a/"), now: Self.now)
        }
        for validity in [DCAPILimits.minimumValidity - .seconds(1), DCAPILimits.maximumValidity + .seconds(1)] {
            #expect(throws: OpenID4VPTests.code(.malformedState)) {
                try OpenID4VPRequestState.make(try Self.query(), responseMode: .directPost, verifier: Self.client, now: Self.now, validity: validity)
            }
        }
        for validity in [DCAPILimits.minimumValidity, DCAPILimits.maximumValidity] {
            let (_, state) = try OpenID4VPRequestState.make(try Self.query(), responseMode: .directPost, verifier: Self.client, now: Self.now, validity: validity)
            #expect(state.expires.timeIntervalSince(state.created) == Double(validity.components.seconds))
        }
    }

    /// An error with `code` (equality compares the code only).
    private static func code(_ code: OnlineError.Code) -> OnlineError { OnlineError(code, "") }
}
