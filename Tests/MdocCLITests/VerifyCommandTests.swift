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
        let result = try await verify("\(Self.v)/device_request.hex", trust + validTime)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("mdoc-reader: error: \(Self.v)/device_request.hex: not a DeviceResponse: "))
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
