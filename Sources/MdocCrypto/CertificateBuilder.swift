import COpenSSL
import COpenSSLShims

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Makes X.509 v3 certificates (RFC 5280) of the ISO/IEC 18013-5 Annex B profiles: IACA and
/// document signer certificates for issuer data authentication (9.1.2), reader root and reader
/// authentication certificates for mdoc reader authentication (9.1.4).
///
/// Every certificate gets a random positive serial number of ``serialNumberByteCount`` bytes
/// (Annex B: at least 63 bits of randomness, at most 20 octets) and is signed with ECDSA over the
/// hash that matches the issuer key's curve (SHA-256 for P-256 and brainpoolP256r1, SHA-384 for
/// P-384, brainpoolP320r1 and brainpoolP384r1, SHA-512 for P-521 and brainpoolP512r1; ISO/IEC
/// 18013-5 Table 22), or with EdDSA for Ed25519 and Ed448 keys. Extensions are built as OpenSSL
/// structures, so no field value is ever parsed as configuration text.
///
/// ```swift
/// let iacaKey = try PrivateKey(generating: .p256)
/// let iaca = try CertificateBuilder(
///     profile: .iaca, subject: .init(commonName: "Example IACA", country: "US"),
///     notValidBefore: now, notValidAfter: later,
///     issuerAlternativeName: .uri("https://issuer.example/"),
///     crlDistributionPoint: "https://issuer.example/crl"
/// ).selfSigned(key: iacaKey)
/// ```
public struct CertificateBuilder: Sendable {
    /// The length of every serial number made, in bytes: 126 random bits, positive, well within
    /// RFC 5280's 20 octets (section 4.1.2.2).
    public static let serialNumberByteCount = 16
    /// The longest commonName, organizationName or stateOrProvinceName accepted, in UTF-8 bytes
    /// (RFC 5280 Appendix A: ub-common-name and ub-organization-name are 64).
    public static let maximumNameAttributeLength = 64
    /// The longest issuerAltName or cRLDistributionPoints value accepted, in characters; a bound
    /// well above any real URI or mail address, so a certificate cannot grow without limit.
    public static let maximumGeneralNameLength = 1024

    /// The Annex B profile of the certificate.
    public var profile: Profile
    /// The subject name; for a root also the issuer name.
    public var subject: DistinguishedName
    /// The start of the validity period (whole seconds; fractions are dropped).
    public var notValidBefore: Date
    /// The end of the validity period (whole seconds; fractions are dropped).
    public var notValidAfter: Date
    /// The issuerAltName: required for ``Profile/iaca`` and ``Profile/documentSigner``.
    public var issuerAlternativeName: AlternativeName?
    /// The URI of the cRLDistributionPoints extension: required for ``Profile/iaca`` and
    /// ``Profile/documentSigner``.
    public var crlDistributionPoint: String?
    /// The purposes of the extendedKeyUsage extension of an end-entity certificate, in order
    /// (dotted OIDs, at least one); the profile's own when `nil` (Annex B: 1.0.18013.5.1.2 or
    /// 1.0.18013.5.1.6). Other mdoc ecosystems name their own purposes for the same roles, for
    /// example ``CertificateProfile/eudiPIDDocumentSignerOID`` for an EU PID Provider's
    /// document signer. Roots carry no extendedKeyUsage, so it must be `nil` for them.
    public var extendedKeyUsageOIDs: [String]?
    /// Departures from the profile made on purpose, for negative test material; none by
    /// default. End-entity certificates only. Mark such a certificate as test material, for
    /// example with a `TEST: ...` organizationalUnitName in its ``subject``.
    public var deviations: Set<Deviation> = []

    /// A builder for one certificate of `profile`.
    public init(
        profile: Profile,
        subject: DistinguishedName,
        notValidBefore: Date,
        notValidAfter: Date,
        issuerAlternativeName: AlternativeName? = nil,
        crlDistributionPoint: String? = nil,
        extendedKeyUsageOIDs: [String]? = nil
    ) {
        self.profile = profile
        self.subject = subject
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
        self.issuerAlternativeName = issuerAlternativeName
        self.crlDistributionPoint = crlDistributionPoint
        self.extendedKeyUsageOIDs = extendedKeyUsageOIDs
    }

    /// A self-signed root certificate (``Profile/iaca`` or ``Profile/readerRoot``) for `key`.
    ///
    /// Throws `CryptoError.Code.invalidParameter` for an end-entity profile or a field outside
    /// the profile, `CryptoError.Code.unsupportedAlgorithm` for an X25519 or X448 key.
    public func selfSigned(key: PrivateKey) throws(CryptoError) -> Certificate {
        guard profile.isRoot else {
            throw CryptoError(.invalidParameter, "certificate builder: a \(profile) certificate is issued by a CA, not self-signed")
        }
        try checkFields()
        return try build(subjectKey: key.publicKey, issuer: nil, signingKey: key)
    }

    /// An end-entity certificate (``Profile/documentSigner`` or ``Profile/readerAuthentication``)
    /// for `publicKey`, issued by `issuer` and signed with `signingKey`, the private key of
    /// `issuer`. Its authorityKeyIdentifier is the issuer's subjectKeyIdentifier.
    ///
    /// Throws `CryptoError.Code.invalidParameter` for a root profile, a field outside the
    /// profile, an issuer that is not a CA with keyCertSign and a subjectKeyIdentifier, a
    /// validity period outside the issuer's, or (document signer) a countryName other than the
    /// issuer's; `CryptoError.Code.invalidKey` when `signingKey` is not the issuer's key;
    /// `CryptoError.Code.unsupportedAlgorithm` for X25519 or X448 keys.
    public func issued(for publicKey: PublicKey, by issuer: Certificate, signingKey: PrivateKey) throws(CryptoError) -> Certificate {
        guard !profile.isRoot else {
            throw CryptoError(.invalidParameter, "certificate builder: a \(profile) certificate is self-signed; use selfSigned(key:)")
        }
        try checkFields()
        guard signingKey.publicKey == issuer.publicKey else {
            throw CryptoError(.invalidKey, "certificate builder: the signing key is not the key of \"\(issuer.subject)\"")
        }
        guard issuer.basicConstraints?.isCA == true, issuer.keyUsage?.contains(.keyCertSign) == true else {
            throw CryptoError(.invalidParameter, "certificate builder: \"\(issuer.subject)\" is not a CA certificate with keyCertSign")
        }
        guard issuer.subjectKeyIdentifier != nil else {
            throw CryptoError(.invalidParameter, "certificate builder: \"\(issuer.subject)\" has no subjectKeyIdentifier")
        }
        guard seconds(notValidBefore) >= seconds(issuer.notValidBefore), seconds(notValidAfter) <= seconds(issuer.notValidAfter) else {
            throw CryptoError(
                .invalidParameter,
                "certificate builder: the validity period lies outside that of \"\(issuer.subject)\""
            )
        }
        if profile == .documentSigner {
            let issuerCountry = X509Fields.attribute(NID_countryName, in: issuer.fields.subject)
            guard issuerCountry == subject.country else {
                throw CryptoError(
                    .invalidParameter,
                    "certificate builder: the document signer countryName \(subject.country) differs from the IACA's \(issuerCountry ?? "(none)") (ISO/IEC 18013-5 Annex B)"
                )
            }
        }
        return try build(subjectKey: publicKey, issuer: issuer, signingKey: signingKey)
    }

    /// The hash a `curve` key signs certificates with: ``Curve/signatureDigest``, `nil` for
    /// EdDSA; Montgomery keys cannot sign.
    static func signatureDigest(for curve: Curve) throws(CryptoError) -> DigestAlgorithm? {
        guard !curve.isMontgomery else {
            throw CryptoError(.unsupportedAlgorithm, "certificate builder: \(curve) keys agree keys and cannot sign certificates")
        }
        return curve.signatureDigest
    }

    private func seconds(_ date: Date) -> Double {
        date.timeIntervalSince1970.rounded(.down)
    }

    private func build(subjectKey: PublicKey, issuer: Certificate?, signingKey: PrivateKey) throws(CryptoError) -> Certificate {
        if subjectKey.curve.isMontgomery {
            throw CryptoError(.unsupportedAlgorithm, "certificate builder: \(subjectKey.curve) keys agree keys and cannot sign")
        }
        let digest = try Self.signatureDigest(for: signingKey.curve)
        guard let pointer = X509_new() else {
            throw .openSSL(.libraryFailure, "certificate builder: cannot allocate a certificate")
        }
        let certificate = X509Handle(takingOwnershipOf: pointer)
        let name = try subject.openSSLName()
        defer { X509_NAME_free(name) }
        let issuerName = issuer.map { $0.fields.subject } ?? name
        guard X509_set_version(pointer, Int(X509_VERSION_3)) == 1,
            mdoc_certificate_set_random_serial(pointer, Self.serialNumberByteCount) == 1,
            ASN1_TIME_set(X509_getm_notBefore(pointer), time_t(seconds(notValidBefore))) != nil,
            ASN1_TIME_set(X509_getm_notAfter(pointer), time_t(seconds(notValidAfter))) != nil,
            X509_set_subject_name(pointer, name) == 1,
            X509_set_issuer_name(pointer, issuerName) == 1,
            X509_set_pubkey(pointer, subjectKey.key.pointer) == 1
        else {
            throw .openSSL(.libraryFailure, "certificate builder: cannot set the \(profile) certificate fields")
        }
        try addExtensions(to: pointer, issuer: issuer)
        guard X509_sign(pointer, signingKey.key.pointer, digest?.messageDigest) > 0 else {
            throw .openSSL(.libraryFailure, "certificate builder: signing the \(profile) certificate failed")
        }
        let length = i2d_X509(pointer, nil)
        guard length > 0 else {
            throw .openSSL(.libraryFailure, "certificate builder: the \(profile) certificate does not encode")
        }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_X509(certificate.pointer, &cursor)
        }
        guard written == length else {
            throw .openSSL(.libraryFailure, "certificate builder: the \(profile) certificate does not encode")
        }
        return try Certificate(derEncoded: der)
    }

    /// Calls `body` with C strings of `strings`, in order, valid during the call.
    private static func withCStrings<Result>(
        _ strings: ArraySlice<String>, _ pointers: [UnsafePointer<CChar>?] = [],
        _ body: ([UnsafePointer<CChar>?]) -> Result
    ) -> Result {
        guard let first = strings.first else { return body(pointers) }
        return first.withCString { withCStrings(strings.dropFirst(), pointers + [$0], body) }
    }

    /// The key usage bits: the profile's, changed by the deviations.
    private var keyUsage: Certificate.KeyUsage {
        var usage = profile.keyUsage
        if deviations.contains(.noDigitalSignature) { usage = .nonRepudiation }
        if deviations.contains(.certificateAuthority) { usage.insert(.keyCertSign) }
        return usage
    }

    /// The extendedKeyUsage purposes written, or `nil` for none: the ones given, else the
    /// profile's, else (``Deviation/wrongExtendedKeyUsage``) the other role's.
    private var extendedKeyUsagePurposes: [String]? {
        if deviations.contains(.noExtendedKeyUsage) { return nil }
        if deviations.contains(.wrongExtendedKeyUsage) {
            return [profile.chainProfile == .documentSigner ? CertificateProfile.readerAuthenticationOID : CertificateProfile.documentSignerOID]
        }
        return extendedKeyUsageOIDs ?? profile.extendedKeyUsageOID.map { [$0] }
    }

    private func addExtensions(to certificate: OpaquePointer, issuer: Certificate?) throws(CryptoError) {
        func require(_ status: Int32, _ name: String) throws(CryptoError) {
            guard status == 1 else {
                throw .openSSL(.libraryFailure, "certificate builder: cannot add \(name) to the \(profile) certificate")
            }
        }
        if profile.isRoot {
            try require(mdoc_certificate_add_basic_constraints_ca(certificate, 0), "basicConstraints")
        } else if deviations.contains(.certificateAuthority) {
            try require(mdoc_certificate_add_basic_constraints_ca(certificate, -1), "basicConstraints")
        }
        try require(mdoc_certificate_add_key_usage(certificate, UInt32(keyUsage.rawValue)), "keyUsage")
        if let purposes = extendedKeyUsagePurposes {
            let status = Self.withCStrings(purposes[...]) { pointers in
                pointers.withUnsafeBufferPointer { mdoc_certificate_add_extended_key_usage(certificate, $0.baseAddress, $0.count) }
            }
            try require(status, "extendedKeyUsage")
        }
        if !deviations.contains(.noSubjectKeyIdentifier) {
            try require(mdoc_certificate_add_subject_key_identifier(certificate), "subjectKeyIdentifier")
        }
        if let identifier = issuer?.subjectKeyIdentifier, !deviations.contains(.noAuthorityKeyIdentifier) {
            let status = identifier.withUnsafeBufferPointer { buffer in
                mdoc_certificate_add_authority_key_identifier(certificate, buffer.baseAddress, buffer.count)
            }
            try require(status, "authorityKeyIdentifier")
        }
        switch issuerAlternativeName {
        case .uri(let value)?:
            try require(mdoc_certificate_add_issuer_alternative_name(certificate, 1, value), "issuerAltName")
        case .email(let value)?:
            try require(mdoc_certificate_add_issuer_alternative_name(certificate, 0, value), "issuerAltName")
        case nil:
            break
        }
        if let crlDistributionPoint {
            try require(mdoc_certificate_add_crl_distribution_point(certificate, crlDistributionPoint), "cRLDistributionPoints")
        }
    }
}
