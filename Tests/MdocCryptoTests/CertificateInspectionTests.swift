import MdocCrypto
import MdocTestSupport
import Testing

/// What a person inspecting a certificate is shown: every extension with OpenSSL's reading of
/// it, names for the mdoc purposes, and which Annex B profile the certificate fits, checked by
/// the same rules as chain validation.
@Suite("Certificate inspection: extensions, purpose names, Annex B profile conformance")
struct CertificateInspectionTests {
    static func annexD(_ name: String) throws -> Certificate {
        try Certificate(derEncoded: Vectors.annexD(name))
    }

    static func failedChecks(_ result: CertificateValidationResult) -> Set<CertificateCheck> {
        Set(result.failures.map(\.check))
    }

    @Test func listsEveryExtensionOfTheAnnexDDocumentSigner() throws {
        let ds = try Self.annexD("ds_cert")
        #expect(ds.version == 3)
        let extensions = ds.extensions
        #expect(extensions.map(\.oid) == ["2.5.29.18", "2.5.29.31", "2.5.29.14", "2.5.29.35", "2.5.29.15", "2.5.29.37"])
        #expect(extensions.map(\.name) == [
            "issuerAltName", "crlDistributionPoints", "subjectKeyIdentifier", "authorityKeyIdentifier", "keyUsage", "extendedKeyUsage",
        ])
        #expect(extensions.map(\.isCritical) == [false, false, false, false, true, true])
        #expect(extensions[0].text == "email:example@example.com")
        // OpenSSL prints "Full Name:" and the name on two lines; they are joined with a space.
        #expect(extensions[1].text == "Full Name: DNS:example.com")
        // The keyUsage extnValue is the DER BIT STRING with digitalSignature set.
        #expect(extensions[4].value == [0x03, 0x02, 0x07, 0x80])
    }

    @Test func anExtensionOpenSSLDoesNotKnowHasNoNameAndNoText() throws {
        let root = TestPKI.root()
        let leaf = TestPKI.issue(
            "odd", issuer: root,
            extensions: TestPKI.leafExtensions() + [("1.2.3.4", "ASN1:UTF8String:hello")])
        let odd = try #require(leaf.certificate.extensions.first { $0.oid == "1.2.3.4" })
        #expect(odd.name == nil)
        #expect(odd.text == nil)
        #expect(odd.value == [0x0c, 0x05] + Array("hello".utf8))
    }

    @Test func namesTheMdocPurposesAndFallsBackToOpenSSL() {
        #expect(ObjectIdentifierNames.name(of: "1.0.18013.5.1.2")?.hasPrefix("id-mdl-kp-mdlDS") == true)
        #expect(ObjectIdentifierNames.name(of: "1.0.18013.5.1.6")?.hasPrefix("id-mdl-kp-mdlReaderAuth") == true)
        #expect(ObjectIdentifierNames.name(of: "1.3.130.2.0.0.1.2")?.contains("EUDI PID document signer") == true)
        #expect(ObjectIdentifierNames.name(of: "1.0.23220.4.1.2")?.contains("23220-4") == true)
        #expect(ObjectIdentifierNames.name(of: "1.3.6.1.5.5.7.3.1") == "TLS Web Server Authentication")
        #expect(ObjectIdentifierNames.name(of: "1.2.3.4.5.6.7") == nil)
    }

    @Test func theAnnexDCertificatesFitTheirProfiles() throws {
        let iaca = try Self.annexD("iaca_cert")
        let ds = try Self.annexD("ds_cert")
        let readerRoot = try Self.annexD("reader_root_cert")
        let reader = try Self.annexD("reader_cert")
        #expect(iaca.profileConformance(as: .iaca).failures.isEmpty)
        #expect(ds.profileConformance(as: .documentSigner, issuer: iaca).failures.isEmpty)
        #expect(readerRoot.profileConformance(as: .readerRoot).failures.isEmpty)
        #expect(reader.profileConformance(as: .readerAuthentication, issuer: readerRoot).failures.isEmpty)
        // Every check ran and passed: six for an end-entity certificate, six for a root.
        #expect(ds.profileConformance(as: .documentSigner, issuer: iaca).passedChecks.count == 6)
        #expect(iaca.profileConformance(as: .iaca).passedChecks.count == 6)
        #expect(ds.profileConformance(as: .documentSigner).path == [ds])
    }

    @Test func aCertificateInTheWrongRoleFailsTheChecksThatSayWhy() throws {
        let iaca = try Self.annexD("iaca_cert")
        let ds = try Self.annexD("ds_cert")
        let reader = try Self.annexD("reader_cert")
        #expect(Self.failedChecks(ds.profileConformance(as: .readerAuthentication)) == [.extendedKeyUsage])
        #expect(Self.failedChecks(reader.profileConformance(as: .documentSigner)) == [.extendedKeyUsage])
        #expect(Self.failedChecks(iaca.profileConformance(as: .documentSigner)) == [.keyUsage, .extendedKeyUsage, .basicConstraints, .keyIdentifiers])
        #expect(Self.failedChecks(ds.profileConformance(as: .iaca)) == [.basicConstraints, .pathLength, .keyUsage])
    }

    @Test func theIssuerGivenIsCheckedAgainstTheAuthorityKeyIdentifier() throws {
        let ds = try Self.annexD("ds_cert")
        let readerRoot = try Self.annexD("reader_root_cert")
        let result = ds.profileConformance(as: .documentSigner, issuer: readerRoot)
        #expect(Self.failedChecks(result) == [.keyIdentifiers])
    }

    @Test func profileDeviationsAreNamed() {
        let root = TestPKI.root()
        let caAsSigner = TestPKI.issue(
            "ca signer", issuer: root,
            extensions: [("basicConstraints", "critical,CA:TRUE")] + TestPKI.leafExtensions())
        #expect(Self.failedChecks(caAsSigner.certificate.profileConformance(as: .documentSigner, issuer: root.certificate)) == [.basicConstraints])
        let noIdentifiers = TestPKI.issue(
            "no identifiers", issuer: root,
            extensions: [("keyUsage", "critical,digitalSignature"), ("extendedKeyUsage", "critical,1.0.18013.5.1.2")])
        #expect(Self.failedChecks(noIdentifiers.certificate.profileConformance(as: .documentSigner)) == [.keyIdentifiers])
        let criticalUnknown = TestPKI.issue(
            "critical", issuer: root,
            extensions: TestPKI.leafExtensions() + [("1.2.3.4", "critical,ASN1:NULL")])
        #expect(Self.failedChecks(criticalUnknown.certificate.profileConformance(as: .documentSigner)) == [.criticalExtension])
    }

    @Test func theValidityPeriodIsNotPartOfTheProfile() {
        let expired = TestPKI.root(notBefore: TestPKI.defaultNotBefore, notAfter: TestPKI.referenceTime)
        let result = expired.certificate.profileConformance(as: .iaca)
        #expect(result.failures.isEmpty)
        #expect(!result.passedChecks.contains { $0.check == .validity })
    }
}
