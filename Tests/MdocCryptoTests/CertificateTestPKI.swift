import COpenSSL
import MdocCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A key pair made with OpenSSL for test certificates (the Annex D vectors publish no private
/// keys for their certificates).
final class TestKeyPair: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A fresh key: `algorithm` is "EC" (with `group`, e.g. "P-256") or "ED25519".
    init(algorithm: String = "EC", group: String? = "P-256") {
        let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil)
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer? = nil
        guard let context, EVP_PKEY_keygen_init(context) == 1,
            group.map({ EVP_PKEY_CTX_set_group_name(context, $0) == 1 }) ?? true,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { fatalError("test key generation failed") }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }
}

/// A certificate with the key that signs as it.
struct TestCredential {
    let certificate: Certificate
    let key: TestKeyPair
}

/// Builds test certificates with OpenSSL (X509_new, X509V3_EXT_nconf, X509_sign), with the
/// ISO/IEC 18013-5 Annex B profile extensions by default, so that each test can change one thing.
enum TestPKI {
    /// 2021-01-01T00:00:00Z, inside every default validity period.
    static let referenceTime = Date(timeIntervalSince1970: 1_609_459_200)
    static let defaultNotBefore = Date(timeIntervalSince1970: 1_601_510_400)  // 2020-10-01
    static let defaultNotAfter = Date(timeIntervalSince1970: 1_885_334_400)  // 2029-09-29

    /// Annex B IACA / reader root extensions.
    static func rootExtensions(pathLength: Int = 0) -> [(String, String)] {
        [
            ("basicConstraints", "critical,CA:TRUE,pathlen:\(pathLength)"),
            ("keyUsage", "critical,keyCertSign,cRLSign"),
            ("subjectKeyIdentifier", "hash"),
            ("issuerAltName", "email:iaca@example.com"),
        ]
    }

    /// Extensions of an intermediate CA (not an Annex B profile; for path length tests).
    static let intermediateExtensions: [(String, String)] = [
        ("basicConstraints", "critical,CA:TRUE"),
        ("keyUsage", "critical,keyCertSign,cRLSign"),
        ("subjectKeyIdentifier", "hash"),
        ("authorityKeyIdentifier", "keyid:always"),
    ]

    /// Annex B document signer / reader authentication extensions for an EKU OID.
    static func leafExtensions(extendedKeyUsage: String = CertificateProfile.documentSignerOID) -> [(String, String)] {
        [
            ("keyUsage", "critical,digitalSignature"),
            ("extendedKeyUsage", "critical,\(extendedKeyUsage)"),
            ("subjectKeyIdentifier", "hash"),
            ("authorityKeyIdentifier", "keyid:always"),
        ]
    }

    /// A self-signed root.
    static func root(
        _ commonName: String = "test iaca", extensions: [(String, String)] = rootExtensions(),
        notBefore: Date = defaultNotBefore, notAfter: Date = defaultNotAfter
    ) -> TestCredential {
        issue(commonName, key: TestKeyPair(), issuer: nil, extensions: extensions, notBefore: notBefore, notAfter: notAfter)
    }

    /// A certificate for `key` (a fresh P-256 key by default) signed by `issuer` (self-signed
    /// when `nil`).
    static func issue(
        _ commonName: String,
        key: TestKeyPair = TestKeyPair(),
        issuer: TestCredential?,
        extensions: [(String, String)],
        notBefore: Date = defaultNotBefore,
        notAfter: Date = defaultNotAfter,
        serial: Int = 1,
        digest: OpaquePointer? = EVP_sha256()
    ) -> TestCredential {
        let der = derCertificate(
            commonName, key: key, issuer: issuer, extensions: extensions, notBefore: notBefore, notAfter: notAfter,
            serial: serial, digest: digest
        )
        do {
            return TestCredential(certificate: try Certificate(derEncoded: der), key: key)
        } catch {
            fatalError("generated certificate does not parse: \(error)")
        }
    }

    /// The DER bytes of the certificate ``issue(_:key:issuer:extensions:notBefore:notAfter:serial:digest:)`` makes.
    static func derCertificate(
        _ commonName: String,
        key: TestKeyPair,
        issuer: TestCredential?,
        extensions: [(String, String)],
        notBefore: Date = defaultNotBefore,
        notAfter: Date = defaultNotAfter,
        serial: Int = 1,
        digest: OpaquePointer? = EVP_sha256()
    ) -> [UInt8] {
        guard let x509 = X509_new() else { fatalError("X509_new failed") }
        defer { X509_free(x509) }
        X509_set_version(x509, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(x509), serial)
        ASN1_TIME_set(X509_getm_notBefore(x509), time_t(notBefore.timeIntervalSince1970))
        ASN1_TIME_set(X509_getm_notAfter(x509), time_t(notAfter.timeIntervalSince1970))
        let name = X509_NAME_new()
        defer { X509_NAME_free(name) }
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0)
        X509_NAME_add_entry_by_txt(name, "C", MBSTRING_UTF8, "US", -1, -1, 0)
        X509_set_subject_name(x509, name)
        X509_set_pubkey(x509, key.pointer)

        let issuerX509 = issuer.map { parse($0.certificate.derRepresentation) }
        defer { if let issuerX509 { X509_free(issuerX509) } }
        X509_set_issuer_name(x509, issuerX509.map { X509_get_subject_name($0) } ?? name)
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuerX509 ?? x509, x509, nil, nil, 0)
        for (name, value) in extensions {
            guard let ext = X509V3_EXT_nconf(nil, &context, name, value) else {
                fatalError("extension \(name) = \(value) does not build")
            }
            X509_add_ext(x509, ext, -1)
            X509_EXTENSION_free(ext)
        }
        guard X509_sign(x509, (issuer?.key ?? key).pointer, digest) > 0 else { fatalError("X509_sign failed") }
        let length = i2d_X509(x509, nil)
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509(x509, &cursor)
        }
        return der
    }

    private static func parse(_ der: [UInt8]) -> OpaquePointer {
        der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let x509 = d2i_X509(nil, &cursor, buffer.count) else { fatalError("d2i_X509 failed") }
            return x509
        }
    }
}
