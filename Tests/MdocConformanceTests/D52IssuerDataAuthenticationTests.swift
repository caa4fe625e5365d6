import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("ISO/IEC 18013-5 Annex D.5.2: issuer data authentication")
struct D52IssuerDataAuthenticationTests {
    // MARK: Structures

    @Test("D.5.2 the IssuerAuth COSE_Sign1 decodes and re-encodes byte-exactly")
    func issuerAuth() throws {
        let bytes = AnnexD.bytes("issuer_auth")
        let issuerAuth = try COSESign1(encoded: bytes)
        #expect(issuerAuth.encoded() == bytes)
        #expect(issuerAuth.algorithm == .es256)
        #expect(issuerAuth.protectedHeaderBytes == [0xa1, 0x01, 0x26])
        #expect(issuerAuth.x5chain == [AnnexD.bytes("ds_cert")])
        #expect(issuerAuth.payload == CBORBytes(AnnexD.bytes("mobile_security_object_bytes")))
        #expect(Hex.encode(issuerAuth.signature).hasPrefix("59e64205"))
        #expect(Hex.encode(issuerAuth.signature).hasSuffix("cb2e"))
    }

    @Test("D.5.2 the Sig_structure is built from the exact protected header and payload bytes")
    func sigStructure() throws {
        let issuerAuth = try COSESign1(encoded: AnnexD.bytes("issuer_auth"))
        #expect(issuerAuth.toBeSigned() == AnnexD.bytes("issuer_auth_sig_structure"))
        let documentSigner = try AnnexD.certificate("ds_cert")
        #expect(issuerAuth.isValidSignature(publicKey: documentSigner.publicKey))
    }

    @Test("D.5.2 MobileSecurityObjectBytes and the MSO decode and re-encode byte-exactly")
    func mobileSecurityObject() throws {
        let issuerSigned = try IssuerSigned(encoded: AnnexD.bytes("issuer_signed"))
        let embedded = try issuerSigned.mobileSecurityObjectBytes()
        #expect(embedded.cbor.encoded() == AnnexD.bytes("mobile_security_object_bytes"))
        #expect(embedded.bytes == AnnexD.bytes("mobile_security_object"))

        let bytes = AnnexD.bytes("mobile_security_object")
        let mso = try MobileSecurityObject(encoded: bytes)
        #expect(mso.encoded() == bytes)
        #expect(mso.version == "1.0")
        #expect(mso.digestAlgorithm == "SHA-256")
        #expect(mso.docType == AnnexD.docType)
        #expect(mso.valueDigests.keys == [AnnexD.nameSpace, "org.iso.18013.5.1.US"])
        #expect(mso.valueDigests[AnnexD.nameSpace]?.keys == Array(0...12))
        #expect(mso.valueDigests["org.iso.18013.5.1.US"]?.keys == Array(0...3))
        #expect(try mso.deviceKeyInfo.deviceKey.publicKey() == AnnexD.publicKey("sDeviceKey"))
        #expect(mso.validityInfo.signed.text == "2020-10-01T13:30:02Z")
        #expect(mso.validityInfo.validFrom.text == "2020-10-01T13:30:02Z")
        #expect(mso.validityInfo.validUntil.text == "2021-10-01T13:30:02Z")
        #expect(mso.validityInfo.encoded() == ValidityInfo(
            signed: mso.validityInfo.signed, validFrom: mso.validityInfo.validFrom,
            validUntil: mso.validityInfo.validUntil).encoded())
    }

    @Test("D.5.2 every disclosed IssuerSignedItemBytes hashes, as received, to its MSO value digest")
    func valueDigests() throws {
        let issuerSigned = try IssuerSigned(encoded: AnnexD.bytes("issuer_signed"))
        let mso = try issuerSigned.mobileSecurityObjectBytes().value
        let digests = try #require(mso.valueDigests[AnnexD.nameSpace])
        let items = try #require(issuerSigned.nameSpaces?[AnnexD.nameSpace])
        for item in items {
            #expect(CBORBytes(DigestAlgorithm.sha256.hash(item.cbor.encoded())) == digests[item.value.digestID], "\(item.value.elementIdentifier)")
        }
    }

    // MARK: DeviceResponseVerifier

    @Test("D.5.2 DeviceResponseVerifier verifies the Annex D response fully at 2021-01-01T00:00:00Z")
    func verifiesAtValidTime() throws {
        let report = try Self.verifier().verify(AnnexD.bytes("device_response"), at: AnnexD.validTime)
        Self.expectFullyVerified(report)
    }

    @Test("D.5.2 with the bare SessionTranscript the same full verification passes")
    func verifiesWithBareTranscript() throws {
        let transcript = try SessionTranscriptBinding(encoded: AnnexD.bytes("session_transcript"))
        let verifier = DeviceResponseVerifier(
            trustAnchors: [try AnnexD.certificate("iaca_cert")], sessionTranscript: transcript,
            readerKey: try AnnexD.privateKey("eReaderKey"))
        Self.expectFullyVerified(try verifier.verify(AnnexD.bytes("device_response"), at: AnnexD.validTime))
    }

    @Test("D.5.2 at 2026-11-21T00:00:00Z the expired \"utopia ds\" certificate fails issuer authentication")
    func failsWhenDocumentSignerExpired() throws {
        let report = try Self.verifier().verify(AnnexD.bytes("device_response"), at: AnnexD.laterTime)
        #expect(report.outcome == .issuerAuthenticationFailed)
        let failed = report.checks(.issuerCertificate).filter(\.failed)
        #expect(failed.count == 1)
        let check = try #require(failed.first)
        #expect(check.subject == .certificate(try AnnexD.certificate("ds_cert")))
        #expect(check.failureReason?.contains("validity") == true, "\(check)")
        #expect(check.failureReason?.contains("expired") == true, "\(check)")
        // The data itself is intact: the signature still verifies with the DS key.
        #expect(report.checks(.issuerSignature).allSatisfy { $0.passed })
        #expect(report.checks(.valueDigest).allSatisfy { $0.passed })
        // The MSO expired 2021-10-01T13:30:02Z as well.
        #expect(report.checks(.validity).first?.failed == true)
        #expect(report.failureSummary.contains { $0.hasPrefix("documents[0] (\(AnnexD.docType)): issuer certificate") })
    }

    /// The verifier of the Annex D session: trust the IACA, the session transcript as received,
    /// the reader's EReaderKey for DeviceMac.
    static func verifier() throws -> DeviceResponseVerifier {
        DeviceResponseVerifier(
            trustAnchors: [try AnnexD.certificate("iaca_cert")],
            sessionTranscript: try AnnexD.transcript(),
            readerKey: try AnnexD.privateKey("eReaderKey"))
    }

    /// Every check of a full verification of the Annex D response passed.
    static func expectFullyVerified(_ report: VerificationReport, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(report.outcome == .verified, "\(report.failureSummary)", sourceLocation: sourceLocation)
        #expect(report.failureSummary.isEmpty, sourceLocation: sourceLocation)
        #expect(report.version == "1.0", sourceLocation: sourceLocation)
        #expect(report.status == 0, sourceLocation: sourceLocation)
        #expect(report.time == AnnexD.validTime, sourceLocation: sourceLocation)
        #expect(report.documents.count == 1, sourceLocation: sourceLocation)
        guard let document = report.documents.first else { return }
        #expect(document.outcome == .verified, sourceLocation: sourceLocation)
        #expect(document.docType == AnnexD.docType, sourceLocation: sourceLocation)
        #expect(document.checks.allSatisfy { $0.passed }, "\(document.checks)", sourceLocation: sourceLocation)
        #expect(document.documentSigner?.contains("utopia ds") == true, sourceLocation: sourceLocation)
        #expect(document.trustAnchor?.contains("utopia iaca") == true, sourceLocation: sourceLocation)
        #expect(document.deviceAuthenticationMethod == .mac, sourceLocation: sourceLocation)
        // 2021-10-01T13:30:02Z
        #expect(document.validity?.validUntil == Date(timeIntervalSince1970: 1_633_095_002), sourceLocation: sourceLocation)

        let certificate = document.checks.filter { $0.kind == .issuerCertificate }
        #expect(certificate.count == 1 && certificate.allSatisfy { $0.passed }, sourceLocation: sourceLocation)
        #expect(certificate.first?.subject.certificate?.subject.contains("utopia ds") == true, sourceLocation: sourceLocation)
        #expect(document.checks.contains { $0.kind == .issuerSignature && $0.passed }, sourceLocation: sourceLocation)
        #expect(document.checks.contains { $0.kind == .docType && $0.passed }, sourceLocation: sourceLocation)
        #expect(document.checks.contains { $0.kind == .validity && $0.passed }, sourceLocation: sourceLocation)
        #expect(document.checks.contains { $0.kind == .digestAlgorithm && $0.passed }, sourceLocation: sourceLocation)
        let digests = document.checks.filter { $0.kind == .valueDigest }
        #expect(digests.count == 6 && digests.allSatisfy { $0.passed }, sourceLocation: sourceLocation)
        #expect(digests.map(\.subject) == [
            "family_name", "issue_date", "expiry_date", "document_number", "portrait", "driving_privileges",
        ].map { .element(nameSpace: AnnexD.nameSpace, identifier: $0) }, sourceLocation: sourceLocation)
        let device = document.checks.filter { $0.kind == .deviceAuthentication }
        #expect(device.count == 1 && device.allSatisfy { $0.passed }, sourceLocation: sourceLocation)
        #expect(!document.checks.contains { $0.kind == .keyAuthorization }, sourceLocation: sourceLocation)

        #expect(document.elements.count == 6, sourceLocation: sourceLocation)
        #expect(document.elements.allSatisfy { $0.issuerAuthenticated && $0.verified && $0.source == .issuerSigned }, sourceLocation: sourceLocation)
        let familyName = document.elements.first { $0.identifier == "family_name" }
        #expect(familyName?.value == "Doe", sourceLocation: sourceLocation)
        #expect(familyName?.nameSpace == AnnexD.nameSpace, sourceLocation: sourceLocation)
        #expect(familyName?.digestID == 0, sourceLocation: sourceLocation)
        let documentNumber = document.elements.first { $0.identifier == "document_number" }
        #expect(documentNumber?.value == "123456789", sourceLocation: sourceLocation)
        #expect(documentNumber?.digestID == 7, sourceLocation: sourceLocation)
    }
}
