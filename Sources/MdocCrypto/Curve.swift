import COpenSSL

/// The elliptic curves ISO/IEC 18013-5 allows for device, reader and issuer keys
/// (18013-5 9.1.5.2 and Table 22; COSE identifiers from RFC 9053 and the IANA COSE registry).
public enum Curve: String, Sendable, CaseIterable, CustomStringConvertible {
    /// NIST P-256 (secp256r1), COSE crv 1.
    case p256 = "P-256"
    /// NIST P-384 (secp384r1), COSE crv 2.
    case p384 = "P-384"
    /// NIST P-521 (secp521r1), COSE crv 3.
    case p521 = "P-521"
    /// brainpoolP256r1 (RFC 5639), COSE crv 256.
    case brainpoolP256r1
    /// brainpoolP320r1 (RFC 5639), COSE crv 257.
    case brainpoolP320r1
    /// brainpoolP384r1 (RFC 5639), COSE crv 258.
    case brainpoolP384r1
    /// brainpoolP512r1 (RFC 5639), COSE crv 259.
    case brainpoolP512r1
    /// X25519 (RFC 7748), key agreement only, COSE crv 4.
    case x25519 = "X25519"
    /// X448 (RFC 7748), key agreement only, COSE crv 5.
    case x448 = "X448"
    /// Ed25519 (RFC 8032), signatures only, COSE crv 6.
    case ed25519 = "Ed25519"
    /// Ed448 (RFC 8032), signatures only, COSE crv 7.
    case ed448 = "Ed448"

    public var description: String { rawValue }

    /// The COSE `crv` value (IANA "COSE Elliptic Curves").
    public var coseIdentifier: Int64 {
        switch self {
        case .p256: return 1
        case .p384: return 2
        case .p521: return 3
        case .x25519: return 4
        case .x448: return 5
        case .ed25519: return 6
        case .ed448: return 7
        case .brainpoolP256r1: return 256
        case .brainpoolP320r1: return 257
        case .brainpoolP384r1: return 258
        case .brainpoolP512r1: return 259
        }
    }

    /// The curve for a COSE `crv` value, or `nil` when 18013-5 does not use it.
    public init?(coseIdentifier: Int64) {
        guard let curve = Curve.allCases.first(where: { $0.coseIdentifier == coseIdentifier }) else { return nil }
        self = curve
    }

    /// `true` for the Weierstrass curves (COSE key type EC2: ECDH and ECDSA).
    public var isWeierstrass: Bool {
        switch self {
        case .x25519, .x448, .ed25519, .ed448: return false
        default: return true
        }
    }

    /// `true` for curves used only for signing (Ed25519, Ed448: EdDSA).
    public var isEdwards: Bool { self == .ed25519 || self == .ed448 }

    /// `true` for curves used only for key agreement (X25519, X448).
    public var isMontgomery: Bool { self == .x25519 || self == .x448 }

    /// The hash ECDSA signatures by a key on this curve use (ISO/IEC 18013-5 9.1.5.2, Table 22;
    /// brainpoolP320r1 pairs with SHA-256 as ES256, as in COSEAlgorithm's table); `nil` for the
    /// Edwards curves (EdDSA hashes internally) and the Montgomery curves (they cannot sign).
    public var signatureDigest: DigestAlgorithm? {
        switch self {
        case .p256, .brainpoolP256r1, .brainpoolP320r1: return .sha256
        case .p384, .brainpoolP384r1: return .sha384
        case .p521, .brainpoolP512r1: return .sha512
        case .ed25519, .ed448, .x25519, .x448: return nil
        }
    }

    /// The byte length of one coordinate, of a scalar, and of a raw OKP key.
    public var coordinateByteCount: Int {
        switch self {
        case .p256, .brainpoolP256r1, .x25519: return 32
        case .brainpoolP320r1: return 40
        case .p384, .brainpoolP384r1: return 48
        case .p521: return 66
        case .brainpoolP512r1: return 64
        case .x448: return 56
        case .ed25519: return 32
        case .ed448: return 57
        }
    }

    /// The OpenSSL NID: the named curve for Weierstrass curves, the key type for the others.
    var nid: Int32 {
        switch self {
        case .p256: return NID_X9_62_prime256v1
        case .p384: return NID_secp384r1
        case .p521: return NID_secp521r1
        case .brainpoolP256r1: return NID_brainpoolP256r1
        case .brainpoolP320r1: return NID_brainpoolP320r1
        case .brainpoolP384r1: return NID_brainpoolP384r1
        case .brainpoolP512r1: return NID_brainpoolP512r1
        case .x25519: return NID_X25519
        case .x448: return NID_X448
        case .ed25519: return NID_ED25519
        case .ed448: return NID_ED448
        }
    }

    /// The curve of an OpenSSL NID (named-curve NID or key-type NID).
    init?(nid: Int32) {
        guard let curve = Curve.allCases.first(where: { $0.nid == nid }) else { return nil }
        self = curve
    }
}
