import MdocCrypto

/// The key of mdoc MAC authentication (ISO/IEC 18013-5 9.1.3.5):
///
///     EMacKey = HKDF-SHA-256(IKM: ECDH(SDeviceKey, EReaderKey), salt: SHA-256(SessionTranscriptBytes), info: "EMacKey", L: 32)
///
/// The mdoc uses its static device key (the MSO `deviceKey`) with the reader's ephemeral public
/// key; the reader uses its ephemeral private key with the MSO `deviceKey`.
public enum EMacKey {
    /// The HKDF `info` of EMacKey.
    public static let info: [UInt8] = Array("EMacKey".utf8)
    /// EMacKey is a 256-bit HMAC key (HMAC 256/256).
    public static let keyByteCount = 32

    /// Derives EMacKey from one side's private key, the other side's public key and the exact
    /// SessionTranscriptBytes.
    public static func derive(
        privateKey: PrivateKey,
        peerPublicKey: PublicKey,
        sessionTranscriptBytes: [UInt8]
    ) throws(CryptoError) -> SymmetricKey {
        let sharedSecret = try privateKey.sharedSecret(with: peerPublicKey)
        let salt = DigestAlgorithm.sha256.hash(sessionTranscriptBytes)
        return try sharedSecret.hkdfDerivedSymmetricKey(salt: salt, info: info, outputByteCount: keyByteCount)
    }
}
