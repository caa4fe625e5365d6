import Foundation
import MdocCBOR
import MdocOnline
import Testing

/// OpenID4VP 1.0 through the programs: `mdoc-reader online-request --protocol openid4vp` makes a
/// request and its state, `mdoc-holder respond` answers it as a wallet, `mdoc-reader verify
/// --online-state` verifies the answer over the Appendix B.2.6 transcript. The cases that must
/// fail end with the exit codes the help documents.
@Suite struct OpenID4VPCommandTests {
    static let origin = OnlineCommandTests.origin
    static let trust = OnlineCommandTests.trust
    static let client = ["--client-id", "redirect_uri:https://verifier.example/post", "--response-uri", "https://verifier.example/post"]

    /// `online-request --protocol openid4vp` for the demo mDL's age_over_18 and family_name.
    static func makeRequest(_ run: IsolatedRun, _ files: OnlineCommandTests.Files, _ binding: [String]) async throws {
        let made = try await run.run("mdoc-reader", [
            "online-request", "--protocol", "openid4vp", "--doctype", "mdl", "--elements", "age_over_18,family_name",
            "--state", files.state, "--out", files.request,
        ] + binding)
        #expect(made.status == 0, "\(made.standardError)")
    }

    /// `respond` to the request of `files` with the demo mDL, approving everything.
    static func respond(_ run: IsolatedRun, _ files: OnlineCommandTests.Files, origin: String?) async throws -> ProgramRunner.Result {
        try await run.run("mdoc-holder", [
            "respond", "--request", files.request, "--credential", "Certs/demo/mdl.mdoc", "--trust-readers", "Certs/demo/reader-root.pem",
            "--out", files.response, "--yes",
        ] + (origin.map { ["--origin", $0] } ?? []))
    }

    static func verify(_ run: IsolatedRun, _ files: OnlineCommandTests.Files, response: String? = nil, json: Bool = false) async throws -> ProgramRunner.Result {
        try await run.run("mdoc-reader", ["verify", "--online-state", files.state, response ?? files.response] + trust + (json ? ["--json"] : []))
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func dcAPIJWTRequestAnsweredAndVerifiedWithItsOriginAndNonce() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let files = OnlineCommandTests.Files(run)
        try await Self.makeRequest(run, files, ["--origin", Self.origin])
        let state = try OpenID4VPRequestState(json: Array(try Self.text(files.state).utf8))
        #expect(state.responseMode == .digitalCredentialsAPIJWT)
        let request = try OpenID4VPRequest(json: Array(try Self.text(files.request).utf8))
        let stateKeyID = try state.encryptionKey?.keyID
        #expect(request.clientID == nil && request.encryptionKey?.keyID == stateKeyID)

        let answered = try await Self.respond(run, files, origin: Self.origin)
        #expect(answered.status == 0, "\(answered.standardError)")
        #expect(answered.standardOutput.contains("An OpenID4VP request (dc_api.jwt) from https://verifier.example"))
        #expect(try Self.text(files.response).hasPrefix(#"{"response":"ey"#))

        let verified = try await Self.verify(run, files)
        #expect(verified.status == 0, "\(verified.standardOutput)\n\(verified.standardError)")
        #expect(verified.standardOutput.contains("Online:      OpenID4VP 1.0, response_mode dc_api.jwt (OpenID4VPDCAPIHandover)"))
        #expect(verified.standardOutput.contains("nonce              \(state.nonce)"))
        #expect(verified.standardOutput.contains("Device auth: DeviceSignature"))

        let json = try await Self.verify(run, files, json: true)
        #expect(json.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let online = try #require(report["online"] as? [String: Any])
        #expect(online["protocol"] as? String == "openid4vp-dcapi")
        #expect(online["responseMode"] as? String == "dc_api.jwt")
        #expect(online["origin"] as? String == Self.origin)
        #expect(online["credentialId"] as? String == "org_iso_18013_5_1_mDL")
        #expect(JSONReportTests.problems(report, at: "verificationReport", try JSONReportTests.schema()).isEmpty)

        // The state's private key is in no output of any of the programs.
        let stateObject = try #require(try JSONSerialization.jsonObject(with: Data(try Self.text(files.state).utf8)) as? [String: Any])
        let privateKey = try #require(stateObject["recipientPrivateKey"] as? String)
        for result in [answered, verified, json] {
            #expect(!(result.standardOutput + result.standardError).contains(privateKey))
        }
    }

    @Test func directPostJWTRequestAnsweredAsAFormAndVerifiedWithItsClient() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let files = OnlineCommandTests.Files(run)
        try await Self.makeRequest(run, files, Self.client)
        // No --origin: the transcript binds the request's client_id and response_uri.
        let answered = try await Self.respond(run, files, origin: nil)
        #expect(answered.status == 0, "\(answered.standardError)")
        let form = try Self.text(files.response)
        #expect(form.hasPrefix("response=ey") && !form.hasSuffix("\n"))
        let verified = try await Self.verify(run, files)
        #expect(verified.status == 0, "\(verified.standardOutput)\n\(verified.standardError)")
        #expect(verified.standardOutput.contains("OpenID4VP 1.0, response_mode direct_post.jwt (OpenID4VPHandover)"))
        #expect(verified.standardOutput.contains("clientId           redirect_uri:https://verifier.example/post"))

        // The request's client_id changed on its way to the wallet (to one the wallet would know
        // beforehand, so that it answers): it signs for another client.
        let otherClient = try Self.text(files.request).replacingOccurrences(of: #""redirect_uri:https://verifier.example/post""#, with: #""phish.example""#)
        #expect(otherClient != (try Self.text(files.request)))
        try otherClient.write(toFile: files.request, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: files.response)
        #expect(try await Self.respond(run, files, origin: nil).status == 0)
        let phished = try await Self.verify(run, files)
        #expect(phished.status == 4, "\(phished.standardOutput)\n\(phished.standardError)")

        // direct_post and dc_api, not encrypted, verify as well.
        for (mode, binding, origin) in [("direct_post", Self.client, nil), ("dc_api", ["--origin", Self.origin], Self.origin)] {
            let plain = OnlineCommandTests.Files(run, "-\(mode)")
            try await Self.makeRequest(run, plain, binding + ["--response-mode", mode])
            #expect(try await Self.respond(run, plain, origin: origin).status == 0)
            #expect(try Self.text(plain.response).contains("vp_token"))
            let result = try await Self.verify(run, plain)
            #expect(result.status == 0, "\(mode): \(result.standardError)")
        }
    }

    @Test func anotherOriginAnotherRequestAndAnAlteredResponseAreRefused() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let files = OnlineCommandTests.Files(run)
        try await Self.makeRequest(run, files, ["--origin", Self.origin])

        // A wallet told another origin signs over another transcript: device authentication fails.
        #expect(try await Self.respond(run, files, origin: "https://phish.example").status == 0)
        let phished = try await Self.verify(run, files)
        #expect(phished.status == 4, "\(phished.standardOutput)\n\(phished.standardError)")

        // The answer to another request names another kid: it does not belong to this one.
        try FileManager.default.removeItem(atPath: files.response)
        let other = OnlineCommandTests.Files(run, "-other")
        try await Self.makeRequest(run, other, ["--origin", Self.origin])
        #expect(try await Self.respond(run, other, origin: Self.origin).status == 0)
        let elsewhere = try await Self.verify(run, files, response: other.response)
        #expect(elsewhere.status == 11, "\(elsewhere.standardError)")
        #expect(elsewhere.standardError.contains("responseDecryptionFailed"))

        // One character of the ciphertext changed.
        let body = try Self.text(other.response)
        let ciphertextEnd = try #require(body.lastIndex(of: "."))
        let position = body.index(ciphertextEnd, offsetBy: -2)
        let altered = body.replacingCharacters(in: position...position, with: body[position] == "A" ? "B" : "A")
        let alteredPath = run.home + "/altered.json"
        try altered.write(toFile: alteredPath, atomically: true, encoding: .utf8)
        let refused = try await Self.verify(run, other, response: alteredPath)
        #expect(refused.status == 11, "\(refused.standardError)")

        // An Annex C response to an OpenID4VP state is no OpenID4VP response.
        let annexC = OnlineCommandTests.Files(run, "-annex-c")
        try await OnlineCommandTests.makeRequest(run, annexC)
        #expect(try await OnlineCommandTests.respond(run, annexC).status == 0)
        let wrongKind = try await Self.verify(run, other, response: annexC.response)
        #expect(wrongKind.status == 2, "\(wrongKind.standardError)")
    }

    @Test func optionsOfTheOtherProtocolOrModeAreUsageErrors() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let files = OnlineCommandTests.Files(run)
        let refused: [[String]] = [
            ["--protocol", "openid4vp", "--origin", Self.origin] + OnlineCommandTests.readerAuthentication,
            ["--protocol", "openid4vp", "--client-id", "redirect_uri:https://verifier.example/post"],
            ["--protocol", "openid4vp", "--origin", Self.origin, "--response-mode", "direct_post.jwt"],
            ["--protocol", "openid4vp", "--origin", Self.origin, "--response-mode", "query"],
            ["--protocol", "openid4vp"] + Self.client + ["--origin", Self.origin],
            ["--origin", Self.origin] + Self.client,
            ["--client-id", "redirect_uri:https://verifier.example/post"],
            // An unsigned request cannot carry a client_id whose prefix needs a signature, nor
            // a redirect_uri: one naming another URI than the response_uri (OpenID4VP 1.0 5.9.3).
            ["--protocol", "openid4vp", "--client-id", "x509_san_dns:verifier.example", "--response-uri", "https://verifier.example/post"],
            ["--protocol", "openid4vp", "--client-id", "redirect_uri:https://verifier.example/other", "--response-uri", "https://verifier.example/post"],
        ]
        for arguments in refused {
            let result = try await run.run("mdoc-reader", [
                "online-request", "--preset", "age-over-18", "--state", files.state, "--out", files.request,
            ] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
        }
        // A dc_api request answered without --origin.
        try await Self.makeRequest(run, files, ["--origin", Self.origin])
        let noOrigin = try await Self.respond(run, files, origin: nil)
        #expect(noOrigin.status == 64, "\(noOrigin.standardError)")
        #expect(noOrigin.standardError.contains("--origin"))
    }
}
