import Foundation
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocOnline
import MdocSession
import MdocStores
import MdocTestSupport
import Testing

/// Online presentation through the programs (ISO/IEC TS 18013-7 Annex C): `mdoc-reader
/// online-request` makes a request and its state, `mdoc-holder respond` answers it as a wallet
/// with the holder's consent, `mdoc-reader verify --online-state` verifies the answer; and
/// `verify --handover` verifies a DeviceResponse someone else requested. The cases that must
/// fail end with the exit codes the help documents.
@Suite struct OnlineCommandTests {
    static let origin = "https://verifier.example"
    static let trust = ["--trust", "Certs/demo/iaca.pem"]
    static let readerAuthentication = ["--reader-cert", "Certs/demo/reader.pem", "--reader-key", "Certs/demo/reader-key.pem"]

    /// The files of one request in `run`'s home.
    struct Files {
        let state: String
        let request: String
        let response: String

        init(_ run: IsolatedRun, _ name: String = "") {
            state = run.home + "/state\(name).json"
            request = run.home + "/request\(name).json"
            response = run.home + "/response\(name).json"
        }
    }

    /// `online-request` for the demo mDL's age_over_18 and family_name, signed by the demo reader.
    static func makeRequest(_ run: IsolatedRun, _ files: Files, extra: [String] = []) async throws {
        let made = try await run.run("mdoc-reader", [
            "online-request", "--origin", origin, "--doctype", "mdl", "--elements", "age_over_18,family_name",
            "--state", files.state, "--out", files.request,
        ] + readerAuthentication + extra)
        #expect(made.status == 0, "\(made.standardError)")
    }

    /// `respond` to the request of `files` from `origin` with the demo mDL; `input` answers the prompt.
    static func respond(
        _ run: IsolatedRun, _ files: Files, origin: String = origin, input: String? = nil, consent: [String] = ["--yes"]
    ) async throws -> ProgramRunner.Result {
        try await run.run("mdoc-holder", [
            "respond", "--request", files.request, "--origin", origin, "--credential", "Certs/demo/mdl.mdoc",
            "--trust-readers", "Certs/demo/reader-root.pem", "--out", files.response,
        ] + consent, input: input)
    }

    @Test func aRequestAnsweredWithConsentVerifiesWithItsOriginAndNonce() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let files = Files(run)
        try await Self.makeRequest(run, files)
        let mode = { (path: String) in ((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue }
        #expect(try mode(files.state) == 0o600)
        #expect(try mode(files.request) == 0o644)
        let state = try DCAPIRequestState(json: Array(try Data(contentsOf: URL(fileURLWithPath: files.state))))

        // The holder approves everything at the prompt ("a").
        let answered = try await Self.respond(run, files, input: "a\n", consent: [])
        #expect(answered.status == 0, "\(answered.standardError)")
        #expect(answered.standardOutput.contains("An org-iso-mdoc request from https://verifier.example"))
        #expect(answered.standardOutput.contains("Reader: trusted: C=US, CN=swift-mdoc Demo Reader"))
        #expect(answered.standardError.contains("sending 2 approved elements"))

        let verified = try await run.run("mdoc-reader", ["verify", "--online-state", files.state, files.response] + Self.trust)
        #expect(verified.status == 0, "\(verified.standardOutput)\n\(verified.standardError)")
        let nonce = Base64URL.encode(state.encryptionInfo.nonce)
        #expect(verified.standardOutput.contains("Online:      ISO/IEC TS 18013-7 Annex C, org-iso-mdoc"))
        #expect(verified.standardOutput.contains("origin             https://verifier.example"))
        #expect(verified.standardOutput.contains("nonce              \(nonce)"))
        #expect(verified.standardOutput.contains("Device auth: DeviceSignature"))
        #expect(verified.standardOutput.contains("age_over_18"))

        let json = try await run.run("mdoc-reader", ["verify", "--online-state", files.state, files.response, "--json"] + Self.trust)
        #expect(json.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(report["outcome"] as? String == "verified")
        let online = try #require(report["online"] as? [String: Any])
        #expect(online["protocol"] as? String == "org-iso-mdoc")
        #expect(online["origin"] as? String == Self.origin)
        #expect(online["nonce"] as? String == nonce)
        #expect(JSONReportTests.problems(report, at: "verificationReport", try JSONReportTests.schema()).isEmpty)

        // The state's private key is in no output of any of the programs.
        let privateKey = try #require(String(data: try Data(contentsOf: URL(fileURLWithPath: files.state)), encoding: .utf8)?
            .split(separator: "\"").drop { $0 != "recipientPrivateKey" }.dropFirst(2).first)
        for result in [answered, verified, json] {
            #expect(!(result.standardOutput + result.standardError).contains(privateKey))
        }
    }

    @Test func anotherOriginATamperedResponseAndAReplayAfterTheExpiryEndWith11() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let files = Files(run)
        try await Self.makeRequest(run, files)

        // A wallet told another origin: the verifier of this origin cannot open its answer.
        #expect(try await Self.respond(run, files, origin: "https://phish.example").status == 0)
        let phished = try await run.run("mdoc-reader", ["verify", "--online-state", files.state, files.response] + Self.trust)
        #expect(phished.status == 11, "\(phished.standardError)")
        #expect(phished.standardError.contains("responseDecryptionFailed"))
        #expect(phished.standardError.contains("origin https://verifier.example"))

        // One bit of the cipherText changed.
        try FileManager.default.removeItem(atPath: files.response)
        #expect(try await Self.respond(run, files).status == 0)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: files.response))) as? [String: String])
        let text = try #require(object["response"])
        var bytes = try #require(Base64URL.decode(text))
        bytes[bytes.count - 3] ^= 1
        object["response"] = Base64URL.encode(bytes)
        let tampered = run.home + "/tampered.json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: tampered))
        let altered = try await run.run("mdoc-reader", ["verify", "--online-state", files.state, tampered] + Self.trust)
        #expect(altered.status == 11, "\(altered.standardError)")

        // The good response, replayed one second after the request expired (verified as of then,
        // --at, rather than waited for), is refused.
        let short = Files(run, "-short")
        try await Self.makeRequest(run, short, extra: ["--expires-in", "1"])
        #expect(try await Self.respond(run, short).status == 0)
        let state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: short.state))) as? [String: Any])
        let expiresText = try #require(state["expires"] as? String)
        let expires = try #require(ISO8601DateFormatter().date(from: expiresText))
        let afterExpiry = ISO8601DateFormatter().string(from: expires.addingTimeInterval(1))
        let replayed = try await run.run(
            "mdoc-reader", ["verify", "--online-state", short.state, short.response, "--at", afterExpiry] + Self.trust)
        #expect(replayed.status == 11, "\(replayed.standardError)")
        #expect(replayed.standardError.contains("requestExpired"))

        // A response file that is no response, and a state whose nonce was changed.
        let notAResponse = try await run.run("mdoc-reader", ["verify", "--online-state", files.state, files.request] + Self.trust)
        #expect(notAResponse.status == 2, "\(notAResponse.standardError)")
        var stateObject = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: files.state))) as? [String: String])
        stateObject["nonce"] = Base64URL.encode([UInt8](repeating: 7, count: 16))
        let forged = run.home + "/forged-state.json"
        try JSONSerialization.data(withJSONObject: stateObject).write(to: URL(fileURLWithPath: forged))
        let forgedState = try await run.run("mdoc-reader", ["verify", "--online-state", forged, files.response] + Self.trust)
        #expect(forgedState.status == 7, "\(forgedState.standardError)")
        #expect(forgedState.standardError.contains("stateTampered"))
    }

    @Test func theHolderRefusesARequestThatIsNotOneAndAnOriginThatIsNotOne() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let files = Files(run)
        try await Self.makeRequest(run, files)
        let path = try await Self.respond(run, files, origin: "https://verifier.example/")
        #expect(path.status == 64)
        #expect(path.standardError.contains("a path"))
        let notARequest = try await run.run("mdoc-holder", [
            "respond", "--request", files.state, "--origin", Self.origin, "--credential", "Certs/demo/mdl.mdoc", "--yes",
            "--out", files.response,
        ])
        #expect(notARequest.status == 2, "\(notARequest.standardError)")
        #expect(!FileManager.default.fileExists(atPath: files.response))
        // Declined: the response is written, and holds no document.
        #expect(try await Self.respond(run, files, input: "n\n", consent: []).status == 0)
        let declined = try await run.run("mdoc-reader", ["verify", "--online-state", files.state, files.response] + Self.trust)
        #expect(declined.status == 6, "\(declined.standardError)")
    }

    @Test func onlineRequestRefusesABadOriginAndAnExpiryOutOfRange() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let files = Files(run)
        for (option, value) in [("--origin", "verifier.example"), ("--expires-in", "0"), ("--expires-in", "86401")] {
            var arguments = ["online-request", "--origin", Self.origin, "--state", files.state, "--out", files.request]
            if let index = arguments.firstIndex(of: option) { arguments[index + 1] = value } else { arguments += [option, value] }
            let refused = try await run.run("mdoc-reader", arguments)
            #expect(refused.status == 64, "\(option) \(value): \(refused.standardError)")
            #expect(refused.standardError.contains(option))
        }
        try await Self.makeRequest(run, files, extra: ["--expires-in", "86400"])
        let again = try await run.run("mdoc-reader", ["online-request", "--origin", Self.origin, "--state", files.state, "--out", files.request])
        #expect(again.status == 7)
        #expect(again.standardError.contains("--force"))
    }

    /// A DeviceResponse of the demo mDL's age_over_18, signed over `transcript`, in a file.
    static func demoResponse(over transcript: SessionTranscriptBinding) throws -> String {
        let credential = try CredentialFiles.load(ProgramRunner.repositoryRoot + "/Certs/demo/mdl.mdoc").credential
        var elements = OrderedMap<String, Bool>()
        elements["age_over_18"] = false
        let request = DeviceRequest(docRequests: [DocRequest(itemsRequest: EmbeddedCBOR(ItemsRequest(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: elements])))])
        let response = try ResponseBuilder().deviceResponse(
            request: request, credentials: [credential], approved: .all(requestedIn: request), sessionTranscript: transcript)
        return try ProgramRunner.temporaryFile(response.encoded(), suffix: ".cbor")
    }

    @Test func aResponseRequestedElsewhereVerifiesAgainstItsHandover() async throws {
        // OpenID4VP 1.0 over redirects, a response_uri holding a comma.
        let handover = OpenID4VPHandover(
            clientID: "x509_san_dns:verifier.example", nonce: "n-1", jwkThumbprint: nil, responseURI: "https://verifier.example/post?a=1,2")
        let file = try Self.demoResponse(over: SessionTranscriptBinding(handover.sessionTranscript))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let spec = "openid4vp:client_id=x509_san_dns:verifier.example,nonce=n-1,response_uri=https://verifier.example/post?a=1%2C2"
        let verified = try await ProgramRunner.run("mdoc-reader", ["verify", file, "--handover", spec] + Self.trust)
        #expect(verified.status == 0, "\(verified.standardOutput)\n\(verified.standardError)")
        #expect(verified.standardOutput.contains("Online:      OpenID4VP 1.0 (OpenID4VPHandover)"))
        #expect(verified.standardOutput.contains("responseUri        https://verifier.example/post?a=1,2"))
        let otherNonce = try await ProgramRunner.run(
            "mdoc-reader", ["verify", file, "--handover", spec.replacingOccurrences(of: "n-1", with: "n-2")] + Self.trust)
        #expect(otherNonce.status == 4, "\(otherNonce.standardError)")
        // The same response is not one of another protocol with the same values.
        let otherProtocol = try await ProgramRunner.run(
            "mdoc-reader", ["verify", file, "--handover", "openid4vp-dcapi:origin=https://verifier.example,nonce=n-1"] + Self.trust)
        #expect(otherProtocol.status == 4)

        // OpenID4VP over the Digital Credentials API, encrypted to a key whose thumbprint is bound.
        let thumbprint = try JWKThumbprint(of: try PrivateKey(generating: .p256).publicKey)
        let dcapi = OpenID4VPDCAPIHandover(origin: "https://verifier.example", nonce: "n-3", jwkThumbprint: thumbprint)
        let dcapiFile = try Self.demoResponse(over: SessionTranscriptBinding(dcapi.sessionTranscript))
        defer { try? FileManager.default.removeItem(atPath: dcapiFile) }
        let dcapiSpec = "openid4vp-dcapi:origin=https://verifier.example,nonce=n-3,jwk_thumbprint=\(Base64URL.encode(thumbprint.bytes))"
        let dcapiVerified = try await ProgramRunner.run("mdoc-reader", ["verify", dcapiFile, "--handover", dcapiSpec, "--json"] + Self.trust)
        #expect(dcapiVerified.status == 0, "\(dcapiVerified.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(dcapiVerified.standardOutput.utf8)) as? [String: Any])
        #expect((report["online"] as? [String: Any])?["jwkThumbprint"] as? String == Base64URL.encode(thumbprint.bytes))
        #expect(JSONReportTests.problems(report, at: "verificationReport", try JSONReportTests.schema()).isEmpty)
        let unbound = try await ProgramRunner.run(
            "mdoc-reader", ["verify", dcapiFile, "--handover", "openid4vp-dcapi:origin=https://verifier.example,nonce=n-3"] + Self.trust)
        #expect(unbound.status == 4)
    }

    @Test func anAnnexCResponseDecryptedElsewhereVerifiesAgainstItsDCAPIHandover() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let files = Files(run)
        try await Self.makeRequest(run, files)
        #expect(try await Self.respond(run, files).status == 0)
        let state = try DCAPIRequestState(json: Array(try Data(contentsOf: URL(fileURLWithPath: files.state))))
        let opened = try state.open(try EncryptedResponse(json: Array(try Data(contentsOf: URL(fileURLWithPath: files.response)))), at: Date())
        let file = try ProgramRunner.temporaryFile(opened, suffix: ".cbor")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let spec = "dcapi:origin=\(Self.origin),encryption_info=\(state.encryptionInfoText)"
        let verified = try await run.run("mdoc-reader", ["verify", file, "--handover", spec] + Self.trust)
        #expect(verified.status == 0, "\(verified.standardError)")
        let elsewhere = try await run.run(
            "mdoc-reader", ["verify", file, "--handover", "dcapi:origin=https://phish.example,encryption_info=\(state.encryptionInfoText)"] + Self.trust)
        #expect(elsewhere.status == 4)
    }

    @Test(arguments: [
        ("openid4vp:client_id=a,nonce=b", "response_uri is missing"),
        ("openid4vp:client_id=a,nonce=b,response_uri=c,colour=d", "no field \"colour\""),
        ("openid4vp:client_id=a,nonce=b,nonce=c,response_uri=d", "nonce is given twice"),
        ("openid4vp:client_id=a%2,nonce=b,response_uri=c", "client_id has a % that is not followed"),
        ("openid4vp:client_id=a,nonce=b,response_uri=c,jwk_thumbprint=AAAA", "jwk_thumbprint"),
        ("openid4vp-dcapi:origin=https://a.example/,nonce=n", "origin"),
        ("dcapi:origin=https://a.example,encryption_info=AAAA", "encryption_info"),
        ("oid4vp:client_id=a", "is not one of openid4vp, openid4vp-dcapi, iso-oid4vp, dcapi"),
        ("client_id=a", "no protocol before ':'"),
        ("iso-oid4vp:client_id=a,response_uri=b,nonce", "\"nonce\" is not NAME=VALUE"),
    ])
    func aMalformedHandoverIsAUsageErrorNamingTheField(spec: String, message: String) async throws {
        let result = try await ProgramRunner.run("mdoc-reader", ["verify", "Vectors/iso18013-5-annex-d/device_response.hex", "--handover", spec])
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}
