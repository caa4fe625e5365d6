import Foundation
import MdocLEHost
import MdocTestSupport
import Testing

/// `mdoc-holder` and `mdoc-reader` against an independent ISO/IEC 18013-5 BLE implementation:
/// the peers in Tests/Interop/bumble, written on Bumble's own host, GATT server and client (not
/// on the toolkit's), exchange real encrypted messages with the programs through two linked
/// Bumble virtual controllers (docs/architecture.md section 6; Tests/Interop/README.md, "Bumble peers").
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
    func holderToPeerReader(mode: String, end: String) async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (credential, portrait) = try await HCISessionTests.credentialWithLargePortrait(in: folder)
        let controllers = try VirtualControllers(count: 2, checkout: Vectors.repositoryRoot)
        defer { controllers.stop() }

        let holder = try BackgroundProgram("mdoc-holder", [
            "present", "--credential", credential, "--yes", "--no-qr", "--timeout", Self.programTimeout,
            "--transport", controllers.transport(0), "--log-level", "debug",
        ])
        let uri = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
        let reader = try await Self.peer("reader_peer.py", [
            uri, "--transport", "tcp-client:127.0.0.1:\(controllers.ports[1])", "--trust", "Certs/demo/iaca.pem",
            "--mode", mode, "--end", end, "--timeout", Self.programTimeout,
            "--elements", "org.iso.18013.5.1:family_name,org.iso.18013.5.1:portrait,org.iso.18013.5.1:biometric_template_face",
        ]).wait(timeout: 120)
        let holderResult = await holder.wait(timeout: 60)

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
    func peerHolderToReader(mode: String, deviceAuthentication: String) async throws {
        let controllers = try VirtualControllers(count: 2, checkout: Vectors.repositoryRoot)
        defer { controllers.stop() }
        let holder = try Self.peer("holder_peer.py", [
            "--credential", "Certs/demo/mdl.mdoc", "--transport", "tcp-client:127.0.0.1:\(controllers.ports[0])",
            "--mode", mode, "--device-auth", deviceAuthentication, "--timeout", Self.programTimeout,
        ])
        let uri = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
        let reader = try await ProgramRunner.run("mdoc-reader", [
            "request", uri, "--elements", "family_name,portrait,age_over_18",
            "--json", "--timeout", Self.programTimeout, "--transport", controllers.transport(1),
            "--trust", "Certs/demo/iaca.pem", "--log-level", "debug",
        ], timeout: 120)
        let holderResult = await holder.wait(timeout: 60)

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

    // MARK: Link behaviour (ISO/IEC 18013-5 8.3.3.1.1)

    @Test("centrals that connect and leave, and one that stays, before the peer do not end the GATT server's wait",
          arguments: ["peripheral", "central"])
    func probingCentralsBeforeThePeer(mode: String) async throws {
        let controllers = try VirtualControllers(count: 3, checkout: Vectors.repositoryRoot)
        defer { controllers.stop() }
        let probeTransport = "tcp-client:127.0.0.1:\(controllers.ports[1])"
        // The GATT server under test on controller 0, its peer on controller 2.
        let server: BackgroundProgram
        let peerHolder: BackgroundProgram?
        let uri: String
        if mode == "peripheral" {
            server = try BackgroundProgram("mdoc-holder", [
                "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--timeout", Self.programTimeout,
                "--transport", controllers.transport(0), "--ble-mode", "peripheral", "--log-level", "info",
            ])
            uri = try #require(await server.firstLine(startingWith: "mdoc:", timeout: 60), "\(server.standardError)")
            peerHolder = nil
        } else {
            let holder = try Self.peer("holder_peer.py", [
                "--credential", "Certs/demo/mdl.mdoc", "--transport", "tcp-client:127.0.0.1:\(controllers.ports[2])",
                "--mode", "central", "--start-on-input", "--timeout", Self.programTimeout,
            ])
            uri = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
            server = try BackgroundProgram("mdoc-reader", [
                "request", uri, "--elements", "family_name", "--json", "--timeout", Self.programTimeout,
                "--transport", controllers.transport(0), "--ble-mode", "central", "--trust", "Certs/demo/iaca.pem",
                "--log-level", "info",
            ])
            peerHolder = holder
        }
        defer { server.stop() }
        let probes = try await Self.peer("probe_peer.py", [
            uri, "--transport", probeTransport, "--mode", mode, "--times", "2", "--timeout", Self.programTimeout,
        ]).wait(timeout: 120)
        #expect(try Self.result(of: probes.standardOutput)["connections"] as? Int == 2, "\(probes.standardOutput)\n\(probes.standardError)")
        let lingering = try Self.peer("probe_peer.py", [
            uri, "--transport", probeTransport, "--mode", mode, "--hold", "--timeout", Self.programTimeout,
        ])
        #expect(await lingering.firstLine(startingWith: "holding", timeout: 60) != nil, "\(lingering.standardError)")

        let serverResult: ProgramRunner.Result
        if let peerHolder {
            peerHolder.send("go\n")
            serverResult = await server.wait(timeout: 120)
            let presented = await peerHolder.wait(timeout: 60)
            #expect(try Self.result(of: presented.standardOutput)["outcome"] as? String == "presented",
                    "\(presented.standardOutput)\n\(presented.standardError)")
            #expect(try ReaderJSON(serverResult.standardOutput).outcome == "verified", "\(serverResult.standardOutput)")
        } else {
            let reader = try await ProgramRunner.run("mdoc-reader", [
                "request", uri, "--elements", "family_name", "--json", "--timeout", Self.programTimeout,
                "--transport", controllers.transport(2), "--trust", "Certs/demo/iaca.pem",
            ], timeout: 120)
            #expect(reader.status == 0, "\(reader.standardError)")
            #expect(try ReaderJSON(reader.standardOutput).outcome == "verified")
            serverResult = await server.wait(timeout: 60)
        }
        let held = await lingering.wait(timeout: 60)

        #expect(serverResult.status == 0, "\(serverResult.standardError)")
        #expect(serverResult.standardError.components(separatedBy: "a central left before starting the session").count - 1 == 2,
                "\(serverResult.standardError)")
        #expect(try Self.result(of: held.standardOutput)["ended"] as? String == "by the server", "\(held.standardOutput)\n\(held.standardError)")
    }

    @Test("mdoc-holder in central client mode connects again when the reader ends its first links at once")
    func holderConnectsAgainAfterDroppedLinks() async throws {
        let controllers = try VirtualControllers(count: 2, checkout: Vectors.repositoryRoot)
        defer { controllers.stop() }
        let holder = try BackgroundProgram("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--timeout", Self.programTimeout,
            "--transport", controllers.transport(0), "--ble-mode", "central", "--log-level", "info",
        ])
        let uri = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
        let reader = try await Self.peer("reader_peer.py", [
            uri, "--transport", "tcp-client:127.0.0.1:\(controllers.ports[1])", "--trust", "Certs/demo/iaca.pem",
            "--mode", "central", "--drop-first", "2", "--timeout", Self.programTimeout,
        ]).wait(timeout: 120)
        let holderResult = await holder.wait(timeout: 60)

        #expect(try Self.result(of: reader.standardOutput)["outcome"] as? String == "verified", "\(reader.standardOutput)\n\(reader.standardError)")
        #expect(holderResult.status == 0, "\(holderResult.standardError)")
        #expect(holderResult.standardError.components(separatedBy: "the link dropped before the session started; connecting again").count - 1 == 2,
                "\(holderResult.standardError)")
    }

    @Test("a peer that enables Server2Client notifications only gets the messages, in each BLE mode",
          arguments: ["peripheral", "central"])
    func peerSubscribedToServer2ClientOnly(mode: String) async throws {
        let controllers = try VirtualControllers(count: 2, checkout: Vectors.repositoryRoot)
        defer { controllers.stop() }
        if mode == "peripheral" {
            let holder = try BackgroundProgram("mdoc-holder", [
                "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--timeout", Self.programTimeout,
                "--transport", controllers.transport(0), "--ble-mode", "peripheral",
            ])
            let uri = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
            let reader = try await Self.peer("reader_peer.py", [
                uri, "--transport", "tcp-client:127.0.0.1:\(controllers.ports[1])", "--trust", "Certs/demo/iaca.pem",
                "--mode", mode, "--subscribe", "server2client", "--timeout", Self.programTimeout,
            ]).wait(timeout: 120)
            let holderResult = await holder.wait(timeout: 60)
            #expect(try Self.result(of: reader.standardOutput)["outcome"] as? String == "verified", "\(reader.standardOutput)\n\(reader.standardError)")
            #expect(holderResult.status == 0, "\(holderResult.standardError)")
        } else {
            let holder = try Self.peer("holder_peer.py", [
                "--credential", "Certs/demo/mdl.mdoc", "--transport", "tcp-client:127.0.0.1:\(controllers.ports[0])",
                "--mode", mode, "--subscribe", "server2client", "--timeout", Self.programTimeout,
            ])
            let uri = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
            let reader = try await ProgramRunner.run("mdoc-reader", [
                "request", uri, "--elements", "family_name", "--json", "--timeout", Self.programTimeout,
                "--transport", controllers.transport(1), "--trust", "Certs/demo/iaca.pem",
            ], timeout: 120)
            let holderResult = await holder.wait(timeout: 60)
            #expect(reader.status == 0, "\(reader.standardError)")
            #expect(try ReaderJSON(reader.standardOutput).outcome == "verified")
            let presented = try Self.result(of: holderResult.standardOutput)
            #expect(presented["outcome"] as? String == "presented", "\(holderResult.standardOutput)\n\(holderResult.standardError)")
            #expect(presented["ended"] as? String == "status 20")
        }
    }

    @Test("a holder that ends the session in the SessionData of its response ends mdoc-reader --termination wait at once, State 0x02 before the link closes",
          arguments: ["peripheral", "central"])
    func holderEndingWithItsResponse(mode: String) async throws {
        let controllers = try VirtualControllers(count: 2, checkout: Vectors.repositoryRoot)
        defer { controllers.stop() }
        let holder = try Self.peer("holder_peer.py", [
            "--credential", "Certs/demo/mdl.mdoc", "--transport", "tcp-client:127.0.0.1:\(controllers.ports[0])",
            "--mode", mode, "--end-with-response", "--timeout", Self.programTimeout,
        ])
        let uri = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
        let reader = try await ProgramRunner.run("mdoc-reader", [
            "request", uri, "--elements", "family_name", "--json", "--timeout", Self.programTimeout,
            "--transport", controllers.transport(1), "--trust", "Certs/demo/iaca.pem", "--termination", "wait",
        ], timeout: 120)
        let holderResult = await holder.wait(timeout: 60)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(try ReaderJSON(reader.standardOutput).outcome == "verified")
        #expect(reader.standardError.contains("mdoc-reader: the mdoc ended the session"), "\(reader.standardError)")
        #expect(!reader.standardError.contains("ending the session"), "the reader waited for its timeout: \(reader.standardError)")
        // The holder saw State 0x02 (written in peripheral server mode, notified in central
        // client mode) before the link went down.
        let presented = try Self.result(of: holderResult.standardOutput)
        #expect(presented["outcome"] as? String == "presented", "\(holderResult.standardOutput)\n\(holderResult.standardError)")
        #expect(presented["ended"] as? String == "State 0x02", "\(holderResult.standardOutput)")
    }

    @Test("mdoc-reader does not call verified a document holder_peer presents from an issuer it does not trust")
    func untrustedIssuer() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pki = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/pki"])
        try #require(pki.status == 0, "\(pki.standardError)")
        let issued = try await ProgramRunner.run("mdoc-issuer", [
            "issue", "--pki", folder + "/pki", "--doctype", "org.iso.18013.5.1.mDL", "--data", "Samples/mdl.json",
            "--out", folder + "/other.mdoc",
        ])
        try #require(issued.status == 0, "\(issued.standardError)")
        let controllers = try VirtualControllers(count: 2, checkout: Vectors.repositoryRoot)
        defer { controllers.stop() }
        let holder = try Self.peer("holder_peer.py", [
            "--credential", folder + "/other.mdoc", "--transport", "tcp-client:127.0.0.1:\(controllers.ports[0])",
            "--timeout", Self.programTimeout,
        ])
        let uri = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
        let reader = try await ProgramRunner.run("mdoc-reader", [
            "request", uri, "--elements", "family_name", "--json", "--timeout", Self.programTimeout,
            "--transport", controllers.transport(1), "--trust", "Certs/demo/iaca.pem",
        ], timeout: 120)
        _ = await holder.wait(timeout: 60)

        // README, exit codes: 3 is issuer data authentication failed (an untrusted chain).
        #expect(reader.status == 3, "\(reader.standardError)")
        let json = try ReaderJSON(reader.standardOutput)
        #expect(json.outcome == "issuerAuthenticationFailed", "\(reader.standardOutput)")
    }
}
