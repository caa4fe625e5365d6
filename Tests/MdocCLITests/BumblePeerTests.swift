import Foundation
import MdocTestSupport
import Testing

/// `mdoc-holder` and `mdoc-reader` against an independent ISO/IEC 18013-5 BLE implementation:
/// the peers in Tests/Interop/bumble, written on Bumble's own host, GATT server and client (not
/// on the toolkit's), exchange real encrypted messages with the programs through two linked
/// Bumble virtual controllers (design.md section 6; Tests/Interop/README.md, "Bumble peers").
@Suite("mdoc-holder and mdoc-reader against the Bumble 18013-5 peers", .timeLimit(.minutes(4)))
struct BumblePeerTests {
    static let peers = ProgramRunner.repositoryRoot + "/Tests/Interop/bumble"
    static let programTimeout = "60"

    /// `python3 Tests/Interop/bumble/NAME ARGUMENTS` running beside the test.
    static func peer(_ name: String, _ arguments: [String]) throws -> BackgroundProgram {
        try BackgroundProgram(executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3", peers + "/" + name] + arguments)
    }

    /// The JSON object a peer printed as its last line.
    static func result(of output: String) throws -> [String: Any] {
        let line = try #require(output.split(separator: "\n").last, "the peer printed nothing")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    @Test("reader_peer reads a 20 KB portrait from mdoc-holder and verifies it, in each BLE mode and each way to end",
          arguments: [("peripheral", "status"), ("central", "state")])
    func holderToPeerReader(mode: String, end: String) throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (credential, portrait) = try HCISessionTests.credentialWithLargePortrait(in: folder)
        let controllers = try VirtualControllers(count: 2)
        defer { controllers.stop() }

        let holder = try BackgroundProgram("mdoc-holder", [
            "present", "--credential", credential, "--yes", "--no-qr", "--timeout", Self.programTimeout,
            "--transport", controllers.transport(0), "--log-level", "debug",
        ])
        let uri = try #require(holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
        let reader = try Self.peer("reader_peer.py", [
            uri, "--transport", "tcp-client:127.0.0.1:\(controllers.ports[1])", "--trust", "Certs/demo/iaca.pem",
            "--mode", mode, "--end", end, "--timeout", Self.programTimeout,
            "--elements", "org.iso.18013.5.1:family_name,org.iso.18013.5.1:portrait,org.iso.18013.5.1:biometric_template_face",
        ]).wait(timeout: 120)
        let holderResult = holder.wait(timeout: 60)

        #expect(reader.status == 0, "\(reader.standardOutput)\n\(reader.standardError)")
        #expect(holderResult.status == 0, "\(holderResult.standardError)")
        let json = try Self.result(of: reader.standardOutput)
        #expect(json["outcome"] as? String == "verified")
        #expect(json["mode"] as? String == mode)
        #expect(json["mtu"] as? Int == 515)
        #expect(json["deviceAuthentication"] as? String == "mac")
        // Exactly what was requested and held: the sample mDL has no biometric_template_face.
        let elements = try #require((json["elements"] as? [String: Any])?["org.iso.18013.5.1"] as? [String: Any])
        #expect(Set(elements.keys) == ["family_name", "portrait"])
        #expect((elements["portrait"] as? [String: Any])?["bstr"] as? Int == portrait.count)
        // The holder notifies in peripheral server mode and writes in central client mode.
        #expect(holderResult.standardError.contains(mode == "central" ? "chunkSize=510" : "chunkSize=512"))
        if end == "status" {
            #expect(holderResult.standardError.contains("mdoc-holder: the reader ended the session"))
        }
        if mode == "central" {
            #expect(holderResult.standardError.contains("match=true"))
        }
    }

    @Test("mdoc-reader reads and verifies holder_peer's mDL, in each BLE mode and each device authentication",
          arguments: [("peripheral", "mac"), ("central", "signature")])
    func peerHolderToReader(mode: String, deviceAuthentication: String) throws {
        try LiveSession.makeDemoCredentialsPrivate()
        let controllers = try VirtualControllers(count: 2)
        defer { controllers.stop() }
        let holder = try Self.peer("holder_peer.py", [
            "--credential", "Certs/demo/mdl.mdoc", "--transport", "tcp-client:127.0.0.1:\(controllers.ports[0])",
            "--mode", mode, "--device-auth", deviceAuthentication, "--timeout", Self.programTimeout,
        ])
        let uri = try #require(holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
        let reader = try ProgramRunner.run("mdoc-reader", [
            "request", uri, "--elements", "family_name,portrait,age_over_18",
            "--json", "--timeout", Self.programTimeout, "--transport", controllers.transport(1),
            "--trust", "Certs/demo/iaca.pem", "--log-level", "debug",
        ], timeout: 120)
        let holderResult = holder.wait(timeout: 60)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holderResult.status == 0, "\(holderResult.standardOutput)\n\(holderResult.standardError)")
        let json = try ReaderJSON(reader.standardOutput)
        #expect(json.outcome == "verified")
        #expect(json.values("org.iso.18013.5.1.mDL", "org.iso.18013.5.1")["family_name"] as? String == "Doe")
        #expect(reader.standardError.contains("mdoc-reader: connected (ATT MTU 515)"))
        let presented = try Self.result(of: holderResult.standardOutput)
        #expect(presented["outcome"] as? String == "presented")
        #expect(presented["mode"] as? String == mode)
        #expect(presented["ended"] as? String == "status 20")
        #expect((presented["disclosed"] as? [String: [String]])?["org.iso.18013.5.1"] == ["family_name", "portrait", "age_over_18"])
    }

    @Test("mdoc-reader does not call verified a document holder_peer presents from an issuer it does not trust")
    func untrustedIssuer() throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pki = try ProgramRunner.run("mdoc-issuer", ["pki", folder + "/pki"])
        try #require(pki.status == 0, "\(pki.standardError)")
        let issued = try ProgramRunner.run("mdoc-issuer", [
            "issue", "--pki", folder + "/pki", "--doctype", "org.iso.18013.5.1.mDL", "--data", "Samples/mdl.json",
            "--out", folder + "/other.mdoc",
        ])
        try #require(issued.status == 0, "\(issued.standardError)")
        let controllers = try VirtualControllers(count: 2)
        defer { controllers.stop() }
        let holder = try Self.peer("holder_peer.py", [
            "--credential", folder + "/other.mdoc", "--transport", "tcp-client:127.0.0.1:\(controllers.ports[0])",
            "--timeout", Self.programTimeout,
        ])
        let uri = try #require(holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
        let reader = try ProgramRunner.run("mdoc-reader", [
            "request", uri, "--elements", "family_name", "--json", "--timeout", Self.programTimeout,
            "--transport", controllers.transport(1), "--trust", "Certs/demo/iaca.pem",
        ], timeout: 120)
        _ = holder.wait(timeout: 60)

        // README, exit codes: 3 is issuer data authentication failed (an untrusted chain).
        #expect(reader.status == 3, "\(reader.standardError)")
        let json = try ReaderJSON(reader.standardOutput)
        #expect(json.outcome == "issuerAuthenticationFailed", "\(reader.standardOutput)")
    }
}
