import MdocCrypto
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Extended key usages beyond ISO/IEC 18013-5's own (ISO/IEC TS 23220-4, the ARF PID Rulebook):
/// document signers built with them, chains validated accepting them, and anchors that are not
/// self-signed roots.
@Suite struct ExtendedKeyUsageTests {
    static let now = CertificateBuilderTests.now

    /// An IACA and a document signer with `purposes` (the profile's own when nil), built by
    /// ``CertificateBuilder``.
    static func documentSigner(purposes: [String]?) throws -> (iaca: Certificate, ds: Certificate) {
        let iacaKey = try PrivateKey(generating: .p256)
        let iaca = try CertificateBuilderTests.builder(.iaca, commonName: "EU IACA").selfSigned(key: iacaKey)
        var builder = CertificateBuilderTests.builder(.documentSigner, commonName: "EU DS")
        builder.extendedKeyUsageOIDs = purposes
        let ds = try builder.issued(for: try PrivateKey(generating: .p256).publicKey, by: iaca, signingKey: iacaKey)
        return (iaca, ds)
    }

    @Test(arguments: ["1.0.18013.5.1.2", "1.3.130.2.0.0.1.2", "2.999", "0.39", "1.0", "2.25.329800735698586629295641978511506172918"])
    func dottedOIDs(text: String) {
        #expect(ObjectIdentifierSyntax.problem(in: text) == nil)
    }

    @Test(arguments: [
        ("", "fewer than two arcs"), ("1", "fewer than two arcs"), ("1.", "not decimal"), (".1.2", "not decimal"),
        ("1..2", "not decimal"), ("1.2.a", "not decimal"), ("1.2 ", "not decimal"), ("+1.2", "not decimal"),
        ("1.02", "leading zero"), ("3.1", "first arc"), ("1.40", "at most 39"), ("0.100", "at most 39"),
    ])
    func notDottedOIDs(text: String, problem: String) {
        let found = ObjectIdentifierSyntax.problem(in: text)
        #expect(found?.contains(problem) == true, "\(text): \(found ?? "nil")")
    }

    @Test func builderWritesTheGivenPurposesInOrder() throws {
        let purposes = [CertificateProfile.eudiPIDDocumentSignerOID, CertificateProfile.mdocDocumentSignerOID]
        let (_, ds) = try Self.documentSigner(purposes: purposes)
        #expect(ds.extendedKeyUsage == purposes)
        #expect(ds.criticalExtensionOIDs.contains("2.5.29.37"))
        #expect(try Self.documentSigner(purposes: nil).ds.extendedKeyUsage == [CertificateProfile.documentSignerOID])
    }

    @Test(arguments: [([], "at least one purpose"), (["1.2.x"], "purpose 1 is not a dotted OID"), (["1.2.3", "1.2.3"], "1.2.3 is repeated")])
    func builderRefusesBadPurposes(purposes: [String], problem: String) throws {
        let error = try #require(throws: CryptoError.self) { try Self.documentSigner(purposes: purposes) }
        #expect(error.code == .invalidParameter)
        #expect(error.reason.contains(problem), "\(error.reason)")
    }

    @Test func builderRefusesPurposesForARoot() throws {
        var builder = CertificateBuilderTests.builder(.iaca)
        builder.extendedKeyUsageOIDs = [CertificateProfile.documentSignerOID]
        let error = try #require(throws: CryptoError.self) { try builder.selfSigned(key: try PrivateKey(generating: .p256)) }
        #expect(error.reason.contains("has no extendedKeyUsage"))
    }

    @Test func validatorAcceptsAnyOfTheGivenPurposes() throws {
        let (iaca, ds) = try Self.documentSigner(purposes: [CertificateProfile.eudiPIDDocumentSignerOID])
        let validator = CertificateChainValidator(trustAnchors: [iaca])
        let accepted = validator.validate(
            chain: [ds], profile: .documentSigner,
            acceptingExtendedKeyUsages: CertificateProfile.documentSigner.knownExtendedKeyUsageOIDs, at: Self.now)
        #expect(accepted.isValid, "\(accepted)")
        #expect(accepted.passedChecks.contains { $0.check == .extendedKeyUsage && $0.detail == "extendedKeyUsage has 1.3.130.2.0.0.1.2" })

        // The profile's own purpose alone: the ISO/IEC 18013-5 document signer.
        let refused = validator.validate(chain: [ds], profile: .documentSigner, at: Self.now)
        #expect(refused.failures.map(\.check) == [.extendedKeyUsage])
        #expect(refused.failures.first?.reason == "extendedKeyUsage [1.3.130.2.0.0.1.2] lacks 1.0.18013.5.1.2 (document signer)")

        let none = validator.validate(
            chain: [ds], profile: .documentSigner,
            acceptingExtendedKeyUsages: [CertificateProfile.documentSignerOID, CertificateProfile.mdocDocumentSignerOID], at: Self.now)
        #expect(none.failures.first?.reason == "extendedKeyUsage [1.3.130.2.0.0.1.2] lacks one of 1.0.18013.5.1.2, 1.0.23220.4.1.2 (document signer)")
        #expect(!validator.validate(chain: [ds], profile: .documentSigner, acceptingExtendedKeyUsages: [], at: Self.now).isValid)
    }

    @Test func knownPurposesPerRole() {
        #expect(CertificateProfile.documentSigner.knownExtendedKeyUsageOIDs == ["1.0.18013.5.1.2", "1.0.23220.4.1.2", "1.3.130.2.0.0.1.2"])
        #expect(CertificateProfile.readerAuthentication.knownExtendedKeyUsageOIDs == ["1.0.18013.5.1.6", "1.0.23220.4.1.6", "1.3.130.2.0.0.1.6"])
    }

    @Test func selfSignedIsARoot() throws {
        let (iaca, ds) = try Self.documentSigner(purposes: nil)
        #expect(iaca.isSelfSigned)
        #expect(!ds.isSelfSigned)
        #expect(try Certificate(derEncoded: Vectors.annexD("iaca_cert")).isSelfSigned)
        #expect(try !Certificate(derEncoded: Vectors.annexD("ds_cert")).isSelfSigned)
    }

    @Test func aDocumentSignerPinnedAsTheAnchorIsNamed() throws {
        let (iaca, ds) = try Self.documentSigner(purposes: nil)
        for chain in [[ds], [ds, iaca]] {
            let result = CertificateChainValidator(trustAnchors: [ds]).validate(chain: chain, profile: .documentSigner, at: Self.now)
            #expect(!result.isValid)
            let reasons = result.failures.filter { $0.check == .issuerNotTrusted }.map(\.reason)
            #expect(
                reasons.contains { $0.contains("the trust anchor \"\(ds.subject)\" is not a self-signed IACA certificate: trust the IACA that issued it") },
                "\(result)")
        }
        // A wrong anchor that is a root gets no such hint.
        let other = try Self.documentSigner(purposes: nil).iaca
        let result = CertificateChainValidator(trustAnchors: [other]).validate(chain: [ds], profile: .documentSigner, at: Self.now)
        #expect(result.failures.allSatisfy { !$0.reason.contains("is not a self-signed") }, "\(result)")
    }
}
