import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("Negative test material: credentials made to fail verification, and marked so")
struct TestMaterialTests {
    typealias Fixture = IssuanceFixture

    /// Signed before the document signer certificate's validity, and validUntil before validFrom:
    /// what ``DocumentIssuer/issueCredential(docType:nameSpaces:deviceKey:validityInfo:keyAuthorizations:)`` refuses.
    static let brokenValidity = ValidityInfo(
        signed: TDate(TestPKI.notBefore.addingTimeInterval(-Fixture.day)),
        validFrom: TDate(TestPKI.referenceTime), validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(-Fixture.day)))

    @Test("a test credential is issued with the validity as given and keeps its notes through the file")
    func notesRoundTrip() throws {
        let pki = try TestPKI()
        let notes = ["the MSO was signed before the document signer's validity", "validUntil is before validFrom"]
        let credential = try Fixture.issuer(pki).issueTestCredential(
            docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements)], deviceKey: PrivateKey(generating: .p256),
            validityInfo: Self.brokenValidity, testMaterial: notes)
        #expect(credential.testMaterial == notes)
        #expect(credential.mobileSecurityObject.value.validityInfo == Self.brokenValidity)
        #expect(credential.description.hasSuffix(", TEST MATERIAL)"))
        let decoded = try Credential(encoded: credential.encoded())
        #expect(decoded.testMaterial == notes)
        #expect(decoded.encoded() == credential.encoded())
        let keys = try CBOR.decode(credential.encoded()).map(at: .root).entries.compactMap(\.key.textValue).sorted()
        #expect(keys == ["deviceKey", "docType", "issuerSigned", "testMaterial"])
    }

    @Test("test material needs a note saying why, and an empty note is no note")
    func notesRequired() throws {
        let issuer = Fixture.issuer(try TestPKI())
        for notes in [[], [""]] {
            let error = #expect(throws: IssuanceError.self) {
                try issuer.issueTestCredential(
                    docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements)], deviceKey: PrivateKey(generating: .p256),
                    validityInfo: Fixture.validityInfo, testMaterial: notes)
            }
            #expect(error?.code == .invalidTestMaterial)
        }
    }

    @Test("a credential file's testMaterial must be a non-empty array of text")
    func malformedNotes() throws {
        let credential = try Fixture.credential(TestPKI())
        for bad: CBOR in [.array([]), .array([7]), "one note"] {
            guard case .map(var map) = credential.cbor else { return }
            map.append("testMaterial", bad)
            #expect(throws: CBORError.self) { try Credential(cbor: .map(map), at: .root) }
        }
    }

    @Test("each builder deviation fails the chain check it names, and the mark shows in the subject")
    func builderDeviations() throws {
        let pki = try TestPKI()
        let key = try PrivateKey(generating: .p256)
        let expected: [CertificateBuilder.Deviation: CertificateCheck] = [
            .noExtendedKeyUsage: .extendedKeyUsage, .wrongExtendedKeyUsage: .extendedKeyUsage, .noDigitalSignature: .keyUsage,
            .noSubjectKeyIdentifier: .keyIdentifiers, .noAuthorityKeyIdentifier: .keyIdentifiers, .certificateAuthority: .basicConstraints,
        ]
        #expect(Set(expected.keys) == Set(CertificateBuilder.Deviation.allCases))
        for (deviation, check) in expected {
            var subject = CertificateBuilder.DistinguishedName(commonName: "test ds", country: "US")
            subject.organizationalUnits = ["TEST: \(deviation.explanation)"]
            var builder = CertificateBuilder(
                profile: .documentSigner, subject: subject, notValidBefore: TestPKI.notBefore, notValidAfter: TestPKI.notAfter,
                issuerAlternativeName: .uri("https://issuer.example"), crlDistributionPoint: "https://issuer.example/crl")
            builder.deviations = [deviation]
            let certificate = try builder.issued(for: key.publicKey, by: pki.iaca, signingKey: pki.iacaKey)
            #expect(certificate.subject == "C=US, OU=TEST: \(deviation.explanation), CN=test ds")
            let result = CertificateChainValidator(trustAnchors: [pki.iaca]).validate(
                chain: [certificate], profile: .documentSigner, at: TestPKI.referenceTime)
            #expect(Set(result.failures.map(\.check)) == [check], "\(deviation): \(result)")
        }
    }

    @Test("deviations are for end-entity certificates, and not with purposes they replace")
    func builderDeviationMisuse() throws {
        var root = CertificateBuilder(
            profile: .iaca, subject: .init(commonName: "root", country: "US"), notValidBefore: TestPKI.notBefore,
            notValidAfter: TestPKI.notAfter, issuerAlternativeName: .uri("https://issuer.example"), crlDistributionPoint: "https://issuer.example/crl")
        root.deviations = [.noExtendedKeyUsage]
        #expect(throws: CryptoError.self) { try root.selfSigned(key: PrivateKey(generating: .p256)) }
        let pki = try TestPKI()
        var leaf = CertificateBuilder(
            profile: .documentSigner, subject: .init(commonName: "ds", country: "US"), notValidBefore: TestPKI.notBefore,
            notValidAfter: TestPKI.notAfter, issuerAlternativeName: .uri("https://issuer.example"),
            crlDistributionPoint: "https://issuer.example/crl", extendedKeyUsageOIDs: [CertificateProfile.documentSignerOID])
        leaf.deviations = [.wrongExtendedKeyUsage]
        #expect(throws: CryptoError.self) { try leaf.issued(for: PrivateKey(generating: .p256).publicKey, by: pki.iaca, signingKey: pki.iacaKey) }
    }
}
