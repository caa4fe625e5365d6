import Foundation
import Testing

/// Online answers made by another implementation verify: Tests/Interop/online_wallet_peer.py,
/// our own script on independent libraries (cbor2, cryptography, jwcrypto, pyhpke), answers the
/// requests of `mdoc-reader online-request` from the demo mDL with its own CBOR,
/// SessionTranscript, DeviceSignature and encryption, and `mdoc-reader verify --online-state`
/// verifies the answer. Skipped, saying why, when python3 lacks those libraries.
@Suite struct OnlinePeerInteropTests {
    static let origin = OnlineCommandTests.origin

    /// Whether `python3` on PATH has the libraries of the peer.
    static let peerInstalled: Bool = {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", "import cbor2, cryptography, jwcrypto, pyhpke"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }()

    static let skipReason: Comment = "the online peer needs python3 with cbor2, cryptography, jwcrypto and pyhpke: \(InteropTests.installHint)"

    /// The request `arguments` make, answered by the peer (with `origin` when given) and verified.
    static func answeredByThePeerVerifies(_ arguments: [String], origin: String?) async throws -> ProgramRunner.Result {
        let run = try IsolatedRun()
        defer { run.remove() }
        let files = OnlineCommandTests.Files(run)
        let made = try await run.run("mdoc-reader", [
            "online-request", "--doctype", "mdl", "--elements", "age_over_18,family_name", "--state", files.state, "--out", files.request,
        ] + arguments)
        try #require(made.status == 0, "\(made.standardError)")
        let answered = try await ProgramRunner.runTool("python3", [
            "Tests/Interop/online_wallet_peer.py", "--request", files.request, "--credential", "Certs/demo/mdl.mdoc", "--out", files.response,
        ] + (origin.map { ["--origin", $0] } ?? []))
        try #require(answered.status == 0, "\(answered.standardError)")
        return try await run.run("mdoc-reader", ["verify", "--online-state", files.state, files.response] + OnlineCommandTests.trust)
    }

    @Test(.enabled(if: peerInstalled, skipReason))
    func openID4VPDCAPIJWTAnswerOfThePeerVerifies() async throws {
        let verified = try await Self.answeredByThePeerVerifies(["--protocol", "openid4vp", "--origin", Self.origin], origin: Self.origin)
        #expect(verified.status == 0, "\(verified.standardOutput)\n\(verified.standardError)")
        #expect(verified.standardOutput.contains("response_mode dc_api.jwt"))
        #expect(verified.standardOutput.contains("family_name"))
    }

    @Test(.enabled(if: peerInstalled, skipReason))
    func openID4VPDirectPostJWTAnswerOfThePeerVerifies() async throws {
        let verified = try await Self.answeredByThePeerVerifies(["--protocol", "openid4vp"] + OpenID4VPCommandTests.client, origin: nil)
        #expect(verified.status == 0, "\(verified.standardOutput)\n\(verified.standardError)")
        #expect(verified.standardOutput.contains("response_mode direct_post.jwt"))
    }

    @Test(.enabled(if: peerInstalled, skipReason))
    func openID4VPDirectPostAnswerOfThePeerVerifies() async throws {
        let verified = try await Self.answeredByThePeerVerifies(
            ["--protocol", "openid4vp", "--response-mode", "direct_post"] + OpenID4VPCommandTests.client, origin: nil)
        #expect(verified.status == 0, "\(verified.standardOutput)\n\(verified.standardError)")
    }

    @Test(.enabled(if: peerInstalled, skipReason))
    func annexCAnswerOfThePeerVerifies() async throws {
        let verified = try await Self.answeredByThePeerVerifies(["--origin", Self.origin], origin: Self.origin)
        #expect(verified.status == 0, "\(verified.standardOutput)\n\(verified.standardError)")
        #expect(verified.standardOutput.contains("org-iso-mdoc"))
    }

    @Test(.enabled(if: peerInstalled, skipReason))
    func thePeerToldAnotherOriginFailsDeviceAuthentication() async throws {
        let openID4VP = try await Self.answeredByThePeerVerifies(["--protocol", "openid4vp", "--origin", Self.origin], origin: "https://phish.example")
        #expect(openID4VP.status == 4, "\(openID4VP.standardError)")
        let annexC = try await Self.answeredByThePeerVerifies(["--origin", Self.origin], origin: "https://phish.example")
        #expect(annexC.status == 11, "\(annexC.standardError)")
    }
}
