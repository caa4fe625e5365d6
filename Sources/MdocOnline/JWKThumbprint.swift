import MdocCBOR
import MdocCrypto

/// The JWK SHA-256 Thumbprint (RFC 7638) of an elliptic-curve public key: the SHA-256 of the
/// key's required JWK members, `crv`, `kty`, `x` and `y` (RFC 7518 section 6.2.1), in
/// lexicographic order with no whitespace (RFC 7638 section 3.2). OpenID4VP 1.0 binds the
/// verifier's encryption key into the SessionTranscript with it (Appendix B.2.6).
public struct JWKThumbprint: Sendable, Hashable {
    /// The 32 bytes of the thumbprint.
    public let bytes: [UInt8]

    /// The length of a SHA-256 thumbprint.
    public static let byteCount = 32

    /// A thumbprint given as its bytes (as a verifier publishes it, base64url-decoded), which
    /// must be ``byteCount`` long (else `.unsupportedKey`).
    public init(bytes: [UInt8]) throws(OnlineError) {
        guard bytes.count == Self.byteCount else {
            throw OnlineError(.unsupportedKey, "a JWK SHA-256 thumbprint has \(Self.byteCount) bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// The thumbprint of `key`, which must be on P-256, P-384 or P-521 (`EC` keys with a JOSE
    /// curve name; else `.unsupportedKey`).
    public init(of key: PublicKey) throws(OnlineError) {
        bytes = DigestAlgorithm.sha256.hash(Array(try Self.thumbprintInput(of: key).utf8))
    }

    /// The JSON text hashed (RFC 7638 section 3.2): `{"crv":"P-256","kty":"EC","x":"...","y":"..."}`,
    /// coordinates in base64url without padding, each the full length of the curve's field
    /// (RFC 7518 section 6.2.1.2).
    static func thumbprintInput(of key: PublicKey) throws(OnlineError) -> String {
        guard [Curve.p256, .p384, .p521].contains(key.curve) else {
            throw OnlineError(.unsupportedKey, "a \(key.curve) key has no JWK form with a JOSE curve name (RFC 7518 section 6.2.1.1)")
        }
        guard let (x, y) = key.coordinates else {
            throw OnlineError(.unsupportedKey, "OpenSSL gave no coordinates for the \(key.curve) key")
        }
        return #"{"crv":"\#(key.curve.rawValue)","kty":"EC","x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(y))"}"#
    }
}
