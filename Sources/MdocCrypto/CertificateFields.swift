import COpenSSL

/// The OpenSSL structures of the fields of one certificate that ``Certificate`` and path
/// validation read (RFC 5280 section 4.1): the names, the serial number, the validity times, both
/// signature algorithm identifiers and the extensions.
///
/// Either borrowed from a whole certificate `d2i_X509` decoded (kept alive with it), or decoded
/// field by field with OpenSSL's own decoder for each field type from the ranges a
/// ``CertificateLayout`` found, which skips OpenSSL 3.0's costly SubjectPublicKeyInfo decoder.
/// The structures are never changed after decoding; OpenSSL only reads them, so concurrent reads
/// are safe, which is why this class is `@unchecked Sendable`.
final class CertificateFields: @unchecked Sendable {
    /// The subject Name.
    let subjectName: X509Name
    /// The issuer Name.
    let issuerName: X509Name
    /// The subject `X509_NAME`.
    var subject: OpaquePointer { subjectName.pointer }
    /// The issuer `X509_NAME`.
    var issuer: OpaquePointer { issuerName.pointer }
    /// The serialNumber.
    let serialNumber: UnsafePointer<ASN1_INTEGER>
    /// The notBefore time.
    let notBefore: UnsafePointer<ASN1_TIME>
    /// The notAfter time.
    let notAfter: UnsafePointer<ASN1_TIME>
    /// notBefore and notAfter in seconds since the epoch, as `X509_cmp_time` reads them; `nil`
    /// where it would refuse the time (``X509Time/comparableSeconds(_:)``).
    let notBeforeSeconds: time_t?
    let notAfterSeconds: time_t?
    /// The signature AlgorithmIdentifier inside tbsCertificate.
    let tbsSignatureAlgorithm: UnsafePointer<X509_ALGOR>
    /// The outer signatureAlgorithm.
    let signatureAlgorithm: UnsafePointer<X509_ALGOR>
    /// The `STACK_OF(X509_EXTENSION)`, or `nil` when the certificate has no extensions.
    let extensions: OpaquePointer?
    /// The version field as encoded (0 for v1, 2 for v3).
    let version: Int
    /// The certificate these were borrowed from, or `nil` when they are owned here.
    private let owner: X509Handle?

    /// The fields of a certificate OpenSSL decoded whole.
    init?(of certificate: X509Handle) {
        let x509 = certificate.pointer
        var outerAlgorithm: UnsafePointer<X509_ALGOR>? = nil
        X509_get0_signature(nil, &outerAlgorithm, x509)
        guard let subject = X509_get_subject_name(x509), let issuer = X509_get_issuer_name(x509),
            let serialNumber = X509_get0_serialNumber(x509), let notBefore = X509_get0_notBefore(x509),
            let notAfter = X509_get0_notAfter(x509), let inner = X509_get0_tbs_sigalg(x509), let outerAlgorithm
        else { return nil }
        subjectName = X509Name(borrowing: subject, of: certificate)
        issuerName = X509Name(borrowing: issuer, of: certificate)
        self.serialNumber = serialNumber
        self.notBefore = notBefore
        self.notAfter = notAfter
        notBeforeSeconds = X509Time.comparableSeconds(notBefore)
        notAfterSeconds = X509Time.comparableSeconds(notAfter)
        tbsSignatureAlgorithm = inner
        signatureAlgorithm = outerAlgorithm
        extensions = X509_get0_extensions(x509)
        version = Int(X509_get_version(x509))
        owner = certificate
    }

    /// The fields at the places `layout` found in `bytes`, each decoded by OpenSSL's decoder for
    /// its type. Throws `invalidEncoding`, naming the field and its offset, when one does not
    /// decode or leaves octets of its element unread, or when the version is not one octet.
    init(layout: CertificateLayout, of bytes: [UInt8]) throws(CryptoError) {
        guard let version = layout.version else {
            throw CryptoError(.invalidEncoding, "certificate: the tbsCertificate version is not a one-octet INTEGER")
        }
        var decoded = Decoded()
        let failed = bytes.withUnsafeBufferPointer { buffer -> (field: String, offset: Int)? in
            guard let base = buffer.baseAddress else { return ("Certificate", 0) }
            decoded.subject = X509Name.decoding(UnsafeBufferPointer(rebasing: buffer[layout.subject]))
            guard decoded.subject != nil else { return ("subject", layout.subject.lowerBound) }
            decoded.issuer = X509Name.decoding(UnsafeBufferPointer(rebasing: buffer[layout.issuer]))
            guard decoded.issuer != nil else { return ("issuer", layout.issuer.lowerBound) }
            decoded.serialNumber = Self.decode(base, layout.serialNumber, free: ASN1_INTEGER_free) {
                d2i_ASN1_INTEGER(nil, &$0, $1)
            }
            guard decoded.serialNumber != nil else { return ("serialNumber", layout.serialNumber.lowerBound) }
            decoded.notBefore = Self.decode(base, layout.notBefore, free: ASN1_TIME_free) { d2i_ASN1_TIME(nil, &$0, $1) }
            guard decoded.notBefore != nil else { return ("notBefore", layout.notBefore.lowerBound) }
            decoded.notAfter = Self.decode(base, layout.notAfter, free: ASN1_TIME_free) { d2i_ASN1_TIME(nil, &$0, $1) }
            guard decoded.notAfter != nil else { return ("notAfter", layout.notAfter.lowerBound) }
            decoded.tbsSignatureAlgorithm = Self.decode(base, layout.tbsSignatureAlgorithm, free: X509_ALGOR_free) {
                d2i_X509_ALGOR(nil, &$0, $1)
            }
            guard decoded.tbsSignatureAlgorithm != nil else { return ("signature", layout.tbsSignatureAlgorithm.lowerBound) }
            decoded.signatureAlgorithm = Self.decode(base, layout.signatureAlgorithm, free: X509_ALGOR_free) {
                d2i_X509_ALGOR(nil, &$0, $1)
            }
            guard decoded.signatureAlgorithm != nil else { return ("signatureAlgorithm", layout.signatureAlgorithm.lowerBound) }
            if let range = layout.extensions {
                decoded.extensions = Self.decode(base, range, free: Self.freeExtensions) { d2i_X509_EXTENSIONS(nil, &$0, $1) }
                guard decoded.extensions != nil else { return ("extensions", range.lowerBound) }
            }
            return nil
        }
        guard failed == nil, let subject = decoded.subject, let issuer = decoded.issuer,
            let serialNumber = decoded.serialNumber, let notBefore = decoded.notBefore,
            let notAfter = decoded.notAfter, let inner = decoded.tbsSignatureAlgorithm, let outer = decoded.signatureAlgorithm
        else {
            ERR_clear_error()
            decoded.free()
            let field = failed ?? ("Certificate", 0)
            throw CryptoError(
                .invalidEncoding, "certificate: \(field.field) at offset \(field.offset): OpenSSL's decoder for it refuses it")
        }
        subjectName = subject
        issuerName = issuer
        self.serialNumber = UnsafePointer(serialNumber)
        self.notBefore = UnsafePointer(notBefore)
        self.notAfter = UnsafePointer(notAfter)
        notBeforeSeconds = X509Time.comparableSeconds(notBefore)
        notAfterSeconds = X509Time.comparableSeconds(notAfter)
        tbsSignatureAlgorithm = UnsafePointer(inner)
        signatureAlgorithm = UnsafePointer(outer)
        extensions = decoded.extensions
        self.version = version
        owner = nil
    }

    deinit {
        guard owner == nil else { return }
        Decoded(
            subject: subjectName, issuer: issuerName, serialNumber: UnsafeMutablePointer(mutating: serialNumber),
            notBefore: UnsafeMutablePointer(mutating: notBefore), notAfter: UnsafeMutablePointer(mutating: notAfter),
            tbsSignatureAlgorithm: UnsafeMutablePointer(mutating: tbsSignatureAlgorithm),
            signatureAlgorithm: UnsafeMutablePointer(mutating: signatureAlgorithm), extensions: extensions
        ).free()
    }

    /// The number of extensions.
    var extensionCount: Int {
        extensions.map { Int(max(X509v3_get_ext_count($0), 0)) } ?? 0
    }

    /// The extension at `index` (an `X509_EXTENSION`).
    func extensionEntry(at index: Int) -> OpaquePointer? {
        extensions.flatMap { X509v3_get_ext($0, Int32(index)) }
    }

    /// The structures decoded so far, freed together when one of them fails.
    private struct Decoded {
        /// The Names, which free themselves.
        var subject: X509Name?
        var issuer: X509Name?
        var serialNumber: UnsafeMutablePointer<ASN1_INTEGER>?
        var notBefore: UnsafeMutablePointer<ASN1_TIME>?
        var notAfter: UnsafeMutablePointer<ASN1_TIME>?
        var tbsSignatureAlgorithm: UnsafeMutablePointer<X509_ALGOR>?
        var signatureAlgorithm: UnsafeMutablePointer<X509_ALGOR>?
        var extensions: OpaquePointer?

        func free() {
            ASN1_INTEGER_free(serialNumber)
            ASN1_TIME_free(notBefore)
            ASN1_TIME_free(notAfter)
            X509_ALGOR_free(tbsSignatureAlgorithm)
            X509_ALGOR_free(signatureAlgorithm)
            if let extensions { CertificateFields.freeExtensions(extensions) }
        }
    }

    /// Frees a `STACK_OF(X509_EXTENSION)` and its entries.
    private static func freeExtensions(_ extensions: OpaquePointer) {
        OPENSSL_sk_pop_free(extensions) { X509_EXTENSION_free(OpaquePointer($0)) }
    }

    /// Decodes the element at `range` with `decoder`; `nil` unless it decodes and uses every
    /// octet of the range.
    private static func decode<Value>(
        _ base: UnsafePointer<UInt8>, _ range: Range<Int>, free: (Value) -> Void,
        _ decoder: (inout UnsafePointer<UInt8>?, Int) -> Value?
    ) -> Value? {
        let start = base + range.lowerBound
        var cursor: UnsafePointer<UInt8>? = start
        guard let value = decoder(&cursor, range.count) else { return nil }
        guard cursor == start + range.count else {
            free(value)
            return nil
        }
        return value
    }
}
