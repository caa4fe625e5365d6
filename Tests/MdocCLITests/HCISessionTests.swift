import Foundation
import MdocLEHost
import MdocQR
import MdocTestSupport
import Testing

/// Live sessions between the real `mdoc-holder` and `mdoc-reader` over real (virtual) Bluetooth
/// LE: each program drives its own Bumble virtual controller through the toolkit's user-space
/// LE host (`--transport hci:tcp:…`), the controllers linked on loopback (docs/architecture.md section 6).
@Suite("mdoc-holder and mdoc-reader over hci:tcp through Bumble virtual controllers", .timeLimit(.minutes(3)))
struct HCISessionTests {
    static let trust = ["--trust", "Certs/demo/iaca.pem"]
    static let readerAuthentication = ["--reader-cert", "Certs/demo/reader.pem", "--reader-key", "Certs/demo/reader-key.pem"]
    /// Seconds each program waits for its peer and each message.
    static let programTimeout = "60"
    /// The size the issue asks of the portrait in the test response.
    static let portraitSize = 20 * 1024

    /// An mDL issued from Samples/mdl.json with the sample portrait re-encoded to at least
    /// ``portraitSize`` octets (a real JPEG), into `folder`; returns the credential's path.
    static func credentialWithLargePortrait(in folder: String) async throws -> (credential: String, portrait: [UInt8]) {
        let sample = try GreyImage(encoded: [UInt8](try Data(contentsOf: URL(fileURLWithPath: ProgramRunner.repositoryRoot + "/Samples/portrait.jpg"))))
        let scaled = try GreyImage(width: sample.width * 2, height: sample.height,
                                   pixels: sample.pixels.enumerated().flatMap { index, value in
                                       [value, UInt8(truncatingIfNeeded: Int(value) &+ (index * 7919) % 13)]
                                   })
        let portrait = try (60...100).lazy.map { try scaled.jpegData(quality: $0) }.first { $0.count >= portraitSize }
        let jpeg = try #require(portrait)
        try Data(jpeg).write(to: URL(fileURLWithPath: folder + "/portrait.jpg"))
        let data = try String(contentsOfFile: ProgramRunner.repositoryRoot + "/Samples/mdl.json", encoding: .utf8)
        try data.write(toFile: folder + "/mdl.json", atomically: true, encoding: .utf8)
        let credential = folder + "/mdl.mdoc"
        let issued = try await ProgramRunner.run("mdoc-issuer", [
            "issue", "--pki", "Certs/demo", "--doctype", "org.iso.18013.5.1.mDL", "--data", folder + "/mdl.json",
            "--out", credential,
        ])
        try #require(issued.status == 0, "\(issued.standardError)")
        return (credential, jpeg)
    }

    @Test("a 20 KB portrait is presented and verified in each BLE mode, with btsnoop files and debug logs",
          arguments: ["peripheral", "central"])
    func session(mode: String) async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (credential, portrait) = try await Self.credentialWithLargePortrait(in: folder)
        let controllers = try VirtualControllers(count: 2, checkout: Vectors.repositoryRoot)
        defer { controllers.stop() }

        let holder = try BackgroundProgram("mdoc-holder", [
            "present", "--credential", credential, "--yes", "--no-qr", "--timeout", Self.programTimeout,
            "--transport", controllers.transport(0), "--btsnoop", folder + "/holder.btsnoop", "--log-level", "debug",
            "--ble-mode", mode,
        ])
        let uri = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
        let reader = try await ProgramRunner.run("mdoc-reader", [
            "request", uri, "--preset", "full", "--json", "--timeout", Self.programTimeout,
            "--transport", controllers.transport(1), "--btsnoop", folder + "/reader.btsnoop", "--log-level", "debug",
            "--portrait-out", folder + "/received.jpg", "--save-session", folder + "/capture",
        ] + Self.trust + Self.readerAuthentication, timeout: 120)
        let holderResult = await holder.wait(timeout: 60)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holderResult.status == 0, "\(holderResult.standardError)")
        let json = try ReaderJSON(reader.standardOutput)
        #expect(json.outcome == "verified")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/received.jpg"))) == portrait)
        #expect(reader.standardError.contains("mdoc-reader: connected (ATT MTU 515)"))
        // --log-level debug: the ATT MTU, chunk sizes and State changes on both sides, the Ident
        // where the holder checks it.
        #expect(reader.standardError.contains("ATT MTU exchanged"))
        // The holder notifies in peripheral server mode and writes in central client mode.
        #expect(holderResult.standardError.contains(mode == "central" ? "chunkSize=510" : "chunkSize=512"))
        #expect(holderResult.standardError.contains("Ident computed from EDeviceKeyBytes"))
        if mode == "central" {
            #expect(holderResult.standardError.contains("Ident read from the reader"))
            #expect(holderResult.standardError.contains("match=true"))
        } else {
            #expect(holderResult.standardError.contains("State written by the client"))
        }
        for name in ["holder", "reader"] {
            let snoop = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/\(name).btsnoop")))
            #expect(Array(snoop.prefix(16)) == Array("btsnoop".utf8) + [0, 0, 0, 0, 1, 0, 0, 0x03, 0xEA])
            #expect(snoop.count > portrait.count, "\(name): the session's packets are in the file")
        }
        // The captured session replays offline to the same report and exit status.
        let replay = try await ProgramRunner.run("mdoc-reader", ["verify", "--session", folder + "/capture", "--json"] + Self.trust)
        #expect(replay.status == reader.status, "\(replay.standardError)")
        #expect(replay.standardOutput == reader.standardOutput)
        let index = try SessionCaptureTests.index(folder + "/capture")
        #expect(index["transport"] as? String == controllers.transport(1))
        #expect(index["bleMode"] as? String == mode)
        #expect(index["mtu"] as? Int == 515)
    }

    @Test("mdoc-reader scan lists a holder advertising in peripheral server mode")
    func scan() async throws {
        let controllers = try VirtualControllers(count: 2, checkout: Vectors.repositoryRoot)
        defer { controllers.stop() }
        let holder = try BackgroundProgram("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--timeout", "30",
            "--transport", controllers.transport(0), "--ble-mode", "peripheral", "--log-level", "debug",
        ])
        defer { holder.stop() }
        _ = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60))
        let scan = try await ProgramRunner.run("mdoc-reader", ["scan", "--transport", controllers.transport(1), "--timeout", "2", "--json"],
                                         timeout: 60)
        #expect(scan.status == 0, "\(scan.standardError)")
        let advertised = holder.standardError.split(separator: "\n").first { $0.contains("advertising") && $0.contains("service=") }
        let uuid = try #require(advertised.flatMap { line in
            line.split(separator: " ").first { $0.hasPrefix("service=") }.map { String($0.dropFirst("service=".count)) }
        })
        let scanned = try #require(try JSONSerialization.jsonObject(with: Data(scan.standardOutput.utf8)) as? [String: Any])
        #expect(scanned["schemaVersion"] as? Int == 1 && scanned["type"] as? String == "scan", "\(scan.standardOutput)")
        let listed = try #require(scanned["devices"] as? [[String: Any]])
        #expect(listed.contains { ($0["serviceUUIDs"] as? [String]) == [uuid] && $0["connectable"] as? Bool == true },
                "\(scan.standardOutput)")
    }

    @Test("transports that cannot be opened end with exit status 8 and say what to do")
    func unavailableTransports() async throws {
        let user = try await ProgramRunner.run("mdoc-reader", ["scan", "--transport", "hci:user:63", "--timeout", "1"])
        #expect(user.status == 8)
        #expect(user.standardError.hasPrefix("mdoc-reader: error: cannot use hci:user:63: hci:user:63: "))
        #expect(user.standardError.split(separator: "\n").count == 1)

        let holder = try await ProgramRunner.run("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--transport", "hci:tcp:127.0.0.1:1",
        ])
        #expect(holder.status == 8)
        #expect(holder.standardError.contains("nothing listens there; start a controller first"))

        let snoop = try await ProgramRunner.run("mdoc-reader", ["scan", "--btsnoop", "/tmp/x.btsnoop"])
        #expect(snoop.status == 64)
        #expect(snoop.standardError.contains("--btsnoop records HCI packets"))
        let bad = try await ProgramRunner.run("mdoc-reader", ["scan", "--transport", "hci:tcp:localhost"])
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("hci:tcp needs HOST:PORT"))
    }

    @Test("a holder serving reader after reader ends with status 8 when its controller goes away")
    func keepRunningHolderEndsWhenItsControllerIsGone() async throws {
        let controllers = try VirtualControllers(count: 2, checkout: Vectors.repositoryRoot)
        defer { controllers.stop() }
        let holder = try BackgroundProgram("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--keep-running", "--timeout", "30",
            "--transport", controllers.transport(0),
        ])
        defer { holder.stop() }
        _ = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: 60), "\(holder.standardError)")
        controllers.stop()
        let result = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains(
            "mdoc-holder: error: the radio stopped working, so no further reader can be served: linkClosed: the controller at \(controllers.transport(0)) closed the connection"),
            "\(result.standardError)")
        // No second session was tried on the radio that was gone.
        #expect(!result.standardError.contains("waiting for the next reader"), "\(result.standardError)")
    }
}
