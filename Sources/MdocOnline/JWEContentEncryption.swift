import MdocCrypto

/// The JWE content encryption algorithms (`enc`, RFC 7518 section 5.1) this module accepts: AES
/// GCM with a 96-bit IV and a 128-bit tag (section 5.3), the ones OpenID4VP 1.0 lists for
/// encrypted responses. Any other `enc` is refused, never looked up.
public enum JWEContentEncryption: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `A128GCM`: AES-128-GCM.
    case a128gcm = "A128GCM"
    /// `A256GCM`: AES-256-GCM.
    case a256gcm = "A256GCM"

    public var description: String { rawValue }

    /// The AES key length, which is also the length of the key ECDH-ES derives (RFC 7518
    /// section 4.6.2, `keydatalen`).
    public var keyLength: AESGCM.KeyLength {
        switch self {
        case .a128gcm: return .bits128
        case .a256gcm: return .bits256
        }
    }
}
