import MdocCBOR
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

/// The document signer's extended key usage per doc type (ISO/IEC 18013-5 Annex B Table B.3 for
/// the mDL; the ARF PID Rulebook and ISO/IEC TS 23220-4 for others), through whole DeviceResponse
/// verifications of documents whose document signers carry each ecosystem's purposes.
@Suite struct DocumentSignerPolicyTests {
    static let pidNameSpace = "eu.europa.ec.eudi.pid.1"

    /// A PKI whose document signer carries exactly `purposes`.
    static func pki(documentSignerPurposes purposes: [String]) throws -> TestPKI {
        let extensions = TestPKI.documentSignerExtensions.map { entry in
            entry.0 == "extendedKeyUsage" ? (entry.0, "critical," + purposes.joined(separator: ",")) : entry
        }
        return try TestPKI(documentSignerExtensions: extensions)
    }

    /// An mdoc of `docType` from `pki`.
    static func mdoc(_ docType: String, pki: TestPKI) throws -> TestMdoc {
        var mdoc = try TestMdoc(pki: pki)
        mdoc.docType = docType
        if docType == DocType.eudiPID {
            mdoc.issuerItems = [
                (pidNameSpace, TestMdoc.item(digestID: 0, "family_name", "Mustermann")),
                (pidNameSpace, TestMdoc.item(digestID: 1, "age_over_18", true)),
            ]
        }
        return mdoc
    }

    /// The verification of `mdoc` under `policy`.
    static func verify(_ mdoc: TestMdoc, policy: DocumentSignerPolicy = .standard) throws -> VerificationReport {
        try DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], documentSignerPolicy: policy, sessionTranscript: mdoc.transcript)
            .verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
    }

    static func issuerCertificateCheck(_ report: VerificationReport) throws -> VerificationCheck {
        try #require(report.documents.first?.checks.first { $0.kind == .issuerCertificate })
    }

    @Test func standardRulesPerDocType() {
        let policy = DocumentSignerPolicy.standard
        #expect(policy.rule(for: DocType.mDL).acceptedExtendedKeyUsages == ["1.0.18013.5.1.2"])
        #expect(policy.rule(for: DocType.eudiPID).acceptedExtendedKeyUsages == ["1.3.130.2.0.0.1.2", "1.0.23220.4.1.2", "1.0.18013.5.1.2"])
        #expect(policy.rule(for: "eu.europa.ec.av.1").name == "EU age verification")
        #expect(policy.rule(for: "eu.europa.ec.av.1").acceptedExtendedKeyUsages == DocumentSignerRule.eudiPID.acceptedExtendedKeyUsages)
        let other = policy.rule(for: "org.iso.23220.photoid.1")
        #expect(other == .mdoc)
        #expect(other.acceptedExtendedKeyUsages == ["1.0.18013.5.1.2", "1.0.23220.4.1.2", "1.3.130.2.0.0.1.2"])
        #expect(!other.acceptedExtendedKeyUsages.contains(CertificateProfile.readerAuthenticationOID))
        #expect("\(policy.rule(for: DocType.mDL))" == "the ISO/IEC 18013-5 mDL rule (1.0.18013.5.1.2)")
    }

    @Test func acceptAddsPurposesForOneDocTypeOnly() throws {
        var policy = DocumentSignerPolicy.standard
        try policy.accept("1.2.3.4", forDocType: "org.example.membership.1")
        try policy.accept("1.2.3.4", forDocType: "org.example.membership.1")
        try policy.accept("1.0.18013.5.1.2", forDocType: "org.example.membership.1")
        let rule = policy.rule(for: "org.example.membership.1")
        #expect(rule.addedExtendedKeyUsages == ["1.2.3.4", "1.0.18013.5.1.2"])
        #expect(rule.acceptedExtendedKeyUsages == DocumentSignerRule.mdoc.standardExtendedKeyUsages + ["1.2.3.4"])
        #expect("\(rule)".hasSuffix("; added: 1.2.3.4)"))
        #expect(policy.rule(for: "org.example.other.1").addedExtendedKeyUsages.isEmpty)
        #expect(policy.rule(for: DocType.mDL) == .mDL)
    }

    @Test(arguments: [("", "1.2.3"), ("org.example\u{7}", "1.2.3"), ("org.example", "1.2.x"), ("org.example", "3.1"), ("org.example", "1")])
    func acceptRefusesBadInput(docType: String, purpose: String) {
        var policy = DocumentSignerPolicy.standard
        #expect(throws: CryptoError.self) { try policy.accept(purpose, forDocType: docType) }
        #expect(policy == .standard)
    }

    @Test func pidSignedByAnEUDIDocumentSignerVerifies() throws {
        let pki = try Self.pki(documentSignerPurposes: [CertificateProfile.eudiPIDDocumentSignerOID])
        let report = try Self.verify(try Self.mdoc(DocType.eudiPID, pki: pki))
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.documentSignerRule == .eudiPID)
        let detail = try Self.issuerCertificateCheck(report).detail
        #expect(detail.contains("extendedKeyUsage 1.3.130.2.0.0.1.2 accepted by the EUDI PID rule"), "\(detail)")
    }

    @Test func mDLSignedByAnEUDIDocumentSignerFailsTheMDLRule() throws {
        let pki = try Self.pki(documentSignerPurposes: [CertificateProfile.eudiPIDDocumentSignerOID])
        let report = try Self.verify(try Self.mdoc(DocType.mDL, pki: pki))
        #expect(report.outcome == .issuerAuthenticationFailed)
        let failures = report.documents.flatMap(\.failures)
        #expect(failures.map(\.failureCode) == [.certificate(.extendedKeyUsage)], "\(report.failureSummary)")
        let reason = failures.first?.failureReason ?? ""
        #expect(reason.contains("extendedKeyUsage [1.3.130.2.0.0.1.2] lacks 1.0.18013.5.1.2"), "\(reason)")
        #expect(reason.contains("which the ISO/IEC 18013-5 mDL rule (1.0.18013.5.1.2) requires"), "\(reason)")
        #expect(report.documents.first?.documentSignerRule == .mDL)
        #expect(report.documents.first?.elements.allSatisfy { !$0.issuerAuthenticated && !$0.verified } == true)
    }

    @Test func mDLSignedByADocumentSignerWithBothPurposesVerifies() throws {
        let pki = try Self.pki(documentSignerPurposes: [CertificateProfile.mdocDocumentSignerOID, CertificateProfile.documentSignerOID])
        let report = try Self.verify(try Self.mdoc(DocType.mDL, pki: pki))
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(try Self.issuerCertificateCheck(report).detail.contains("extendedKeyUsage 1.0.18013.5.1.2 accepted by the ISO/IEC 18013-5 mDL rule"))
    }

    @Test func unknownDocTypeAcceptsEveryKnownDocumentSignerPurpose() throws {
        for purpose in CertificateProfile.documentSigner.knownExtendedKeyUsageOIDs {
            let report = try Self.verify(try Self.mdoc("org.iso.23220.photoid.1", pki: try Self.pki(documentSignerPurposes: [purpose])))
            #expect(report.outcome == .verified, "\(purpose): \(report.failureSummary)")
            #expect(report.documents.first?.documentSignerRule == .mdoc)
        }
        // A reader authentication certificate under the same IACA does not sign documents.
        let reader = try Self.pki(documentSignerPurposes: [CertificateProfile.readerAuthenticationOID])
        let report = try Self.verify(try Self.mdoc("org.iso.23220.photoid.1", pki: reader))
        #expect(report.documents.flatMap(\.failures).map(\.failureCode) == [.certificate(.extendedKeyUsage)])
    }

    @Test func aPurposeOfItsOwnNeedsToBeAccepted() throws {
        let pki = try Self.pki(documentSignerPurposes: ["1.3.6.1.4.1.99999.1"])
        let mdoc = try Self.mdoc("org.example.membership.1", pki: pki)
        let refused = try Self.verify(mdoc)
        #expect(refused.documents.flatMap(\.failures).map(\.failureCode) == [.certificate(.extendedKeyUsage)])
        #expect(refused.failureSummary.first?.contains("lacks one of 1.0.18013.5.1.2, 1.0.23220.4.1.2, 1.3.130.2.0.0.1.2") == true)

        var policy = DocumentSignerPolicy.standard
        try policy.accept("1.3.6.1.4.1.99999.1", forDocType: "org.example.membership.1")
        let accepted = try Self.verify(mdoc, policy: policy)
        #expect(accepted.outcome == .verified, "\(accepted.failureSummary)")
        #expect(accepted.documents.first?.documentSignerRule?.addedExtendedKeyUsages == ["1.3.6.1.4.1.99999.1"])
        // Accepted for another doc type, it does not help this one.
        var elsewhere = DocumentSignerPolicy.standard
        try elsewhere.accept("1.3.6.1.4.1.99999.1", forDocType: DocType.mDL)
        #expect(try Self.verify(mdoc, policy: elsewhere).outcome == .issuerAuthenticationFailed)
    }

    @Test func setRuleReplacesTheRuleOfOneDocType() throws {
        let closed = DocumentSignerRule(name: "closed ecosystem", standardExtendedKeyUsages: ["1.3.6.1.4.1.99999.2"])
        var policy = DocumentSignerPolicy.standard
        try policy.accept("1.3.6.1.4.1.99999.3", forDocType: DocType.mDL)
        try policy.setRule(closed, forDocType: DocType.mDL)
        #expect(policy.rule(for: DocType.mDL).name == "closed ecosystem")
        #expect(policy.rule(for: DocType.mDL).acceptedExtendedKeyUsages == ["1.3.6.1.4.1.99999.2", "1.3.6.1.4.1.99999.3"])
        #expect(policy.rule(for: DocType.eudiPID) == .eudiPID)
        #expect(policy.rules[DocType.mDL] == closed)

        // The standard mDL document signer no longer signs mDLs; one of the ecosystem does.
        let standardSigner = try Self.verify(try Self.mdoc(DocType.mDL, pki: try TestPKI()), policy: policy)
        #expect(standardSigner.documents.flatMap(\.failures).map(\.failureCode) == [.certificate(.extendedKeyUsage)])
        #expect(standardSigner.failureSummary.first?.contains("which the closed ecosystem rule (1.3.6.1.4.1.99999.2; added: 1.3.6.1.4.1.99999.3) requires") == true)
        let pki = try Self.pki(documentSignerPurposes: ["1.3.6.1.4.1.99999.2"])
        let ecosystemSigner = try Self.verify(try Self.mdoc(DocType.mDL, pki: pki), policy: policy)
        #expect(ecosystemSigner.outcome == .verified, "\(ecosystemSigner.failureSummary)")
        #expect(ecosystemSigner.documents.first?.documentSignerRule?.name == "closed ecosystem")
    }

    @Test func setRuleRefusesBadInput() {
        var policy = DocumentSignerPolicy.standard
        #expect(throws: CryptoError.self) {
            try policy.setRule(DocumentSignerRule(name: "bad", standardExtendedKeyUsages: ["1.2.x"]), forDocType: "org.example")
        }
        #expect(throws: CryptoError.self) { try policy.setRule(.mDL, forDocType: "") }
        #expect(policy == .standard)
    }
}
