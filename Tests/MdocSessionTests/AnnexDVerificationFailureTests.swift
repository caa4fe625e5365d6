import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("DeviceResponseVerifier negative cases on the Annex D response (ISO/IEC 18013-5 9.3.1, 9.1.3)")
struct AnnexDVerificationFailureTests {
    /// 2021-01-01T00:00:00Z: everything in Annex D is valid.
    static let time = Date(timeIntervalSince1970: 1_609_459_200)

    static func certificate(_ name: String) throws -> Certificate {
        try Certificate(derEncoded: Vectors.annexD(name))
    }

    static func privateKey(_ name: String) throws -> PrivateKey {
        try PrivateKey(rawRepresentation: Vectors.annexD("\(name)_private"), curve: .p256)
    }

    static func transcript() throws -> SessionTranscriptBinding {
        try SessionTranscriptBinding(encoded: Vectors.annexD("session_transcript_bytes"))
    }

    /// The Annex D verifier: IACA trusted, the session's transcript and EReaderKey.
    static func verifier(
        trust: String = "iaca_cert", transcript: SessionTranscriptBinding?? = nil, readerKey: String? = "eReaderKey"
    ) throws -> DeviceResponseVerifier {
        DeviceResponseVerifier(
            trustAnchors: [try certificate(trust)],
            sessionTranscript: try transcript ?? Self.transcript(),
            readerKey: try readerKey.map { try privateKey($0) })
    }

    /// The report verified the issuer data and skipped device authentication, saying why.
    static func expectDeviceAuthenticationSkipped(
        _ report: VerificationReport, reasonContaining text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(report.outcome == .deviceAuthenticationNotChecked, sourceLocation: sourceLocation)
        #expect(report.failureSummary.isEmpty, sourceLocation: sourceLocation)
        let device = checks(report, .deviceAuthentication)
        #expect(device.count == 1, sourceLocation: sourceLocation)
        guard case .skipped(let reason)? = device.first?.outcome else {
            Issue.record("expected a skipped device authentication check, got \(device)", sourceLocation: sourceLocation)
            return
        }
        #expect(reason.contains(text), sourceLocation: sourceLocation)
    }

    static func checks(_ report: VerificationReport, _ kind: VerificationCheck.Kind) -> [VerificationCheck] {
        report.documents.flatMap(\.checks).filter { $0.kind == kind }
    }

    @Test("the checks of the intact response say what they found, in words made when read")
    func passedDetails() throws {
        let report = try Self.verifier().verify(Vectors.annexD("device_response"), at: Self.time)
        #expect(report.outcome == .verified)
        #expect(Self.checks(report, .issuerCertificate).first?.detail
            == "chains to \"CN=utopia iaca, C=US\" under the document signer profile; extendedKeyUsage 1.0.18013.5.1.2 accepted by the ISO/IEC 18013-5 mDL rule (1.0.18013.5.1.2)")
        #expect(Self.checks(report, .validity).first?.detail
            == "valid from 2020-10-01T13:30:02Z until 2021-10-01T13:30:02Z, checked at 2021-01-01T00:00:00Z")
    }

    @Test("a tampered element value (\"Doe\" -> \"Foe\") fails its value digest")
    func tamperedElement() throws {
        let doe: [UInt8] = [0x63] + Array("Doe".utf8)
        let tampered = try Vectors.annexD("device_response").replacingOnly(doe, with: [0x63] + Array("Foe".utf8))
        let report = try Self.verifier().verify(tampered, at: Self.time)
        #expect(report.outcome == .issuerAuthenticationFailed)
        let failed = report.documents.flatMap(\.failures)
        #expect(failed.count == 1, "\(report.failureSummary)")
        #expect(failed.first?.kind == .valueDigest)
        #expect(failed.first?.subject == .element(nameSpace: "org.iso.18013.5.1", identifier: "family_name"))
        #expect(failed.first?.failureReason?.contains("digestID 0") == true)
        #expect(Self.checks(report, .valueDigest).filter(\.passed).count == 5)
        let familyName = report.documents.first?.elements.first { $0.identifier == "family_name" }
        #expect(familyName?.value == "Foe")
        #expect(familyName?.issuerAuthenticated == false)
        #expect(report.documents.first?.elements.filter(\.issuerAuthenticated).count == 5)
        // One tampered element fails the document: the five that match are not verified either.
        #expect(report.documents.first?.elements.contains { $0.verified } == false)
    }

    @Test("a flipped bit in the IssuerAuth signature fails the issuer signature")
    func brokenIssuerSignature() throws {
        let bytes = Vectors.annexD("device_response")
        let signature = try #require(try DeviceResponse(encoded: bytes).documents?.first?.issuerSigned.issuerAuth.signature)
        var flipped = signature
        flipped[signature.count - 1] ^= 0x01
        let report = try Self.verifier().verify(try bytes.replacingOnly(signature, with: flipped), at: Self.time)
        #expect(report.outcome == .issuerAuthenticationFailed)
        let failed = report.documents.flatMap(\.failures)
        #expect(failed.map(\.kind) == [.issuerSignature], "\(report.failureSummary)")
        #expect(failed.first?.failureReason?.contains("utopia ds") == true)
        #expect(Self.checks(report, .issuerCertificate).first?.passed == true)
    }

    @Test("the wrong reader key (EDeviceKey instead of EReaderKey) fails device authentication")
    func wrongReaderKey() throws {
        let report = try Self.verifier(readerKey: "eDeviceKey").verify(Vectors.annexD("device_response"), at: Self.time)
        #expect(report.outcome == .deviceAuthenticationFailed)
        let failed = report.documents.flatMap(\.failures)
        #expect(failed.map(\.kind) == [.deviceAuthentication], "\(report.failureSummary)")
        #expect(report.documents.first?.deviceAuthenticationMethod == .mac)
        #expect(Self.checks(report, .valueDigest).allSatisfy { $0.passed })
    }

    @Test("a transcript from another engagement fails device authentication")
    func wrongTranscript() throws {
        let annexD = try Self.transcript().transcript
        let other = SessionTranscriptBinding(SessionTranscript(
            deviceEngagementBytes: try EmbeddedCBOR(bytes: Vectors.annexD("device_engagement")),
            eReaderKeyBytes: annexD.eReaderKeyBytes,
            handover: .qr))
        let report = try Self.verifier(transcript: other).verify(Vectors.annexD("device_response"), at: Self.time)
        #expect(report.outcome == .deviceAuthenticationFailed)
        let failed = report.documents.flatMap(\.failures)
        #expect(failed.map(\.kind) == [.deviceAuthentication], "\(report.failureSummary)")
    }

    @Test("an untrusted anchor (the reader root) fails the issuer certificate")
    func untrustedAnchor() throws {
        let report = try Self.verifier(trust: "reader_root_cert").verify(Vectors.annexD("device_response"), at: Self.time)
        #expect(report.outcome == .issuerAuthenticationFailed)
        let certificateChecks = Self.checks(report, .issuerCertificate)
        #expect(!certificateChecks.isEmpty)
        #expect(certificateChecks.allSatisfy { $0.failed }, "\(certificateChecks)")
        #expect(report.documents.first?.trustAnchor == nil)
        #expect(report.documents.first?.documentSigner?.contains("utopia ds") == true)
        #expect(report.documents.flatMap(\.failures).allSatisfy { $0.kind == .issuerCertificate }, "\(report.failureSummary)")
    }

    @Test("elements whose digests match an untrusted or expired MSO are not authenticated")
    func elementsOfAnUntrustedMSOAreNotAuthenticated() throws {
        let response = Vectors.annexD("device_response")
        let verified = try Self.verifier().verify(response, at: Self.time)
        #expect(verified.documents.first?.elements.count == 6)
        #expect(verified.documents.first?.elements.allSatisfy { $0.issuerAuthenticated && $0.verified } == true)
        for report in [
            try Self.verifier(trust: "reader_root_cert").verify(response, at: Self.time),
            try Self.verifier().verify(response, at: Date(timeIntervalSince1970: 1_795_219_200)),  // 2026-11-21
        ] {
            let elements = try #require(report.documents.first?.elements)
            #expect(elements.count == 6)
            #expect(elements.allSatisfy { !$0.issuerAuthenticated && !$0.verified })
            // The digests themselves still match; only the MSO is not to be relied on.
            #expect(Self.checks(report, .valueDigest).allSatisfy { $0.passed })
        }
    }

    @Test("a response whose status is not OK is not accepted even with documents (8.3.2.1.2.3)")
    func errorStatusWithDocuments() throws {
        var response = Vectors.annexD("device_response")
        // The response ends with "status": 0; make it 10 (general error).
        #expect(Array(response.suffix(8)) == [0x66] + Array("status".utf8) + [0x00])
        response[response.count - 1] = 0x0a
        let report = try Self.verifier().verify(response, at: Self.time)
        #expect(report.status == 10)
        #expect(report.outcome == .issuerAuthenticationFailed)
        #expect(Self.checks(report, .structure).map(\.subject) == [.responseStatus])
        #expect(Self.checks(report, .structure).allSatisfy { $0.failed })
        // The status check comes first, and no element of the document reads as verified or
        // issuer-authenticated, as for any failed check of issuer data authentication.
        let document = try #require(report.documents.first)
        #expect(document.checks.first?.subject == .responseStatus)
        #expect(document.elements.count == 6)
        #expect(document.elements.allSatisfy { !$0.verified && !$0.issuerAuthenticated })
    }

    @Test("without a transcript device authentication is skipped: deviceAuthenticationNotChecked")
    func noTranscript() throws {
        let verifier = DeviceResponseVerifier(
            trustAnchors: [try Self.certificate("iaca_cert")], readerKey: try Self.privateKey("eReaderKey"))
        let report = try verifier.verify(Vectors.annexD("device_response"), at: Self.time)
        Self.expectDeviceAuthenticationSkipped(report, reasonContaining: "transcript")
    }

    @Test("a DeviceMac without the reader key is skipped: deviceAuthenticationNotChecked")
    func macWithoutReaderKey() throws {
        let report = try Self.verifier(readerKey: nil).verify(Vectors.annexD("device_response"), at: Self.time)
        Self.expectDeviceAuthenticationSkipped(report, reasonContaining: "EReaderKey")
    }
}
