import Foundation
import MdocOnline
import OnlineVerifier
import Testing

/// OpenID4VP 1.0 through the service over real HTTP with the memory store, answered by the real
/// wallet program (`mdoc-holder respond`) in each response mode.
@Suite("online verifier over HTTP, OpenID4VP 1.0")
struct OpenID4VPServiceTests {
    static let origin = "https://verifier.example"
    static let publicURL = "https://verifier.example/mdoc"

    @Test("a request answered by the wallet verifies in each response mode, bound to its origin or client, and only once",
          arguments: OpenID4VPResponseMode.allCases)
    func verifiedOnce(mode: OpenID4VPResponseMode) async throws {
        try await RunningVerifier.with(store: .memory, publicURL: Self.publicURL) { verifier in
            let throughBrowser = mode.usesDigitalCredentialsAPI
            var body: [String: Any] = ["protocol": "openid4vp", "responseMode": mode.rawValue]
            if throughBrowser { body["origin"] = Self.origin }
            let (id, request, made) = try await verifier.makeRequest(body)
            let sent = try OpenID4VPRequest(json: request)
            #expect(sent.responseMode == mode)
            #expect((sent.encryptionKey != nil) == mode.isEncrypted)
            let responseURI = "\(Self.publicURL)/requests/\(id)/response"
            if throughBrowser {
                #expect(made["protocol"] as? String == "openid4vp-v1-unsigned")
                #expect(sent.clientID == nil)
                #expect(made["uri"] == nil)
            } else {
                #expect(made["protocol"] as? String == "openid4vp")
                #expect(sent.clientID == "redirect_uri:\(responseURI)")
                #expect(sent.responseURI == responseURI)
                let uri = try #require(made["uri"] as? String)
                #expect(uri.hasPrefix("openid4vp://?"))
                let query = try #require(URLComponents(string: uri)?.queryItems)
                #expect(query.first { $0.name == "client_id" }?.value == sent.clientID)
                #expect(query.first { $0.name == "nonce" }?.value == sent.nonce)
                let dcql = try #require(query.first { $0.name == "dcql_query" }?.value)
                let requestObject = try #require(try JSONSerialization.jsonObject(with: Data(request)) as? [String: Any])
                let sentQuery = try #require(requestObject["dcql_query"] as? NSDictionary)
                #expect(try JSONSerialization.jsonObject(with: Data(dcql.utf8)) as? NSDictionary == sentQuery)
            }

            let response = try Holder.respond(to: request, origin: throughBrowser ? Self.origin : nil)
            let answer = try await verifier.post("/requests/\(id)/response", response)
            #expect(answer.status == 200)
            let report = try #require(answer.json)
            #expect(report["outcome"] as? String == "verified")
            let online = try #require(report["online"] as? [String: Any])
            #expect(online["protocol"] as? String == (throughBrowser ? "openid4vp-dcapi" : "openid4vp"))
            #expect(online["responseMode"] as? String == mode.rawValue)
            #expect(online["nonce"] as? String == sent.nonce)
            #expect(online["origin"] as? String == (throughBrowser ? Self.origin : nil))
            #expect(online["clientId"] as? String == sent.clientID)
            #expect(online["responseUri"] as? String == sent.responseURI)
            #expect(online["jwkThumbprint"] as? String == sent.encryptionKey?.keyID)
            #expect(online["credentialId"] as? String == sent.dcqlQuery.credentials.first?.id)
            let document = try #require((report["documents"] as? [[String: Any]])?.first)
            let nameSpaces = try #require(document["nameSpaces"] as? [String: [String: Any]])
            #expect(nameSpaces["org.iso.18013.5.1"]?["age_over_18"] as? Bool == true)
            #expect(nameSpaces["org.iso.18013.5.1"]?["family_name"] != nil)

            let replay = try await verifier.post("/requests/\(id)/response", response)
            #expect(replay.status == 404)
            #expect(replay.error == "requestNotPending")
        }
    }

    @Test("an answer signed for another origin decrypts, but its device authentication fails and no element is verified")
    func anotherOrigin() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let (id, request, _) = try await verifier.makeRequest(["protocol": "openid4vp", "responseMode": "dc_api.jwt", "origin": Self.origin])
            let phished = try Holder.respond(to: request, origin: "https://verifier.example.attacker.example")
            let answer = try await verifier.post("/requests/\(id)/response", phished)
            #expect(answer.status == 200)
            let report = try #require(answer.json)
            #expect(report["outcome"] as? String == "deviceAuthenticationFailed")
            let document = try #require((report["documents"] as? [[String: Any]])?.first)
            #expect((document["nameSpaces"] as? [String: Any])?.isEmpty == true)
            let elements = try #require(document["elements"] as? [[String: Any]])
            #expect(!elements.isEmpty && elements.allSatisfy { $0["verified"] as? Bool == false })
        }
    }

    @Test("an answer to another request's key is refused with 422 and spends the request")
    func anotherRequestsKey() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let body: [String: Any] = ["protocol": "openid4vp", "responseMode": "dc_api.jwt", "origin": Self.origin]
            let (id, request, _) = try await verifier.makeRequest(body)
            let (_, other, _) = try await verifier.makeRequest(body)
            let misdirected = try await verifier.post("/requests/\(id)/response", try Holder.respond(to: other, origin: Self.origin))
            #expect(misdirected.status == 422)
            #expect(misdirected.error == "responseNotBound")
            let genuine = try await verifier.post("/requests/\(id)/response", try Holder.respond(to: request, origin: Self.origin))
            #expect(genuine.error == "requestNotPending")
        }
    }

    @Test("an answer of the other protocol is refused with 422 and spends the request")
    func otherProtocol() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let annexC = try await verifier.makeRequest(origin: Self.origin)
            let openID4VP = try await verifier.makeRequest(["protocol": "openid4vp", "responseMode": "dc_api.jwt", "origin": Self.origin])
            let annexCAnswer = try Holder.respond(to: annexC.request, origin: Self.origin)
            let openID4VPAnswer = try Holder.respond(to: openID4VP.request, origin: Self.origin)

            let crossed = try await verifier.post("/requests/\(annexC.id)/response", openID4VPAnswer)
            #expect(crossed.status == 422)
            #expect(crossed.error == "wrongProtocol")
            let crossedBack = try await verifier.post("/requests/\(openID4VP.id)/response", annexCAnswer)
            #expect(crossedBack.status == 422)
            #expect(crossedBack.error == "wrongProtocol")
            #expect(try await verifier.post("/requests/\(annexC.id)/response", annexCAnswer).error == "requestNotPending")
        }
    }

    @Test("a body that is no answer of either protocol is refused with 400 and spends nothing")
    func noAnswer() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let (id, request, _) = try await verifier.makeRequest(["protocol": "openid4vp", "responseMode": "dc_api.jwt", "origin": Self.origin])
            for body in [#"{"response": "AAAA"}"#, #"{"response": "a.b.c.d"}"#, "vp_token=%7B", "{}"] {
                let refused = try await verifier.post("/requests/\(id)/response", Array(body.utf8))
                #expect(refused.status == 400, "\(body)")
                #expect(refused.error == "malformedResponse", "\(body)")
            }
            let answer = try await verifier.post("/requests/\(id)/response", try Holder.respond(to: request, origin: Self.origin))
            #expect(answer.json?["outcome"] as? String == "verified")
        }
    }

    @Test("request bodies: a protocol, response mode or origin that does not fit is refused with 400")
    func creationRefusals() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let elements: [String: Any] = ["docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["age_over_18"]]]
            let refusals: [([String: Any], String, String)] = [
                (["protocol": "openid4vp-v1-signed", "origin": Self.origin], "malformedBody", "\"protocol\""),
                (["protocol": "openid4vp", "responseMode": "fragment", "origin": Self.origin], "malformedBody", "\"responseMode\""),
                (["responseMode": "dc_api", "origin": Self.origin], "malformedBody", "\"responseMode\""),
                (["protocol": "openid4vp", "responseMode": "dc_api"], "malformedBody", "\"origin\""),
                (["protocol": "openid4vp", "responseMode": "direct_post", "origin": Self.origin], "malformedBody", "\"origin\""),
                (["protocol": "openid4vp", "responseMode": "dc_api", "origin": "https://verifier.example/page"], "invalidOrigin", "\"origin\""),
                // This verifier has no public URL, so no response_uri to post to.
                (["protocol": "openid4vp", "responseMode": "direct_post.jwt"], "responseModeUnavailable", "--public-url"),
            ]
            for (members, code, mentioned) in refusals {
                let answer = try await verifier.post("/requests", json: members.merging(elements) { first, _ in first })
                #expect(answer.status == 400, "\(members)")
                #expect(answer.error == code, "\(members)")
                #expect((answer.json?["reason"] as? String)?.contains(mentioned) == true, "\(members): \(answer.json?["reason"] ?? "")")
            }
        }
    }

    @Test("public URLs: an http(s) URL with a host, trailing slashes removed; anything else refused")
    func publicURLs() {
        #expect(VerifierServer.publicURL("https://verifier.example") == "https://verifier.example")
        #expect(VerifierServer.publicURL("https://verifier.example/") == "https://verifier.example")
        #expect(VerifierServer.publicURL("http://127.0.0.1:8080/mdoc//") == "http://127.0.0.1:8080/mdoc")
        for refused in ["ftp://verifier.example", "https://", "https:///path", "https://verifier.example?x=1", "https://verifier.example/#f",
                        "https://verifier example", "verifier.example", "https://verifier.example/\u{7F}"] {
            #expect(VerifierServer.publicURL(refused) == nil, "\(refused)")
        }
    }
}
