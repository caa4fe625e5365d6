import Foundation
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocTestSupport
import Testing

/// `mdoc-reader request --save-session DIR` and `mdoc-reader verify --session DIR`: a live
/// session captured by the real programs over sim replays offline to the same report and exit
/// status (docs/session-capture.md). The hci:tcp and bluez captures are in HCISessionTests and
/// BlueZSessionTests.
@Suite("Session capture and replay", .timeLimit(.minutes(4)))
struct SessionCaptureTests {
    static let trust = ["--trust", "Certs/demo/iaca.pem"]

    /// A session of `credential` captured into `capture`, then the capture verified again with
    /// `replayTrust`; both results.
    static func captureAndReplay(
        _ run: IsolatedRun, credential: String, capture: String, trust: [String] = trust, replayTrust: [String]? = nil,
        extra: [String] = []
    ) async throws -> (live: ProgramRunner.Result, replay: ProgramRunner.Result) {
        let session = try await run.session(
            holder: ["--credential", credential, "--yes", "--no-qr"],
            reader: ["--preset", "full", "--json", "--save-session", capture] + trust + extra)
        let replay = try await run.run("mdoc-reader", ["verify", "--session", capture, "--json"] + (replayTrust ?? trust))
        return (session.reader, replay)
    }

    /// The index of the capture in `folder`.
    static func index(_ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/index.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The POSIX mode of `path`.
    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("a session authenticated by DeviceMac replays over its captured messages to the same JSON report and exit status")
    func deviceMac() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let capture = run.home + "/capture"
        let (live, replay) = try await Self.captureAndReplay(run, credential: "Certs/demo/mdl.mdoc", capture: capture)
        #expect(live.status == 0, "\(live.standardError)")
        #expect(replay.status == 0, "\(replay.standardError)")
        #expect(replay.standardOutput == live.standardOutput)
        #expect(try ReaderJSON(replay.standardOutput).document("org.iso.18013.5.1.mDL")?["deviceAuthentication"] as? String == "DeviceMac")
        #expect(replay.standardError.contains("mdoc-reader: replaying the session of "), "\(replay.standardError)")

        // Warned once about the key; everything at rest is private.
        #expect(live.standardError.components(separatedBy: "ephemeral-key.pem decrypts every message").count == 2, "\(live.standardError)")
        #expect(try Self.mode(capture) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: capture).sorted()
        #expect(names == [
            "01-sent-device-request.cbor", "01-sent-session-establishment.cbor", "02-received-device-response.cbor",
            "02-received-session-data.cbor", "03-sent-session-data.cbor", "engagement-uri.txt", "engagement.cbor",
            "ephemeral-key.pem", "index.json", "report.json", "session-transcript.cbor",
        ])
        for name in names { #expect(try Self.mode(capture + "/" + name) == 0o600, "\(name)") }

        let index = try Self.index(capture)
        #expect(index["format"] as? String == "swift-mdoc session capture")
        #expect(index["role"] as? String == "reader")
        #expect(index["transport"] as? String == "sim")
        #expect(index["bleMode"] as? String == "peripheral")
        #expect(index["mtu"] as? Int == 515)
        #expect(index["exitStatus"] as? Int == 0)
        #expect(index["outcome"] as? String == "the reader ended the session")
        let messages = try #require(index["messages"] as? [[String: Any]])
        #expect(messages.map { $0["structure"] as? String } == ["SessionEstablishment", "SessionData", "SessionData"])
        #expect(messages.map { $0["direction"] as? String } == ["sent", "received", "sent"])
        #expect(messages.last?["status"] as? Int == 20)
        // The response went in 18 KB: the reader counts only what it sent itself.
        #expect(messages[1]["chunks"] is NSNull)
        // As a GATT client at ATT_MTU 515 the reader writes chunks of 510 octets, 509 of message.
        let requestBytes = try #require(messages[0]["bytes"] as? Int)
        #expect(messages[0]["chunks"] as? Int == (requestBytes + 508) / 509)
        // The engagement as scanned, and the report as printed.
        let uri = try String(contentsOfFile: capture + "/engagement-uri.txt", encoding: .utf8)
        #expect(uri.hasPrefix("mdoc:") && uri.hasSuffix("\n"))
        #expect(try String(contentsOfFile: capture + "/report.json", encoding: .utf8) == live.standardOutput)
        let verificationTime = try #require(index["verificationTime"] as? String)
        #expect(try ReaderJSON(live.standardOutput).object["time"] as? String == verificationTime)

        // mdoc inspect DIR walks the capture: the engagement, the transcript, each message and
        // what it decrypts to.
        let inspected = try await run.run("mdoc", ["inspect", capture, "--explain"])
        #expect(inspected.status == 0, "\(inspected.standardError)")
        for line in [
            "Session capture (mdoc reader side)\n", "  Transport: sim, peripheral mode, ATT MTU 515\n",
            "  Outcome: the reader ended the session (exit status 0)\n", "  DeviceEngagement (engagement.cbor)\n",
            "  SessionTranscriptBytes (session-transcript.cbor)\n", "    SessionEstablishment (01-sent-session-establishment.cbor)\n",
            "    Decrypted: DeviceRequest (01-sent-device-request.cbor)\n", "    Decrypted: DeviceResponse (02-received-device-response.cbor)\n",
            "  Message 3: sent, from the mdoc reader, ",
        ] {
            #expect(inspected.standardOutput.contains(line), "\(line)")
        }
        let diagnostic = try await run.run("mdoc", ["inspect", capture, "--diagnostic"])
        #expect(diagnostic.status == 0, "\(diagnostic.standardError)")
        #expect(diagnostic.standardOutput.contains("    SessionData (03-sent-session-data.cbor)\n      {\n        \"status\": 20\n      }\n"), "\(diagnostic.standardOutput)")

        // Verified again at another time, the report says so: --at is used, not the capture's.
        let later = try await run.run(
            "mdoc-reader", ["verify", "--session", capture, "--json", "--at", "2031-01-01T00:00:00Z"] + Self.trust)
        #expect(try ReaderJSON(later.standardOutput).object["time"] as? String == "2031-01-01T00:00:00Z")
    }

    @Test("a session authenticated by DeviceSignature replays to the same JSON report")
    func deviceSignature() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        // A P-384 device key cannot MAC with the P-256 EReaderKey: the holder signs (9.1.3.5).
        let key = run.home + "/device-key.pem"
        try await LiveSession.makeOpenSSLKey(curve: "P-384", at: key)
        let credential = run.home + "/mdl.mdoc"
        let issued = try await run.run("mdoc-issuer", [
            "issue", "--pki", "Certs/demo", "--doctype", "org.iso.18013.5.1.mDL", "--data", "Samples/mdl.json",
            "--device-key", key, "--out", credential,
        ])
        try #require(issued.status == 0, "\(issued.standardError)")
        let capture = run.home + "/capture"
        let (live, replay) = try await Self.captureAndReplay(run, credential: credential, capture: capture)
        #expect(live.status == 0, "\(live.standardError)")
        #expect(replay.status == 0, "\(replay.standardError)")
        #expect(replay.standardOutput == live.standardOutput)
        #expect(try ReaderJSON(replay.standardOutput).document("org.iso.18013.5.1.mDL")?["deviceAuthentication"] as? String == "DeviceSignature")
    }

    @Test("a session whose issuer the reader does not trust replays to the same failure and exit status; trusted, the capture verifies")
    func failedVerification() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let capture = run.home + "/capture"
        let otherTrust = ["--trust", "Vectors/iso18013-5-annex-d/iaca_cert.hex"]
        let (live, replay) = try await Self.captureAndReplay(
            run, credential: "Certs/demo/mdl.mdoc", capture: capture, trust: otherTrust)
        #expect(live.status == 3, "\(live.standardError)")
        #expect(replay.status == 3, "\(replay.standardError)")
        #expect(replay.standardOutput == live.standardOutput)
        #expect(try Self.index(capture)["exitStatus"] as? Int == 3)
        // The capture is verified again, not read back: with the right anchor it verifies.
        let trusted = try await run.run("mdoc-reader", ["verify", "--session", capture] + Self.trust)
        #expect(trusted.status == 0, "\(trusted.standardError)")
    }

    @Test("verify-request --session verifies the reader authentication of the captured request offline")
    func capturedRequest() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let capture = run.home + "/capture"
        let (live, _) = try await Self.captureAndReplay(
            run, credential: "Certs/demo/mdl.mdoc", capture: capture,
            extra: ["--reader-cert", "Certs/demo/reader.pem", "--reader-key", "Certs/demo/reader-key.pem"])
        try #require(live.status == 0, "\(live.standardError)")
        let verified = try await run.run(
            "mdoc-reader", ["verify-request", "--session", capture, "--trust-readers", "Certs/demo/reader-root.pem", "--json"])
        #expect(verified.status == 0, "\(verified.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(verified.standardOutput.utf8)) as? [String: Any])
        #expect(json["outcome"] as? String == "authenticated", "\(verified.standardOutput)")
        #expect(json["time"] as? String == (try Self.index(capture))["started"] as? String)
        // Against a root that did not issue the reader's certificate, the same request fails.
        let untrusted = try await run.run(
            "mdoc-reader", ["verify-request", "--session", capture, "--trust-readers", "Vectors/iso18013-5-annex-d/reader_root_cert.hex"])
        #expect(untrusted.status == 9, "\(untrusted.standardError)")
        // A session without reader authentication: its request is anonymous.
        let anonymous = run.home + "/anonymous"
        _ = try await Self.captureAndReplay(run, credential: "Certs/demo/mdl.mdoc", capture: anonymous)
        let unsigned = try await run.run(
            "mdoc-reader", ["verify-request", "--session", anonymous, "--trust-readers", "Certs/demo/reader-root.pem"])
        #expect(unsigned.status == 9)
        #expect(unsigned.standardError.contains("the reader is anonymous"), "\(unsigned.standardError)")
    }

    @Test("the holder captures the same bytes as the reader: the request, the response, the transcript; its capture is inspected and its request verified")
    func holderCapture() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (holderCapture, readerCapture) = (run.home + "/holder", run.home + "/reader")
        let session = try await run.session(
            holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--save-session", holderCapture],
            reader: ["--preset", "full", "--save-session", readerCapture, "--reader-cert", "Certs/demo/reader.pem",
                     "--reader-key", "Certs/demo/reader-key.pem"] + Self.trust)
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        #expect(session.holder.standardError.contains("ephemeral-key.pem decrypts every message of this session"))
        for (holderFile, readerFile) in [
            ("engagement.cbor", "engagement.cbor"), ("session-transcript.cbor", "session-transcript.cbor"),
            ("01-received-session-establishment.cbor", "01-sent-session-establishment.cbor"),
            ("01-received-device-request.cbor", "01-sent-device-request.cbor"),
            ("02-sent-session-data.cbor", "02-received-session-data.cbor"),
            ("02-sent-device-response.cbor", "02-received-device-response.cbor"),
            ("03-received-session-data.cbor", "03-sent-session-data.cbor"),
        ] {
            let held = try Data(contentsOf: URL(fileURLWithPath: holderCapture + "/" + holderFile))
            #expect(held == (try Data(contentsOf: URL(fileURLWithPath: readerCapture + "/" + readerFile))), "\(holderFile)")
        }
        #expect(try Self.mode(holderCapture + "/ephemeral-key.pem") == 0o600)
        let index = try Self.index(holderCapture)
        #expect(index["role"] as? String == "mdoc")
        #expect(index["report"] is NSNull)
        // The holder notifies its response in chunks of 512 octets at ATT_MTU 515: 511 of message.
        let messages = try #require(index["messages"] as? [[String: Any]])
        let responseBytes = try #require(messages[1]["bytes"] as? Int)
        #expect(messages[1]["chunks"] as? Int == (responseBytes + 510) / 511)

        let inspected = try await run.run("mdoc", ["inspect", holderCapture, "--explain"])
        #expect(inspected.status == 0, "\(inspected.standardError)")
        #expect(inspected.standardOutput.hasPrefix("Session capture (mdoc side)\n"))
        #expect(inspected.standardOutput.contains("    Decrypted: DeviceResponse (02-sent-device-response.cbor)\n"))
        let request = try await run.run(
            "mdoc-reader", ["verify-request", "--session", holderCapture, "--trust-readers", "Certs/demo/reader-root.pem"])
        #expect(request.status == 0, "\(request.standardError)")
        // The holder's capture has no EReaderKey: its DeviceMac stays unchecked.
        let replay = try await run.run("mdoc-reader", ["verify", "--session", holderCapture] + Self.trust)
        #expect(replay.status == 5, "\(replay.standardError)")
        #expect(replay.standardError.contains("without the reader's EReaderKey a DeviceMac cannot be checked"))
        // --session refuses --reader-key: the error names what can check it instead.
        #expect(!replay.standardError.contains("--reader-key"), "\(replay.standardError)")
        #expect(replay.standardError.contains(
            "the mdoc's capture holds no EReaderKey, and only the reader's capture of this session can check a DeviceMac"),
            "\(replay.standardError)")
    }

    @Test("--save-session is checked before connecting: a directory that is not empty is refused and nothing is written")
    func notEmpty() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let capture = run.home + "/capture"
        try FileManager.default.createDirectory(atPath: capture, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: capture + "/notes.txt"))
                let result = try await run.run("mdoc-reader", ["request", "mdoc:AAAA", "--save-session", capture] + Self.trust)
        #expect(result.status == 7, "\(result.standardError)")
        #expect(result.standardError.contains("--save-session \(capture): the directory is not empty"), "\(result.standardError)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: capture) == ["notes.txt"])
    }

    @Test("a capture is untrusted input: altered messages, plaintexts, transcripts and keys are refused with the file named")
    func alteredCapture() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let capture = run.home + "/capture"
        let (live, _) = try await Self.captureAndReplay(run, credential: "Certs/demo/mdl.mdoc", capture: capture)
        try #require(live.status == 0, "\(live.standardError)")

        /// Replays a copy of the capture with `change` made to it.
        func replay(_ name: String, _ change: (String) async throws -> Void) async throws -> ProgramRunner.Result {
            let copy = run.home + "/altered-\(name)"
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: capture, toPath: copy)
            try await change(copy)
            return try await run.run("mdoc-reader", ["verify", "--session", copy] + Self.trust)
        }
        func flipLastByte(_ path: String) throws {
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[bytes.count - 1] ^= 0x01
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }

        // The altered message is blamed, not its plaintext, and by the counter of 9.1.1.5, which
        // is not the number in the file's name.
        let message = try await replay("message") { try flipLastByte($0 + "/02-received-session-data.cbor") }
        #expect(message.status == 2)
        #expect(message.standardError.contains(
            "02-received-session-data.cbor: does not decrypt with SKDevice at message counter 1 (9.1.1.5): the message is altered"),
            "\(message.standardError)")
        #expect(!message.standardError.contains("device-response"), "\(message.standardError)")
        #expect(!message.standardError.contains("message 1"), "\(message.standardError)")

        let plaintext = try await replay("plaintext") { try flipLastByte($0 + "/02-received-device-response.cbor") }
        #expect(plaintext.status == 2)
        #expect(plaintext.standardError.contains("02-received-device-response.cbor: the stored plaintext is not what"), "\(plaintext.standardError)")

        let engagement = try await replay("engagement") { try flipLastByte($0 + "/engagement.cbor") }
        #expect(engagement.status == 2)
        #expect(engagement.standardError.contains("session-transcript.cbor: DeviceEngagementBytes are not the bytes of engagement.cbor"),
                "\(engagement.standardError)")

        let key = try await replay("key") { copy in
            try await LiveSession.makeOpenSSLKey(curve: "P-256", at: copy + "/other-key.pem")
            try FileManager.default.removeItem(atPath: copy + "/ephemeral-key.pem")
            try FileManager.default.moveItem(atPath: copy + "/other-key.pem", toPath: copy + "/ephemeral-key.pem")
        }
        #expect(key.status == 2)
        #expect(key.standardError.contains("ephemeral-key.pem: not the EReaderKey of session-transcript.cbor"), "\(key.standardError)")

        let exposed = try await replay("exposed") { copy in
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy + "/ephemeral-key.pem")
        }
        #expect(exposed.status == 2)
        #expect(exposed.standardError.contains("ephemeral-key.pem: holds a private key but its mode 644"), "\(exposed.standardError)")

        let escape = try await replay("escape") { copy in
            let text = try String(contentsOfFile: copy + "/index.json", encoding: .utf8)
                .replacingOccurrences(of: "\"engagement.cbor\"", with: "\"../capture/engagement.cbor\"")
            try text.write(toFile: copy + "/index.json", atomically: true, encoding: .utf8)
        }
        #expect(escape.status == 2)
        #expect(escape.standardError.contains("is not a file name in the capture directory"), "\(escape.standardError)")

        // The reader's first message may lack an entry (a conformance case sends such a one),
        // but an eReaderKey it carries must be the transcript's, and it must be a map.
        let otherKey = try EmbeddedCBOR(COSEKey(publicKey: PrivateKey(generating: .p256).publicKey)).cbor
        let establishmentFile = "/01-sent-session-establishment.cbor"
        // Without its tag 24 (a conformance case sends it so), its content must still be the
        // transcript's.
        guard case .tagged(_, let otherKeyContent) = otherKey else { Issue.record("EReaderKeyBytes without tag 24"); return }
        for (name, sentKey) in [("establishment-key", otherKey), ("establishment-untagged-key", otherKeyContent)] {
            let refused = try await replay(name) { copy in
                let map = CBOR.map(CBORMap([CBORMap.Entry(key: .textString("eReaderKey"), value: sentKey)]))
                try Data(map.encoded()).write(to: URL(fileURLWithPath: copy + establishmentFile))
            }
            #expect(refused.status == 2, "\(name)")
            #expect(refused.standardError.contains("01-sent-session-establishment.cbor: EReaderKeyBytes are not those of session-transcript.cbor"),
                    "\(name): \(refused.standardError)")
        }
        let notAMap = try await replay("establishment-text") { copy in
            try Data(CBOR.textString("SessionEstablishment").encoded()).write(to: URL(fileURLWithPath: copy + establishmentFile))
        }
        #expect(notAMap.status == 2)
        #expect(notAMap.standardError.contains("01-sent-session-establishment.cbor: not a SessionEstablishment: "), "\(notAMap.standardError)")

        let missing = try await replay("missing") { try FileManager.default.removeItem(atPath: $0 + "/session-transcript.cbor") }
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("session-transcript.cbor: cannot open"), "\(missing.standardError)")
    }
}
