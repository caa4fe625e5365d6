import COpenSSL

/// What RFC 5280 path validation (section 6.1) reads from one certificate's extensions, derived
/// from the decoded extensions exactly as OpenSSL 3.0 derives the extension cache its verifier
/// works from (`ossl_x509v3_cache_extensions`): basic constraints, key usage bits, key
/// identifiers, subject alternative names and which of them are critical.
///
/// ``OneHopPathValidation`` applies `X509_verify_cert`'s rules to these values. A certificate
/// whose extensions this summary does not fully describe is ``isComplete`` `false`, and its
/// chain is then validated by OpenSSL itself.
struct ExtensionSummary {
    /// The authority key identifier extension (RFC 5280 section 4.2.1.1).
    struct AuthorityKeyIdentifier {
        /// keyIdentifier, when present.
        let keyIdentifier: [UInt8]?
        /// Whether authorityCertIssuer or authorityCertSerialNumber is present.
        let namesIssuer: Bool
        /// Whether the extension is marked critical.
        let isCritical: Bool
    }

    /// keyCertSign in OpenSSL's key usage bits (the first two octets of the BIT STRING).
    static let keyCertSign: UInt32 = 0x0004
    /// cRLSign in OpenSSL's key usage bits.
    static let cRLSign: UInt32 = 0x0002

    /// The extensions OpenSSL's verifier reads that this summary does not describe: proxy
    /// certificate information (RFC 3820), Netscape certificate type, name constraints (RFC 5280
    /// section 4.2.1.10) and the RFC 3779 IP address and AS identifier blocks.
    private static let undescribed: Set<Int32> = [
        NID_proxyCertInfo, NID_netscape_cert_type, NID_name_constraints, NID_sbgp_ipAddrBlock,
        NID_sbgp_autonomousSysNum,
    ]

    /// `false` when an extension the verifier reads does not decode or appears twice, a
    /// pathLenConstraint is negative, the key usage has no bit set, a distribution point names
    /// nothing (OpenSSL marks such a certificate invalid), a critical extension is one OpenSSL
    /// does not process, or an extension is one of those this summary does not describe.
    let isComplete: Bool
    /// basicConstraints is present.
    let hasBasicConstraints: Bool
    /// basicConstraints cA is TRUE.
    let isCA: Bool
    /// basicConstraints is marked critical.
    let basicConstraintsIsCritical: Bool
    /// basicConstraints has a pathLenConstraint (that OpenSSL reads as a number).
    let hasPathLength: Bool
    /// keyUsage is present.
    let hasKeyUsage: Bool
    /// The key usage bits as OpenSSL holds them (0 when absent).
    let keyUsage: UInt32
    /// The authority key identifier, when present.
    let authorityKeyIdentifier: AuthorityKeyIdentifier?
    /// The subject key identifier, when present.
    let subjectKeyIdentifier: [UInt8]?
    /// subjectKeyIdentifier is marked critical.
    let subjectKeyIdentifierIsCritical: Bool
    /// The number of names in subjectAltName, or `nil` when absent.
    let subjectAlternativeNameCount: Int?
    /// subjectAltName is marked critical.
    let subjectAlternativeNameIsCritical: Bool

    /// The summary of the extensions of `fields`.
    init(_ fields: CertificateFields) {
        var complete = true
        var critical: Set<Int32> = []
        for index in 0..<fields.extensionCount {
            guard let entry = fields.extensionEntry(at: index) else { continue }
            let nid = OBJ_obj2nid(X509_EXTENSION_get_object(entry))
            if Self.undescribed.contains(nid) { complete = false }
            if X509_EXTENSION_get_critical(entry) != 0 {
                if X509_supported_extension(entry) == 0 { complete = false }
                critical.insert(nid)
            }
        }
        let extensions = fields.extensions

        var constraints: (isCA: Bool, hasPathLength: Bool)?
        complete = Self.read(NID_basic_constraints, in: extensions, complete) { raw in
            let value = raw.assumingMemoryBound(to: BASIC_CONSTRAINTS.self)
            defer { BASIC_CONSTRAINTS_free(value) }
            var hasPathLength = false
            if let pathLength = value.pointee.pathlen {
                guard ASN1_STRING_type(pathLength) != V_ASN1_NEG_INTEGER else { return false }
                hasPathLength = ASN1_INTEGER_get(pathLength) != -1
            }
            constraints = (value.pointee.ca != 0, hasPathLength)
            return true
        }
        var usage: UInt32?
        complete = Self.read(NID_key_usage, in: extensions, complete) { raw in
            let bits = raw.assumingMemoryBound(to: ASN1_BIT_STRING.self)
            defer { ASN1_BIT_STRING_free(bits) }
            let octets = X509Fields.bytes(bits)
            let value = UInt32(octets.first ?? 0) | UInt32(octets.dropFirst().first ?? 0) << 8
            usage = value
            return value != 0
        }
        complete = Self.read(NID_ext_key_usage, in: extensions, complete) { raw in
            EXTENDED_KEY_USAGE_free(OpaquePointer(raw))
            return true
        }
        var subjectKeyIdentifier: [UInt8]?
        complete = Self.read(NID_subject_key_identifier, in: extensions, complete) { raw in
            let octets = raw.assumingMemoryBound(to: ASN1_OCTET_STRING.self)
            defer { ASN1_OCTET_STRING_free(octets) }
            subjectKeyIdentifier = X509Fields.bytes(octets)
            return true
        }
        var authority: AuthorityKeyIdentifier?
        complete = Self.read(NID_authority_key_identifier, in: extensions, complete) { raw in
            let identifier = raw.assumingMemoryBound(to: AUTHORITY_KEYID.self)
            defer { AUTHORITY_KEYID_free(identifier) }
            authority = AuthorityKeyIdentifier(
                keyIdentifier: identifier.pointee.keyid.map { X509Fields.bytes($0) },
                namesIssuer: identifier.pointee.issuer != nil || identifier.pointee.serial != nil,
                isCritical: critical.contains(NID_authority_key_identifier))
            return true
        }
        var alternativeNames: Int?
        complete = Self.read(NID_subject_alt_name, in: extensions, complete) { raw in
            defer { GENERAL_NAMES_free(OpaquePointer(raw)) }
            alternativeNames = Int(OPENSSL_sk_num(OpaquePointer(raw)))
            return true
        }
        complete = Self.read(NID_crl_distribution_points, in: extensions, complete) { raw in
            let points = OpaquePointer(raw)
            defer { CRL_DIST_POINTS_free(points) }
            return (0..<max(OPENSSL_sk_num(points), 0)).allSatisfy { index in
                guard let point = OPENSSL_sk_value(points, index)?.assumingMemoryBound(to: DIST_POINT.self).pointee
                else { return false }
                guard let name = point.distpoint else {
                    // RFC 5280 section 4.2.1.13: a point names a distributionPoint or a cRLIssuer.
                    return point.CRLissuer.map { OPENSSL_sk_num($0) > 0 } ?? false
                }
                // nameRelativeToCRLIssuer: OpenSSL completes the name from the issuer; not described.
                return name.pointee.type != 1
            }
        }

        isComplete = complete
        hasBasicConstraints = constraints != nil
        isCA = constraints?.isCA ?? false
        basicConstraintsIsCritical = critical.contains(NID_basic_constraints)
        hasPathLength = constraints?.hasPathLength ?? false
        hasKeyUsage = usage != nil
        keyUsage = usage ?? 0
        authorityKeyIdentifier = authority
        self.subjectKeyIdentifier = subjectKeyIdentifier
        subjectKeyIdentifierIsCritical = critical.contains(NID_subject_key_identifier)
        subjectAlternativeNameCount = alternativeNames
        subjectAlternativeNameIsCritical = critical.contains(NID_subject_alt_name)
    }

    /// Whether the key usage, when present, lacks all of `bits` (OpenSSL's `ku_reject`).
    func keyUsageRejects(_ bits: UInt32) -> Bool {
        hasKeyUsage && keyUsage & bits == 0
    }

    /// Decodes extension `nid` with OpenSSL (`X509V3_get_d2i`, as `X509_get_ext_d2i` does) and
    /// hands it to `read`, which frees it and says whether it is acceptable. Returns `complete`
    /// and'ed with that; `false` when the extension appears twice or does not decode.
    private static func read(
        _ nid: Int32, in extensions: OpaquePointer?, _ complete: Bool, _ read: (UnsafeMutableRawPointer) -> Bool
    ) -> Bool {
        var critical: Int32 = 0
        guard let decoded = X509V3_get_d2i(extensions, nid, &critical, nil) else {
            ERR_clear_error()
            return complete && critical == -1
        }
        return read(decoded) && complete
    }
}
