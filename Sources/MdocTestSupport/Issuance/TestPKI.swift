import MdocCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An issuing authority generated for the tests (Annex D publishes no IACA or DS private key):
/// a self-signed IACA and a document signer it issued, both P-256, with the ISO/IEC 18013-5
/// Annex B profile extensions, valid 2020-10-01 to 2029-09-29 unless the document signer is
/// given another end.
package struct TestPKI: Sendable {
    /// 2021-01-01T00:00:00Z, inside every default validity period.
    package static let referenceTime = Date(timeIntervalSince1970: 1_609_459_200)
    package static let notBefore = Date(timeIntervalSince1970: 1_601_510_400)  // 2020-10-01
    package static let notAfter = Date(timeIntervalSince1970: 1_885_334_400)  // 2029-09-29

    package let iaca: Certificate
    package let iacaKey: PrivateKey
    package let documentSigner: Certificate
    package let documentSignerKey: PrivateKey

    /// The Annex B extensions of a generated IACA (B.1.2).
    package static let iacaExtensions = [
        ("basicConstraints", "critical,CA:TRUE,pathlen:0"),
        ("keyUsage", "critical,keyCertSign,cRLSign"),
        ("subjectKeyIdentifier", "hash"),
        ("issuerAltName", "email:iaca@example.com"),
    ]
    /// The Annex B extensions of a generated document signer (B.1.4).
    package static let documentSignerExtensions = [
        ("keyUsage", "critical,digitalSignature"),
        ("extendedKeyUsage", "critical,\(CertificateProfile.documentSignerOID)"),
        ("subjectKeyIdentifier", "hash"),
        ("authorityKeyIdentifier", "keyid:always"),
    ]

    /// A PKI whose certificates carry `iacaExtensions` and `documentSignerExtensions` (the
    /// Annex B ones by default; tests break them one at a time) and the countryNames
    /// `iacaCountry` and `documentSignerCountry` (none when `nil`).
    package init(
        name: String = "test", documentSignerNotAfter: Date = TestPKI.notAfter,
        iacaExtensions: [(String, String)] = TestPKI.iacaExtensions,
        documentSignerExtensions: [(String, String)] = TestPKI.documentSignerExtensions,
        iacaCountry: String? = "US", documentSignerCountry: String? = "US"
    ) throws(TestDataError) {
        do {
            iacaKey = try PrivateKey(generating: .p256)
            documentSignerKey = try PrivateKey(generating: .p256)
        } catch {
            throw TestDataError("key generation failed: \(error)")
        }
        iaca = try TestCertificateBuilder.issue(
            commonName: "\(name) iaca", country: iacaCountry, key: iacaKey, issuer: nil, extensions: iacaExtensions)
        documentSigner = try TestCertificateBuilder.issue(
            commonName: "\(name) ds", country: documentSignerCountry, key: documentSignerKey, issuer: (iaca, iacaKey),
            extensions: documentSignerExtensions, notAfter: documentSignerNotAfter)
    }
}
