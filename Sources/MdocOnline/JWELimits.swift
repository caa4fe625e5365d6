/// The bounds on a JWE received (RFC 7516 section 11 leaves them to the recipient): its text is
/// input of a sender's choosing, checked before anything is decoded.
public enum JWELimits {
    /// 12 MiB: the longest compact JWE. Its ciphertext is at most MdocCrypto's
    /// `HPKE.maximumPlaintextByteCount` (8 MiB, the largest DeviceResponse decoded), which
    /// base64url makes 10.7 MiB, with room for the header.
    public static let maximumCompactByteCount = 12 * 1024 * 1024

    /// 16 KiB: the longest protected header, decoded. An ECDH-ES header with `epk`, `apu`, `apv`
    /// and `kid` is a few hundred bytes.
    public static let maximumHeaderByteCount = 16 * 1024

    /// 4 levels: the deepest protected header. The header object holds the `epk` object, which
    /// holds strings.
    public static let maximumHeaderDepth = 4
}
