import MdocCrypto

/// The COSE algorithms ISO/IEC 18013-5 uses (RFC 9053; IANA "COSE Algorithms").
///
/// Signature algorithms and the curves each one is used with (ISO/IEC 18013-5 9.1.5.2 and
/// Table 22; the brainpool curves follow the ECDSA digest of their size class, as 18013-5 pairs
/// them):
///
/// | algorithm | value | digest | curves |
/// |---|---|---|---|
/// | ES256 | -7 | SHA-256 | P-256, brainpoolP256r1, brainpoolP320r1 |
/// | ES384 | -35 | SHA-384 | P-384, brainpoolP384r1 |
/// | ES512 | -36 | SHA-512 | P-521, brainpoolP512r1 |
/// | EdDSA | -8 | (none) | Ed25519, Ed448 |
///
/// HMAC 256/256 (5, RFC 9053 section 3.1) is the MAC algorithm of the mdoc MAC authentication
/// (ISO/IEC 18013-5 9.1.3.5).
public enum COSEAlgorithm: Int64, Sendable, CaseIterable, CustomStringConvertible {
    /// ECDSA with SHA-256 (RFC 9053 section 2.1).
    case es256 = -7
    /// ECDSA with SHA-384 (RFC 9053 section 2.1).
    case es384 = -35
    /// ECDSA with SHA-512 (RFC 9053 section 2.1).
    case es512 = -36
    /// EdDSA, pure (RFC 9053 section 2.2).
    case edDSA = -8
    /// HMAC with SHA-256 and a 256-bit tag, "HMAC 256/256" (RFC 9053 section 3.1).
    case hmac256 = 5

    /// The name in the IANA "COSE Algorithms" registry.
    public var description: String {
        switch self {
        case .es256: return "ES256"
        case .es384: return "ES384"
        case .es512: return "ES512"
        case .edDSA: return "EdDSA"
        case .hmac256: return "HMAC 256/256"
        }
    }

    /// The hash the algorithm applies to the message, or `nil` for EdDSA, which hashes inside the
    /// signature scheme (RFC 9053 sections 2.1, 2.2, 3.1).
    public var digest: DigestAlgorithm? {
        switch self {
        case .es256, .hmac256: return .sha256
        case .es384: return .sha384
        case .es512: return .sha512
        case .edDSA: return nil
        }
    }

    /// `true` for the signature algorithms (COSE_Sign1), `false` for HMAC (COSE_Mac0).
    public var isSignatureAlgorithm: Bool {
        self != .hmac256
    }

    /// The curves a key may be on to sign with this algorithm (see the table on the type;
    /// ISO/IEC 18013-5 Table 22). Empty for HMAC.
    public var curves: [Curve] {
        switch self {
        case .es256: return [.p256, .brainpoolP256r1, .brainpoolP320r1]
        case .es384: return [.p384, .brainpoolP384r1]
        case .es512: return [.p521, .brainpoolP512r1]
        case .edDSA: return [.ed25519, .ed448]
        case .hmac256: return []
        }
    }

    /// The signature algorithm a key on `curve` signs with (the table on the type): `nil` for
    /// X25519 and X448, which only agree keys.
    public static func signatureAlgorithm(forKeyOn curve: Curve) -> COSEAlgorithm? {
        allCases.first { $0.isSignatureAlgorithm && $0.isSuitable(for: curve) }
    }

    /// `true` when a key on `curve` may sign with this algorithm.
    public func isSuitable(for curve: Curve) -> Bool {
        curves.contains(curve)
    }
}

extension COSEAlgorithm {
    /// The digest argument for `PrivateKey.signature(for:digest:)` and
    /// `PublicKey.isValidSignature(_:for:digest:)`, which ignore it for EdDSA keys.
    var signingDigest: DigestAlgorithm {
        digest ?? .sha512
    }
}
