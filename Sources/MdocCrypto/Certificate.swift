import COpenSSL
import NIOConcurrencyHelpers

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An X.509 v3 certificate (RFC 5280), as carried in COSE `x5chain` headers (RFC 9360) by the
/// issuer and reader authentication of ISO/IEC 18013-5 9.1.2 and 9.1.4, with the fields the
/// Annex B certificate profiles look at.
///
/// The DER structure is walked here (`CertificateLayout`) and each field is decoded by OpenSSL's
/// decoder for its type; the subject public key is imported from its point. A certificate whose
/// structure or key that walk does not take (one OpenSSL accepts in a looser encoding, a key with
/// explicit curve parameters) is decoded whole by OpenSSL's `d2i_X509`, with the same result. The
/// fields and extensions are read once, at initialisation. The DER bytes given are kept unchanged
/// in ``derRepresentation``; equality compares them.
public struct Certificate: Sendable, Hashable, CustomStringConvertible {
    /// The fields, read once; a certificate is copied as one reference.
    private final class Storage: Sendable {
        let derRepresentation: [UInt8]
        let layout: CertificateLayout?
        let fields: CertificateFields
        let extensionSummary: ExtensionSummary
        let intrinsics: CertificateIntrinsics
        let subject: String
        let issuer: String
        let commonName: String?
        let serialNumber: String
        let notValidBefore: Date
        let notValidAfter: Date
        let publicKey: PublicKey
        let keyUsage: KeyUsage?
        let extendedKeyUsage: [String]?
        let basicConstraints: BasicConstraints?
        let subjectKeyIdentifier: [UInt8]?
        let authorityKeyIdentifier: [UInt8]?
        let signatureAlgorithm: SignatureAlgorithm
        let criticalExtensionOIDs: [String]
        let hasIssuerAlternativeName: Bool
        let isSelfIssued: Bool
        /// The whole certificate decoded by `d2i_X509`, made when first needed.
        private let x509: NIOLockedValueBox<X509Handle?>

        /// SHA-1 of the subjectPublicKey octets, from the walk's range or OpenSSL's decoding.
        func publicKeyIdentifier() -> [UInt8] {
            let octets: [UInt8]
            if let range = layout?.publicKey.octets {
                octets = Array(derRepresentation[range])
            } else if let handle = decoded, let bits = X509_get0_pubkey_bitstr(handle.pointer) {
                octets = X509Fields.bytes(bits)
            } else {
                return []
            }
            var length: UInt32 = 0
            let size = 20
            let digest = [UInt8](unsafeUninitializedCapacity: size) { output, initialized in
                let status = octets.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, output.baseAddress, &length, EVP_sha1(), nil) }
                initialized = status == 1 && Int(length) == size ? size : 0
            }
            if digest.isEmpty { ERR_clear_error() }
            return digest
        }

        /// The Name at `range` of the DER when the walk found it, else `name` encoded again by
        /// OpenSSL (DER is unique, so both give the same octets).
        func nameDER(_ range: Range<Int>?, _ name: OpaquePointer) -> [UInt8] {
            if let range { return Array(derRepresentation[range]) }
            let length = i2d_X509_NAME(name, nil)
            guard length > 0 else { return [] }
            var der = [UInt8](repeating: 0, count: Int(length))
            let written = der.withUnsafeMutableBufferPointer { buffer in
                var cursor = buffer.baseAddress
                return i2d_X509_NAME(name, &cursor)
            }
            return written == length ? der : []
        }

        init(derEncoded bytes: [UInt8]) throws(CryptoError) {
            derRepresentation = bytes
            var walked: CertificateLayout?
            var fast: (fields: CertificateFields, key: PublicKey)?
            var walkError: CryptoError?
            do {
                let layout = try CertificateLayout(derEncoded: bytes)
                walked = layout
                let fields = try CertificateFields(layout: layout, of: bytes)
                fast = PublicKey(certificateKeyIn: layout, of: bytes).map { (fields, $0) }
            } catch {
                walkError = error
            }
            layout = walked
            if let fast {
                fields = fast.fields
                publicKey = fast.key
                x509 = NIOLockedValueBox(nil)
                subject = try fields.subjectName.text(field: "subject")
            } else {
                let handle: X509Handle
                do {
                    handle = try X509Handle.parse(derEncoded: bytes)
                } catch {
                    throw walkError ?? error
                }
                guard let decoded = CertificateFields(of: handle) else {
                    throw CryptoError(.invalidEncoding, "certificate: OpenSSL decoded it without all of its fields")
                }
                fields = decoded
                x509 = NIOLockedValueBox(handle)
                subject = try fields.subjectName.text(field: "subject")
                guard let key = X509_get_pubkey(handle.pointer) else {
                    ERR_clear_error()
                    throw CryptoError(.unsupportedAlgorithm, "certificate \"\(subject)\": the public key does not decode")
                }
                do {
                    publicKey = try PublicKey(key: EVPKey(takingOwnershipOf: key))
                } catch {
                    throw CryptoError(error.code, "certificate \"\(subject)\": \(error.reason)")
                }
            }
            issuer = try fields.issuerName.text(field: "issuer")
            commonName = X509Fields.attribute(NID_commonName, in: fields.subject)
            serialNumber = Certificate.hexSerial(fields.serialNumber)
            // The seconds the fields read for path validation are these times already
            // (ASN1_TIME_to_tm, then timegm); a time they did not read is read here.
            notValidBefore = try Self.date(fields.notBeforeSeconds, else: fields.notBefore, field: "notBefore")
            notValidAfter = try Self.date(fields.notAfterSeconds, else: fields.notAfter, field: "notAfter")
            let extensions = fields.extensions
            keyUsage = try KeyUsage(in: extensions)
            extendedKeyUsage = try Certificate.extendedKeyUsage(in: extensions)
            basicConstraints = try BasicConstraints(in: extensions)
            subjectKeyIdentifier = try X509Fields.decodedExtension(
                NID_subject_key_identifier, named: "subjectKeyIdentifier", in: extensions,
                read: { X509Fields.bytes($0.assumingMemoryBound(to: ASN1_OCTET_STRING.self)) },
                free: { ASN1_OCTET_STRING_free($0.assumingMemoryBound(to: ASN1_OCTET_STRING.self)) }
            )
            authorityKeyIdentifier = try X509Fields.decodedExtension(
                NID_authority_key_identifier, named: "authorityKeyIdentifier", in: extensions,
                read: { raw in
                    let identifier = raw.assumingMemoryBound(to: AUTHORITY_KEYID.self).pointee.keyid
                    return identifier.map { X509Fields.bytes($0) }
                },
                free: { AUTHORITY_KEYID_free($0.assumingMemoryBound(to: AUTHORITY_KEYID.self)) }
            ) ?? nil
            signatureAlgorithm = SignatureAlgorithm(fields.signatureAlgorithm)
            let decoded = fields
            criticalExtensionOIDs = (0..<decoded.extensionCount).compactMap { index in
                guard let entry = decoded.extensionEntry(at: index), X509_EXTENSION_get_critical(entry) != 0 else { return nil }
                return X509Fields.dottedOID(X509_EXTENSION_get_object(entry))
            }
            hasIssuerAlternativeName = extensions.map { X509v3_get_ext_by_NID($0, NID_issuer_alt_name, -1) >= 0 } ?? false
            isSelfIssued = X509_NAME_cmp(fields.subject, fields.issuer) == 0
            extensionSummary = ExtensionSummary(fields)
            intrinsics = CertificateIntrinsics(
                fields: fields, summary: extensionSummary, publicKey: publicKey, isSelfIssued: isSelfIssued,
                signatureAlgorithm: signatureAlgorithm, criticalExtensionOIDs: criticalExtensionOIDs)
        }

        /// `seconds` as a date, or else `time` read (``X509Fields/date(_:field:)``).
        private static func date(_ seconds: time_t?, else time: UnsafePointer<ASN1_TIME>, field: String) throws(CryptoError) -> Date {
            if let seconds { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
            return try X509Fields.date(time, field: field)
        }

        /// The certificate decoded whole by OpenSSL, for the OpenSSL path builder and for
        /// inspection; `nil` only if OpenSSL refuses DER the walk accepted.
        var decoded: X509Handle? {
            x509.withLockedValue { handle in
                if let handle { return handle }
                handle = try? X509Handle.parse(derEncoded: derRepresentation)
                return handle
            }
        }
    }

    private let storage: Storage

    /// The certificate decoded whole by OpenSSL's `d2i_X509`, made on first use: only the OpenSSL
    /// path builder and inspection need it.
    var handle: X509Handle? { storage.decoded }
    /// The fields as OpenSSL structures.
    var fields: CertificateFields { storage.fields }
    /// Where the fields lie in ``derRepresentation``, when the DER walk took the certificate.
    var layout: CertificateLayout? { storage.layout }
    /// What path validation reads from the extensions.
    var extensionSummary: ExtensionSummary { storage.extensionSummary }
    /// What chain validation asks of this certificate alone, answered when it was parsed.
    var intrinsics: CertificateIntrinsics { storage.intrinsics }

    /// The DER encoding exactly as given.
    public var derRepresentation: [UInt8] { storage.derRepresentation }
    /// The subject distinguished name, e.g. `CN=utopia ds, C=US`: RFC 4514 attribute syntax and
    /// escaping, RDNs in the order they are encoded (as `openssl x509 -subject` prints them, not
    /// reversed as RFC 4514 section 2.1 would), separated by ", ".
    public var subject: String { storage.subject }
    /// The issuer distinguished name, in the format of ``subject``.
    public var issuer: String { storage.issuer }
    /// The first commonName attribute (2.5.4.3) of the subject, if any.
    public var commonName: String? { storage.commonName }
    /// The first countryName attribute (2.5.4.6) of the subject, if any.
    public var countryName: String? {
        X509Fields.attribute(NID_countryName, in: storage.fields.subject)
    }
    /// The serial number as lowercase hexadecimal of its content octets
    /// (RFC 5280 section 4.1.2.2), with a leading "-" if it is (wrongly) negative.
    public var serialNumber: String { storage.serialNumber }
    /// The serial number's content octets, big-endian, without a sign octet (RFC 5280 section
    /// 4.1.2.2): the magnitude a CBOR `biguint` carries.
    public var serialNumberBytes: [UInt8] { X509Fields.bytes(storage.fields.serialNumber) }
    /// The issuer Name as the certificate encodes it, DER (RFC 5280 section 4.1.2.4).
    public var issuerNameDER: [UInt8] { storage.nameDER(storage.layout?.issuer, storage.fields.issuer) }
    /// The subject Name as the certificate encodes it, DER (RFC 5280 section 4.1.2.6).
    public var subjectNameDER: [UInt8] { storage.nameDER(storage.layout?.subject, storage.fields.subject) }
    /// The start of the validity period (RFC 5280 section 4.1.2.5).
    public var notValidBefore: Date { storage.notValidBefore }
    /// The end of the validity period (RFC 5280 section 4.1.2.5). Chain validation, like
    /// OpenSSL, treats the certificate as expired from this instant on.
    public var notValidAfter: Date { storage.notValidAfter }
    /// The subject public key; always on a curve ISO/IEC 18013-5 allows (``Curve``).
    public var publicKey: PublicKey { storage.publicKey }
    /// The key usage extension (RFC 5280 section 4.2.1.3), or `nil` when absent.
    public var keyUsage: KeyUsage? { storage.keyUsage }
    /// The extended key usage purposes as dotted OIDs (RFC 5280 section 4.2.1.12), or `nil`
    /// when the extension is absent.
    public var extendedKeyUsage: [String]? { storage.extendedKeyUsage }
    /// The basic constraints extension (RFC 5280 section 4.2.1.9), or `nil` when absent.
    public var basicConstraints: BasicConstraints? { storage.basicConstraints }
    /// The subject key identifier (RFC 5280 section 4.2.1.2), or `nil` when absent.
    public var subjectKeyIdentifier: [UInt8]? { storage.subjectKeyIdentifier }
    /// The key identifier RFC 5280 section 4.2.1.2 derives by its method (1): the SHA-1 of the
    /// subjectPublicKey BIT STRING's value (no tag, length or unused-bits octet), as most CAs
    /// compute their subjectKeyIdentifier. It names a certificate that carries none, as a VICAL
    /// entry's `ski` does (ISO/IEC 18013-5 Annex C.1.7). Empty if OpenSSL fails internally.
    public var publicKeyIdentifier: [UInt8] { storage.publicKeyIdentifier() }
    /// The keyIdentifier of the authority key identifier extension (RFC 5280 section 4.2.1.1),
    /// or `nil` when the extension or its keyIdentifier field is absent.
    public var authorityKeyIdentifier: [UInt8]? { storage.authorityKeyIdentifier }
    /// The algorithm the issuer signed this certificate with (RFC 5280 section 4.1.1.2).
    public var signatureAlgorithm: SignatureAlgorithm { storage.signatureAlgorithm }
    /// The dotted OIDs of the extensions marked critical, in certificate order.
    public var criticalExtensionOIDs: [String] { storage.criticalExtensionOIDs }
    /// Whether the certificate has an issuer alternative name extension (RFC 5280 section
    /// 4.2.1.7; ISO/IEC 18013-5 Annex B asks for one in IACA and document signer certificates).
    public var hasIssuerAlternativeName: Bool { storage.hasIssuerAlternativeName }
    /// Whether subject and issuer are the same name (RFC 5280 section 6.1: a self-issued
    /// certificate), as for a root.
    public var isSelfIssued: Bool { storage.isSelfIssued }

    /// Parses one DER-encoded certificate; the bytes must hold exactly one certificate.
    ///
    /// Throws `CryptoError.Code.invalidEncoding` for input that is not a certificate, has
    /// trailing bytes, or has a malformed or repeated extension this type reads, and
    /// `CryptoError.Code.unsupportedAlgorithm` when the public key is not on a curve
    /// ISO/IEC 18013-5 allows.
    public init(derEncoded bytes: [UInt8]) throws(CryptoError) {
        storage = try Storage(derEncoded: bytes)
    }

    /// Parses the single `CERTIFICATE` block of a PEM text (RFC 7468 section 5); other blocks
    /// are ignored. Throws `CryptoError.Code.invalidEncoding` unless there is exactly one.
    public init(pemEncoded text: String) throws(CryptoError) {
        let certificates = try Certificate.certificates(pemEncoded: text)
        guard certificates.count == 1, let certificate = certificates.first else {
            throw CryptoError(
                .invalidEncoding,
                "PEM: expected one CERTIFICATE block, found \(certificates.count)"
            )
        }
        self = certificate
    }

    /// Every `CERTIFICATE` block of a PEM text, in order (RFC 7468 section 5), e.g. a trust
    /// anchor file. Blocks of other types are skipped; a malformed block is an error.
    public static func certificates(pemEncoded text: String) throws(CryptoError) -> [Certificate] {
        try CertificatePEM.derBlocks(labelled: "CERTIFICATE", in: text).map { (der: [UInt8]) throws(CryptoError) in
            try Certificate(derEncoded: der)
        }
    }

    /// The certificate in PEM form (RFC 7468 section 5).
    public var pemRepresentation: String {
        CertificatePEM.pem(labelled: "CERTIFICATE", derBytes: derRepresentation)
    }

    /// Whether `issuer`'s public key verifies this certificate's signature (RFC 5280 section
    /// 4.1.1.3). Names, extensions and validity are not looked at.
    public func isSignedBy(_ issuer: Certificate) -> Bool {
        if let verified = signatureVerification(with: issuer.publicKey) { return verified }
        guard let handle else { return false }
        let result = X509_verify(handle.pointer, issuer.publicKey.key.pointer)
        if result != 1 { ERR_clear_error() }
        return result == 1
    }

    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs.storage === rhs.storage || lhs.derRepresentation == rhs.derRepresentation
    }

    public func hash(into hasher: inout Hasher) {
        derRepresentation.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public var description: String {
        "Certificate(subject: \"\(subject)\", issuer: \"\(issuer)\", serial: \(serialNumber))"
    }

    private static func hexSerial(_ serial: UnsafePointer<ASN1_INTEGER>?) -> String {
        guard let serial else { return "" }
        let digits = "0123456789abcdef".utf8.map { $0 }
        var text = [UInt8]()
        for byte in X509Fields.bytes(serial) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        let sign = ASN1_STRING_type(serial) == V_ASN1_NEG_INTEGER ? "-" : ""
        return sign + String(decoding: text, as: UTF8.self)
    }

    private static func extendedKeyUsage(in extensions: OpaquePointer?) throws(CryptoError) -> [String]? {
        try X509Fields.decodedExtension(
            NID_ext_key_usage, named: "extendedKeyUsage", in: extensions,
            read: { raw in
                let stack = OpaquePointer(raw)
                return (0..<max(OPENSSL_sk_num(stack), 0)).map { index in
                    X509Fields.dottedOID(OPENSSL_sk_value(stack, index).map { OpaquePointer($0) })
                }
            },
            free: { EXTENDED_KEY_USAGE_free(OpaquePointer($0)) }
        )
    }
}
