import Foundation
import MdocTestSupport
import Testing

/// `mdoc-reader verify` end to end on the Annex D response: the "Done when" cases of the
/// foundation issue, each with its documented exit code and reason.
@Suite struct VerifyCommandTests {
    static let v = "Vectors/iso18013-5-annex-d"
    let trust = ["--trust", "\(v)/iaca_cert.hex"]
    let binding = ["--transcript", "\(v)/session_transcript_bytes.hex", "--reader-key", "Certs/annex-d/eReaderKey.pem"]
    let validTime = ["--at", "2021-01-01T00:00:00Z"]

    private func verify(_ response: String, _ options: [String]) async throws -> ProgramRunner.Result {
        try await ProgramRunner.run("mdoc-reader", ["verify", response] + options, timeout: 20)
    }

    /// The Annex D response with `bytes` replaced by `replacement` at their only occurrence.
    private func tamperedResponse(replacing bytes: [UInt8], with replacement: [UInt8]) throws -> String {
        var response = Vectors.annexD("device_response")
        let positions = (0...(response.count - bytes.count)).filter { Array(response[$0..<$0 + bytes.count]) == bytes }
        try #require(positions.count == 1)
        response.replaceSubrange(positions[0]..<positions[0] + bytes.count, with: replacement)
        return try ProgramRunner.temporaryFile(response)
    }

    @Test func verifiesTheAnnexDResponseAtAValidTime() async throws {
        let result = try await verify("\(Self.v)/device_response.hex", trust + binding + validTime + ["--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(json["outcome"] as? String == "verified")
        let documents = try #require(json["documents"] as? [[String: Any]])
        let nameSpaces = try #require(documents.first?["nameSpaces"] as? [String: [String: Any]])
        #expect(nameSpaces["org.iso.18013.5.1"]?["family_name"] as? String == "Doe")
        #expect(nameSpaces["org.iso.18013.5.1"]?["document_number"] as? String == "123456789")
        #expect(documents.first?["deviceAuthentication"] as? String == "DeviceMac")
    }

    @Test func readableReportListsEveryCheck() async throws {
        let result = try await verify("\(Self.v)/device_response.hex", trust + binding + validTime)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("Verified at 2021-01-01T00:00:00Z: VERIFIED"))
        #expect(result.standardOutput.components(separatedBy: "ok   value digest").count - 1 == 6)
        #expect(result.standardOutput.contains("ok   device authentication"))
        #expect(result.standardOutput.contains("\"Doe\""))
    }

    @Test func failsTodayNamingTheExpiredCertificate() async throws {
        let result = try await verify("\(Self.v)/device_response.hex", trust + binding)
        #expect(result.status == 3)
        #expect(result.standardError.contains("certificate \"CN=utopia ds, C=US\": validity: expired on 2021-10-01T00:00:00Z"))
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test func tamperedElementValueFailsItsDigest() async throws {
        // family_name "Doe" -> "Foe" inside the IssuerSignedItemBytes.
        let path = try tamperedResponse(replacing: [0x63] + Array("Doe".utf8), with: [0x63] + Array("Foe".utf8))
        let result = try await verify(path, trust + binding + validTime)
        #expect(result.status == 3)
        #expect(result.standardError.contains("value digest (org.iso.18013.5.1/family_name)"))
    }

    @Test func brokenIssuerSignatureFails() async throws {
        let signature = Array(Vectors.annexD("issuer_auth").suffix(64))
        var broken = signature
        broken[10] ^= 0x01
        let path = try tamperedResponse(replacing: signature, with: broken)
        let result = try await verify(path, trust + binding + validTime)
        #expect(result.status == 3)
        #expect(result.standardError.contains("issuer signature (issuerAuth): FAILED"))
    }

    @Test func wrongReaderKeyFailsDeviceAuthentication() async throws {
        let options = ["--transcript", "\(Self.v)/session_transcript_bytes.hex", "--reader-key", "Certs/annex-d/eDeviceKey.pem"]
        let result = try await verify("\(Self.v)/device_response.hex", trust + options + validTime)
        #expect(result.status == 4)
        #expect(result.standardError.contains("the DeviceMac does not verify"))
    }

    @Test func untrustedAnchorFails() async throws {
        let result = try await verify("\(Self.v)/device_response.hex", ["--trust", "\(Self.v)/reader_root_cert.hex"] + binding + validTime)
        #expect(result.status == 3)
        #expect(result.standardError.contains("issuerNotTrusted"))
    }

    @Test func withoutTranscriptDeviceAuthenticationIsNotChecked() async throws {
        let result = try await verify("\(Self.v)/device_response.hex", trust + validTime)
        #expect(result.status == 5)
        #expect(result.standardOutput.contains("--   device authentication"))
    }

    @Test func acceptsTheBareTranscriptAndATrustDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Vectors.annexD("iaca_cert")).write(to: directory.appendingPathComponent("iaca.der"))
        try Data(Vectors.annexD("reader_root_cert")).write(to: directory.appendingPathComponent("reader-root.der"))
        let options = ["--trust", directory.path, "--transcript", "\(Self.v)/session_transcript.hex", "--reader-key", "Certs/annex-d/eReaderKey.pem"]
        let result = try await verify("\(Self.v)/device_response.hex", options + validTime)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func malformedResponseExitsTwo() async throws {
        let truncated = try ProgramRunner.temporaryFile(Array(Vectors.annexD("device_response").prefix(1800)))
        defer { try? FileManager.default.removeItem(atPath: truncated) }
        let result = try await verify(truncated, trust + validTime)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("mdoc-reader: error: \(truncated): not a DeviceResponse: "), "\(result.standardError)")
    }

    /// Files a user may give in place of a DeviceResponse, and the start of what verify says.
    static let wrongFiles: [(file: String, says: String)] = [
        ("README.md", "is text, not a DeviceResponse; give a DeviceResponse"),
        ("Certs/demo/ds.pem", "is a PEM certificate, not a DeviceResponse; an IACA certificate is given with --trust"),
        ("\(v)/ds_cert.hex", "is DER, an X.509 certificate or key perhaps, not a DeviceResponse; an IACA certificate is given with --trust"),
        ("Certs/demo/reader-key.pem", "is a PEM private key, not a DeviceResponse; a reader's ephemeral key, for DeviceMac, is given with --reader-key"),
        ("Samples/mdl.json", "is JSON issuer data (the --data of `mdoc-issuer issue`), not a DeviceResponse"),
        ("Certs/demo/mdl.mdoc", "is a credential (swift-mdoc credential file), not a DeviceResponse; present it with `mdoc-holder present --credential Certs/demo/mdl.mdoc`"),
        ("\(v)/device_request.hex", "is a DeviceRequest (18013-5 8.3.2.1.2.1), not a DeviceResponse; check its reader authentication with `mdoc-reader verify-request \(v)/device_request.hex`"),
        ("\(v)/session_data_response.hex", "is an encrypted SessionData (18013-5 9.1.1.4), not a DeviceResponse; only its session's keys decrypt it"),
        ("\(v)/session_establishment.hex", "is an encrypted SessionEstablishment (18013-5 9.1.1.4), not a DeviceResponse"),
        ("Certs/demo", "is a folder, not a DeviceResponse file"),
    ]

    @Test(arguments: wrongFiles.map(\.file))
    func aWrongFileIsCalledWhatItIs(_ file: String) async throws {
        let says = try #require(Self.wrongFiles.first { $0.file == file }).says
        let result = try await verify(file, trust + validTime)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("mdoc-reader: error: \(file): \(says)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }

    @Test func aCaptureFolderIsVerifiedWithSession() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let capture = run.home + "/capture"
        try FileManager.default.createDirectory(atPath: capture, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: capture + "/index.json"))
        let result = try await verify(capture, trust + validTime)
        #expect(result.status == 2)
        #expect(result.standardError == "mdoc-reader: error: \(capture): is a session capture folder, not a DeviceResponse file; "
            + "verify it with `mdoc-reader verify --session \(capture)`\n")
    }

    @Test func unusableTrustFileExitsSeven() async throws {
        let result = try await verify("\(Self.v)/device_response.hex", ["--trust", "\(Self.v)/device_response.hex"] + validTime)
        #expect(result.status == 7)
        #expect(result.standardError.contains("not a usable certificate"))
    }

    @Test func badTimeIsAUsageError() async throws {
        let result = try await verify("\(Self.v)/device_response.hex", trust + ["--at", "yesterday"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("not an RFC 3339 date-time"))
    }
}
