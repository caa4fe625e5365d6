import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The document signer chain (ISO/IEC 18013-5 9.3.3, Annex B.1.2 IACA and B.1.4 document
/// signer profiles), checked through a whole DeviceResponse verification: each broken profile
/// rule surfaces as the issuer certificate check failing with its own code.
extension NegativeCorpus {
    /// Verifies a document of a PKI whose certificates carry the given extensions.
    static func verified(
        iacaExtensions: [(String, String)] = TestPKI.iacaExtensions,
        documentSignerExtensions: [(String, String)] = TestPKI.documentSignerExtensions
    ) throws -> Rejection {
        let pki = try TestPKI(iacaExtensions: iacaExtensions, documentSignerExtensions: documentSignerExtensions)
        return Rejection(try TestMdoc(pki: pki).verify())
    }

    /// `extensions` with the value of `name` replaced (or removed when `value` is nil).
    static func replacing(_ name: String, with value: String?, in extensions: [(String, String)]) -> [(String, String)] {
        extensions.compactMap { entry in
            guard entry.0 == name else { return entry }
            return value.map { (name, $0) }
        }
    }

    static let issuerCertificate = VerificationCheck.Kind.issuerCertificate

    static var certificateProfiles: [NegativeCase] {
        [
            NegativeCase("document signer not issued by the trusted IACA", .check(issuerCertificate, .certificate(.issuerNotTrusted))) {
                let mdoc = try TestMdoc(pki: TestPKI(name: "other"))
                let verifier = DeviceResponseVerifier(trustAnchors: [try TestPKI().iaca], sessionTranscript: mdoc.transcript)
                return Rejection(try verifier.verify(mdoc.responseBytes(), at: TestPKI.referenceTime))
            },
            NegativeCase("Annex D: document signer checked against the reader root", .check(issuerCertificate, .certificate(.issuerNotTrusted))) {
                let verifier = try AnnexDVerificationFailureTests.verifier(trust: "reader_root_cert")
                return Rejection(try verifier.verify(Vectors.annexD("device_response"), at: AnnexDVerificationFailureTests.time))
            },
            NegativeCase("IssuerAuth without x5chain", .check(issuerCertificate, .missingCertificateChain)) {
                try verified { $0.x5chain = [] }
            },
            NegativeCase("IssuerAuth x5chain holding bytes that are no certificate", .check(issuerCertificate, .unreadableCertificate)) {
                try verified { $0.x5chain = [[0x30, 0x03, 0x02, 0x01, 0x01]] }
            },
            NegativeCase("document signer certificate expired", .check(issuerCertificate, .certificate(.validity))) {
                let mdoc = try TestMdoc(pki: TestPKI(documentSignerNotAfter: TestPKI.referenceTime.addingTimeInterval(-day)))
                return Rejection(try mdoc.verify())
            },
            NegativeCase("document signer without keyUsage digitalSignature (B.1.4)", .check(issuerCertificate, .certificate(.keyUsage))) {
                try verified(documentSignerExtensions: replacing("keyUsage", with: "critical,keyAgreement", in: TestPKI.documentSignerExtensions))
            },
            NegativeCase("document signer with the reader authentication EKU (B.1.4)", .check(issuerCertificate, .certificate(.extendedKeyUsage))) {
                try verified(documentSignerExtensions: replacing(
                    "extendedKeyUsage", with: "critical,\(CertificateProfile.readerAuthenticationOID)", in: TestPKI.documentSignerExtensions))
            },
            NegativeCase("document signer without extendedKeyUsage (B.1.4)", .check(issuerCertificate, .certificate(.extendedKeyUsage))) {
                try verified(documentSignerExtensions: replacing("extendedKeyUsage", with: nil, in: TestPKI.documentSignerExtensions))
            },
            NegativeCase("document signer that is a CA (basicConstraints cA true)", .check(issuerCertificate, .certificate(.basicConstraints))) {
                try verified(documentSignerExtensions: TestPKI.documentSignerExtensions + [("basicConstraints", "critical,CA:TRUE")])
            },
            NegativeCase("document signer without authorityKeyIdentifier", .check(issuerCertificate, .certificate(.keyIdentifiers))) {
                try verified(documentSignerExtensions: replacing("authorityKeyIdentifier", with: nil, in: TestPKI.documentSignerExtensions))
            },
            NegativeCase("IACA without keyUsage keyCertSign (B.1.2)", .check(issuerCertificate, .certificate(.keyUsage))) {
                try verified(iacaExtensions: replacing("keyUsage", with: "critical,cRLSign", in: TestPKI.iacaExtensions))
            },
            NegativeCase("IACA without pathLenConstraint (B.1.2 sets it to 0)", .check(issuerCertificate, .certificate(.pathLength))) {
                try verified(iacaExtensions: replacing("basicConstraints", with: "critical,CA:TRUE", in: TestPKI.iacaExtensions))
            },
            NegativeCase("IACA with pathLenConstraint 0 above an intermediate CA", .check(issuerCertificate, .certificate(.pathLength))) {
                let pki = try TestPKI()
                let intermediateKey = try PrivateKey(generating: .p256)
                let intermediate = try TestCertificateBuilder.issue(
                    commonName: "test intermediate", key: intermediateKey, issuer: (pki.iaca, pki.iacaKey),
                    extensions: [
                        ("basicConstraints", "critical,CA:TRUE,pathlen:0"),
                        ("keyUsage", "critical,keyCertSign,cRLSign"),
                        ("subjectKeyIdentifier", "hash"),
                        ("authorityKeyIdentifier", "keyid:always"),
                    ])
                let signerKey = try PrivateKey(generating: .p256)
                let signer = try TestCertificateBuilder.issue(
                    commonName: "test ds under intermediate", key: signerKey, issuer: (intermediate, intermediateKey),
                    extensions: TestPKI.documentSignerExtensions)
                var mdoc = try TestMdoc(pki: pki)
                mdoc.issuerAuthKey = signerKey
                mdoc.x5chain = [signer.derRepresentation, intermediate.derRepresentation]
                return Rejection(try mdoc.verify())
            },
        ]
    }
}
