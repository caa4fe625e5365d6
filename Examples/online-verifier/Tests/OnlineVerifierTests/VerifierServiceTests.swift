import Foundation
import MdocCBOR
import MdocModel
import MdocOnline
import MdocSession
import OnlineVerifier
import Testing

/// The service over real HTTP with the memory store, answered by the real wallet program
/// (`mdoc-holder respond`).
@Suite("online verifier over HTTP, memory store")
struct VerifierServiceTests {
    static let origin = "https://verifier.example"

    @Test("a request answered by the wallet verifies, with its origin and nonce, and only once")
    func verifiedOnce() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let (id, request) = try await verifier.makeRequest(origin: Self.origin)
            let response = try Holder.respond(to: request, origin: Self.origin)

            let answer = try await verifier.post("/requests/\(id)/response", response)
            #expect(answer.status == 200)
            let report = try #require(answer.json)
            #expect(report["type"] as? String == "verificationReport")
            #expect(report["outcome"] as? String == "verified")
            let online = try #require(report["online"] as? [String: Any])
            #expect(online["protocol"] as? String == "org-iso-mdoc")
            #expect(online["origin"] as? String == Self.origin)
            let sent = try DCAPIRequest(json: request)
            #expect(online["encryptionInfo"] as? String == sent.encryptionInfoText)
            #expect(online["nonce"] as? String == Base64URL.encode(sent.encryptionInfo.nonce))
            let document = try #require((report["documents"] as? [[String: Any]])?.first)
            let elements = try #require(document["elements"] as? [[String: Any]])
            #expect(Set(elements.compactMap { $0["identifier"] as? String }) == ["family_name", "age_over_18"])
            #expect(elements.allSatisfy { $0["verified"] as? Bool == true })
            let nameSpaces = try #require(document["nameSpaces"] as? [String: [String: Any]])
            #expect(nameSpaces["org.iso.18013.5.1"]?["age_over_18"] as? Bool == true)

            let replay = try await verifier.post("/requests/\(id)/response", response)
            #expect(replay.status == 404)
            #expect(replay.error == "requestNotPending")
        }
    }

    @Test("with a reader key, each DocRequest is signed over the request's own SessionTranscript")
    func readerAuthentication() async throws {
        try await RunningVerifier.with(store: .memory, readerAuthentication: try Repository.demoReader) { verifier in
            let (id, request) = try await verifier.makeRequest(origin: Self.origin)
            let sent = try DCAPIRequest(json: request)
            let checker = DeviceRequestVerifier(trustAnchors: try Repository.demoReaderRoot)
            #expect(checker.verify(sent.deviceRequest, sessionTranscript: sent.sessionTranscript(origin: Self.origin), at: Date()).outcome == .authenticated)
            #expect(checker.verify(sent.deviceRequest, sessionTranscript: sent.sessionTranscript(origin: "https://other.example"), at: Date()).outcome == .failed)
            let response = try Holder.respond(to: request, origin: Self.origin)
            #expect(try await verifier.post("/requests/\(id)/response", response).json?["outcome"] as? String == "verified")
        }
    }

    @Test("an answer made for another origin does not open, and spends the request")
    func anotherOrigin() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let (id, request) = try await verifier.makeRequest(origin: Self.origin)
            let phished = try Holder.respond(to: request, origin: "https://verifier.example.attacker.example")
            let answer = try await verifier.post("/requests/\(id)/response", phished)
            #expect(answer.status == 422)
            #expect(answer.error == "responseNotBound")
            #expect(answer.json?["outcome"] == nil)

            let genuine = try Holder.respond(to: request, origin: Self.origin)
            #expect(try await verifier.post("/requests/\(id)/response", genuine).error == "requestNotPending")
        }
    }

    @Test("a DeviceResponse signed for another request, sealed to this one: device authentication fails, no element is verified")
    func deviceResponseOfAnotherRequest() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            // The wallet answers a request the test made and holds the state of ...
            let spec = DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["family_name": false, "age_over_18": false]])
            let other = try DCAPIRequestState.make([spec], origin: Self.origin, readerAuthentication: nil, now: Date())
            let otherAnswer = try Holder.respond(to: Array(other.request.json.serialized().utf8), origin: Self.origin)
            let signedForOther = try other.state.open(try EncryptedResponse(json: otherAnswer), at: Date())
            // ... and its DeviceResponse, signed over that request's transcript, is sealed to
            // the service's request: it opens there, but its DeviceSignature does not verify.
            let (id, request) = try await verifier.makeRequest(origin: Self.origin)
            let sealed = try DCAPIRequest(json: request).seal(signedForOther, origin: Self.origin)
            let answer = try await verifier.post("/requests/\(id)/response", Array(sealed.json.serialized().utf8))
            #expect(answer.status == 200)
            let report = try #require(answer.json)
            #expect(report["outcome"] as? String == "deviceAuthenticationFailed")
            let document = try #require((report["documents"] as? [[String: Any]])?.first)
            let elements = try #require(document["elements"] as? [[String: Any]])
            #expect(!elements.isEmpty)
            #expect(elements.allSatisfy { $0["issuerAuthenticated"] as? Bool == true && $0["verified"] as? Bool == false })
            #expect((document["nameSpaces"] as? [String: Any])?.isEmpty == true)
        }
    }

    @Test("an answer after the request's expiry is refused with 410; one before its expiry verifies")
    func expiry() async throws {
        let clock = TestClock()
        try await RunningVerifier.with(store: .memory, clock: clock) { verifier in
            let late = try await verifier.makeRequest(origin: Self.origin, validity: 10)
            let onTime = try await verifier.makeRequest(origin: Self.origin, validity: 60)
            let lateResponse = try Holder.respond(to: late.request, origin: Self.origin)
            let onTimeResponse = try Holder.respond(to: onTime.request, origin: Self.origin)
            clock.advance(by: 11)

            let refused = try await verifier.post("/requests/\(late.id)/response", lateResponse)
            #expect(refused.status == 410)
            #expect(refused.error == "requestExpired")
            let accepted = try await verifier.post("/requests/\(onTime.id)/response", onTimeResponse)
            #expect(accepted.status == 200)
            #expect(accepted.json?["outcome"] as? String == "verified")
        }
    }

    @Test("validity: 1 and 86400 seconds are taken, 0 and 86401 refused with 400")
    func validityLimits() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let minimum = DCAPILimits.minimumValidity.components.seconds
            let maximum = DCAPILimits.maximumValidity.components.seconds
            for (validity, status) in [(minimum, 201), (maximum, 201), (minimum - 1, 400), (maximum + 1, 400)] {
                let answer = try await verifier.post("/requests", json: [
                    "origin": Self.origin, "docType": "org.iso.18013.5.1.mDL", "elements": ["org.iso.18013.5.1": ["age_over_18"]],
                    "validity": validity,
                ] as [String: Any])
                #expect(answer.status == status, "validity \(validity)")
                if status == 400 { #expect(answer.error == "invalidValidity") }
            }
        }
    }

    @Test("bodies: one byte over the limit is refused with 413, one at the limit is read")
    func bodyLimits() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let creation = Array(#"{"origin": "https://verifier.example", "docType": "org.iso.18013.5.1.mDL", "elements": {"org.iso.18013.5.1": ["age_over_18"]}}"#.utf8)
            let padded = creation + Array(repeating: UInt8(ascii: " "), count: ServiceLimits.maximumCreationByteCount - creation.count)
            #expect(try await verifier.post("/requests", padded).status == 201)
            let over = try await verifier.post("/requests", padded + [UInt8(ascii: " ")])
            #expect(over.status == 413)
            #expect(over.error == "bodyTooLarge")

            let (id, _) = try await verifier.makeRequest(origin: Self.origin)
            let atLimit = Array(repeating: UInt8(ascii: " "), count: ServiceLimits.maximumResponseByteCount)
            let read = try await verifier.post("/requests/\(id)/response", atLimit)
            #expect(read.status == 400)
            #expect(read.error == "malformedResponse")
            let tooLong = try await verifier.post("/requests/\(id)/response", atLimit + [UInt8(ascii: " ")])
            #expect(tooLong.status == 413)
        }
    }

    @Test("malformed input is refused with 400 naming what is wrong, and spends no request")
    func malformed() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let notJSON = try await verifier.post("/requests", Array("{\"origin\": ".utf8))
            #expect(notJSON.status == 400)
            #expect(notJSON.error == "malformedBody")
            let noDocType = try await verifier.post("/requests", json: ["origin": Self.origin, "elements": ["ns": ["e"]]])
            #expect(noDocType.status == 400)
            #expect((noDocType.json?["reason"] as? String)?.contains("\"docType\"") == true)
            let wrongType = try await verifier.post("/requests", json: ["origin": Self.origin, "docType": "d", "elements": ["ns": "e"]])
            #expect((wrongType.json?["reason"] as? String)?.contains("elements.ns") == true)
            let noElement = try await verifier.post("/requests", json: ["origin": Self.origin, "docType": "d", "elements": ["ns": [String]()]])
            #expect(noElement.error == "malformedBody")
            let badOrigin = try await verifier.post("/requests", json: ["origin": "https://verifier.example/", "docType": "d", "elements": ["ns": ["e"]]])
            #expect(badOrigin.status == 400)
            #expect(badOrigin.error == "invalidOrigin")
            #expect(try await verifier.post("/requests/not-an-id/response", Array("{}".utf8)).error == "malformedID")
            let unknown = RequestID.random().text
            for id in [String(unknown.dropLast()), unknown + "A"] {
                #expect(try await verifier.post("/requests/\(id)/response", Array("{}".utf8)).error == "malformedID", "\(id)")
            }

            let (id, request) = try await verifier.makeRequest(origin: Self.origin)
            let garbage = try await verifier.post("/requests/\(id)/response", Array(#"{"response": "AAAA"}"#.utf8))
            #expect(garbage.status == 400)
            #expect(garbage.error == "malformedResponse")
            let response = try Holder.respond(to: request, origin: Self.origin)
            let notPending = try await verifier.post("/requests/\(unknown)/response", response)
            #expect(notPending.status == 404)
            #expect(notPending.error == "requestNotPending")
            #expect(try await verifier.post("/requests/\(id)/response", response).status == 200)
        }
    }

    @Test("GET / is the static page calling navigator.credentials.get")
    func page() async throws {
        try await RunningVerifier.with(store: .memory) { verifier in
            let (answer, contentType) = try await verifier.get("/")
            #expect(answer.status == 200)
            #expect(contentType == "text/html; charset=utf-8")
            let html = String(decoding: answer.body, as: UTF8.self)
            #expect(html.contains("navigator.credentials.get"))
            #expect(html.contains("protocol: \"org-iso-mdoc\""))
            #expect(!html.contains("innerHTML"))
        }
    }
}
