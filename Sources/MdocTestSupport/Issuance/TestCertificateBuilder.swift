import COpenSSL
import MdocCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// X.509 v3 certificates made with OpenSSL (X509_new, X509V3_EXT_nconf, X509_sign) for keys held
/// as ``PrivateKey``s.
package enum TestCertificateBuilder {
    /// A certificate "CN=`commonName`, C=`country`" (no C when `country` is nil) for `key`,
    /// signed by `issuer` (self-signed when nil).
    package static func issue(
        commonName: String,
        country: String? = "US",
        key: PrivateKey,
        issuer: (certificate: Certificate, key: PrivateKey)?,
        extensions: [(String, String)],
        notAfter: Date = TestPKI.notAfter
    ) throws(TestDataError) -> Certificate {
        let subjectKey = try evpKey(key)
        defer { EVP_PKEY_free(subjectKey) }
        let signingKey = try issuer.map { (issuer) throws(TestDataError) in try evpKey(issuer.key) }
        defer { if let signingKey { EVP_PKEY_free(signingKey) } }
        let issuerX509 = try issuer.map { (issuer) throws(TestDataError) in try x509(issuer.certificate.derRepresentation) }
        defer { if let issuerX509 { X509_free(issuerX509) } }

        guard let certificate = X509_new(), let name = X509_NAME_new() else { throw TestDataError("X509_new failed") }
        defer {
            X509_free(certificate)
            X509_NAME_free(name)
        }
        X509_set_version(certificate, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(certificate), 1)
        ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(TestPKI.notBefore.timeIntervalSince1970))
        ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(notAfter.timeIntervalSince1970))
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0)
        if let country {
            X509_NAME_add_entry_by_txt(name, "C", MBSTRING_UTF8, country, -1, -1, 0)
        }
        X509_set_subject_name(certificate, name)
        X509_set_issuer_name(certificate, issuerX509.map { X509_get_subject_name($0) } ?? name)
        X509_set_pubkey(certificate, subjectKey)

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuerX509 ?? certificate, certificate, nil, nil, 0)
        for (extensionName, value) in extensions {
            guard let ext = X509V3_EXT_nconf(nil, &context, extensionName, value) else {
                throw TestDataError("extension \(extensionName) = \(value) does not build")
            }
            X509_add_ext(certificate, ext, -1)
            X509_EXTENSION_free(ext)
        }
        guard X509_sign(certificate, signingKey ?? subjectKey, EVP_sha256()) > 0 else { throw TestDataError("X509_sign failed") }

        let length = i2d_X509(certificate, nil)
        guard length > 0 else { throw TestDataError("i2d_X509 failed") }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509(certificate, &cursor)
        }
        do {
            return try Certificate(derEncoded: der)
        } catch {
            throw TestDataError("the generated certificate does not parse: \(error)")
        }
    }

    /// An OpenSSL key for `key`, through its PKCS#8 encoding; the caller frees it.
    private static func evpKey(_ key: PrivateKey) throws(TestDataError) -> OpaquePointer {
        let der = key.derRepresentation
        let pointer: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let pointer else { throw TestDataError("the PKCS#8 key does not load") }
        return pointer
    }

    /// An OpenSSL certificate for `der`; the caller frees it.
    private static func x509(_ der: [UInt8]) throws(TestDataError) -> OpaquePointer {
        let pointer: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let pointer else { throw TestDataError("the issuer certificate does not load") }
        return pointer
    }
}
