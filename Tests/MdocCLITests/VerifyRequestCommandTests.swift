import Foundation
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocFiles
import MdocModel
import MdocSession
import MdocStores
import MdocTestSupport
import MdocText
import Testing

/// `mdoc-reader verify-request`: a stored DeviceRequest's reader authentication checked offline
/// against reader roots and a SessionTranscript, on the Annex D request and on requests this
/// toolkit's reader makes, with the negative cases a tester of readers meets.
@Suite struct VerifyRequestCommandTests {
    static let v = "Vectors/iso18013-5-annex-d"
    let annexD = ["--transcript", "\(v)/session_transcript_bytes.hex", "--trust-readers", "\(v)/reader_root_cert.hex"]
    let validTime = ["--at", "2021-01-01T00:00:00Z"]

    private func verifyRequest(_ request: String, _ options: [String]) async throws -> ProgramRunner.Result {
        try await ProgramRunner.run("mdoc-reader", ["verify-request", request] + options, timeout: 20)
    }

    /// A DeviceRequest made by the toolkit's reader session for a fresh engagement, signed with
    /// the demo reader certificate (or anonymous), and the transcript it is bound to.
    static func readerMadeRequest(signed: Bool = true) throws -> (request: [UInt8], transcript: [UInt8]) {
        let deviceKey = try PrivateKey(generating: .p256)
        let engagement = EmbeddedCBOR(DeviceEngagement(
            security: Security(eDeviceKeyBytes: EmbeddedCBOR(COSEKey(publicKey: deviceKey.publicKey))),
            deviceRetrievalMethods: [.ble(BleOptions(peripheralServerModeSupported: true, peripheralServerModeUUID: UUID()))]))
        let root = ProgramRunner.repositoryRoot + "/Certs/demo/"
        let readerKey = try KeyFiles.loadPrivateKey(root + "reader-key.pem")
        let readerCertificate = try #require(try CertificateFiles.loadFile(root + "reader.pem").first)
        var reader = try ReaderSession(
            engagement: engagement, request: [RequestPreset.driving.docRequestSpec()],
            readerAuthentication: signed ? (key: readerKey, chain: [readerCertificate]) : nil, trustAnchors: [], now: { Date() })
        guard case .send(let message) = try reader.start() else {
            throw ProgramFailure(.sessionFailed, "the reader session sent nothing")
        }
        let establishment = try SessionEstablishment(encoded: message)
        var decryption = SessionEncryption(role: .mdoc, keys: try SessionKeys(
            privateKey: deviceKey, peerPublicKey: establishment.eReaderKey.value.publicKey(),
            sessionTranscriptBytes: reader.sessionTranscript.taggedBytes))
        return (try decryption.decrypt(establishment.data), reader.sessionTranscript.taggedBytes)
    }

    @Test func verifiesTheAnnexDRequestAtAValidTime() async throws {
        let result = try await verifyRequest("\(Self.v)/device_request.hex", annexD + validTime)
        #expect(result.status == 0, "\(result.standardError)")
        let out = result.standardOutput
        #expect(out.contains("Checked at 2021-01-01T00:00:00Z: READER AUTHENTICATED"))
        #expect(out.contains("Holder sees: CN=reader, trusted through CN=reader root"))
        #expect(out.contains("ok   reader signature      readerAuth: ES256 by \"CN=reader\""))
        #expect(out.contains("ok   extendedKeyUsage    CN=reader: extendedKeyUsage has 1.0.18013.5.1.6"))
        #expect(out.contains("portrait               Portrait                   not retained"))
        #expect(out.contains("family_name            Family name                intent to retain"))
    }

    @Test func acceptsTheBareTranscriptAsWellAsTheTaggedOne() async throws {
        let options = ["--transcript", "\(Self.v)/session_transcript.hex", "--trust-readers", "\(Self.v)/reader_root_cert.hex"]
        let result = try await verifyRequest("\(Self.v)/device_request.hex", options + validTime + ["--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(json["outcome"] as? String == "authenticated")
        let document = try #require((json["docRequests"] as? [[String: Any]])?.first)
        #expect(document["trustAnchor"] as? String == "CN=reader root")
        let nameSpaces = document["nameSpaces"] as? [String: [String: [String: Bool]]]
        #expect(nameSpaces?["org.iso.18013.5.1"]?["portrait"]?["intentToRetain"] == false)
        #expect((document["certificateChain"] as? [[String: Any]])?.first?["subject"] as? String == "CN=reader")
        #expect((document["certificateChecks"] as? [[String: Any]])?.count == 17)
    }

    @Test func failsTodayNamingTheExpiredReaderCertificate() async throws {
        let result = try await verifyRequest("\(Self.v)/device_request.hex", annexD)
        #expect(result.status == 9)
        #expect(result.standardError.contains("certificate \"CN=reader\": validity: expired on 2023-12-31T00:00:00Z"))
    }

    @Test func anotherTranscriptFailsTheSignature() async throws {
        var transcript = try SessionTranscriptBinding(encoded: Vectors.annexD("session_transcript_bytes")).transcript
        transcript.handover = .qr
        let path = try ProgramRunner.temporaryFile(transcript.bytes.cbor.encoded())
        let result = try await verifyRequest(
            "\(Self.v)/device_request.hex", ["--transcript", path, "--trust-readers", "\(Self.v)/reader_root_cert.hex"] + validTime + ["--json"])
        #expect(result.status == 9)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let checks = try #require((json["docRequests"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        #expect(checks.first { $0["check"] as? String == "reader certificate" }?["result"] as? String == "passed")
        let signature = checks.first { $0["check"] as? String == "reader signature" }
        #expect(signature?["code"] as? String == "invalidSignature")
    }

    @Test func aRootTheHolderDoesNotTrustFailsTheChain() async throws {
        let options = ["--transcript", "\(Self.v)/session_transcript_bytes.hex", "--trust-readers", "Certs/demo/reader-root.pem"]
        let result = try await verifyRequest("\(Self.v)/device_request.hex", options + validTime)
        #expect(result.status == 9)
        #expect(result.standardOutput.contains("Holder sees: untrusted reader claiming to be CN=reader"))
        #expect(result.standardOutput.contains("FAIL reader certificate"))
        #expect(result.standardError.contains("issuerNotTrusted"))
    }

    @Test func aTamperedItemsRequestFailsTheSignature() async throws {
        // The portrait's IntentToRetain false (f4) becomes true (f5) inside ItemsRequestBytes.
        var request = Vectors.annexD("device_request")
        let portrait: [UInt8] = [0x68] + Array("portrait".utf8) + [0xf4]
        let positions = (0...(request.count - portrait.count)).filter { Array(request[$0..<$0 + portrait.count]) == portrait }
        try #require(positions.count == 1)
        request[positions[0] + portrait.count - 1] = 0xf5
        let result = try await verifyRequest(try ProgramRunner.temporaryFile(request), annexD + validTime)
        #expect(result.status == 9)
        #expect(result.standardOutput.contains("portrait               Portrait                   intent to retain"))
        #expect(result.standardError.contains("the readerAuth signature (ES256) does not verify over this session's ReaderAuthenticationBytes"))
    }

    @Test func verifiesARequestTheToolkitsReaderSignedWithTheDemoCertificate() async throws {
        let (request, transcript) = try Self.readerMadeRequest()
        let options = ["--transcript", try ProgramRunner.temporaryFile(transcript), "--trust-readers", "Certs/demo"]
        let result = try await verifyRequest(try ProgramRunner.temporaryFile(request), options)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Holder sees: C=US, CN=swift-mdoc Demo Reader, trusted through C=US, CN=swift-mdoc Demo Reader Root"))
        #expect(result.standardOutput.contains("Requested in org.iso.18013.5.1:"))
        // The PKI folder held more than the reader root; the rest was skipped with a note.
        #expect(result.standardError.contains("mdoc-reader: note: --trust-readers"))
    }

    @Test func anAnonymousRequestIsNotAuthenticated() async throws {
        let (request, transcript) = try Self.readerMadeRequest(signed: false)
        let options = ["--transcript", try ProgramRunner.temporaryFile(transcript), "--trust-readers", "Certs/demo/reader-root.pem"]
        let result = try await verifyRequest(try ProgramRunner.temporaryFile(request), options)
        #expect(result.status == 9)
        #expect(result.standardOutput.contains("ANONYMOUS (no reader authentication)"))
        #expect(result.standardError.contains("a DocRequest carries no readerAuth: the reader is anonymous"))
    }

    @Test func unusableInputsEndWithTheirCodes() async throws {
        let notARequest = try await verifyRequest("\(Self.v)/device_response.hex", annexD)
        #expect(notARequest.status == 2)
        #expect(notARequest.standardError.contains("not a DeviceRequest"))
        let badTranscript = try await verifyRequest(
            "\(Self.v)/device_request.hex", ["--transcript", "\(Self.v)/device_engagement.hex", "--trust-readers", "\(Self.v)/reader_root_cert.hex"])
        #expect(badTranscript.status == 7)
        #expect(badTranscript.standardError.contains("--transcript"))
        let leafAsRoot = try await verifyRequest(
            "\(Self.v)/device_request.hex", ["--transcript", "\(Self.v)/session_transcript_bytes.hex", "--trust-readers", "\(Self.v)/reader_cert.hex"])
        #expect(leafAsRoot.status == 7)
        // Nothing names reader roots: no option, no MDOC_TRUST_READERS, no trust store.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("verify-request-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let noTrust = try await ProgramRunner.run(
            "mdoc-reader", ["verify-request", "\(Self.v)/device_request.hex", "--transcript", "\(Self.v)/session_transcript_bytes.hex"],
            environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "MDOC_TRUST_READERS": ""])
        #expect(noTrust.status == 64)
        #expect(noTrust.standardError.contains("give --trust-readers with the reader root certificates to trust, set MDOC_TRUST_READERS"))
    }

    @Test func withoutTrustReadersItTrustsTheReaderRootsAHolderWould() async throws {
        let result = try await ProgramRunner.run(
            "mdoc-reader", ["verify-request", "\(Self.v)/device_request.hex", "--transcript", "\(Self.v)/session_transcript_bytes.hex"] + validTime,
            environment: ["MDOC_TRUST_READERS": "\(Self.v)/reader_root_cert.hex"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("mdoc-reader: trusting the reader roots of MDOC_TRUST_READERS"))
    }
}
