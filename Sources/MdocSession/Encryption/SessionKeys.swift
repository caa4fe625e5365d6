import MdocCrypto

/// The two session keys of an ISO/IEC 18013-5 session, derived once per session
/// (18013-5 9.1.1.5):
///
///     SKReader = HKDF-SHA-256(IKM: ECDH(EDeviceKey, EReaderKey), salt: SHA-256(SessionTranscriptBytes), info: "SKReader", L: 32)
///     SKDevice = HKDF-SHA-256(IKM: ECDH(EDeviceKey, EReaderKey), salt: SHA-256(SessionTranscriptBytes), info: "SKDevice", L: 32)
///
/// The mdoc computes the shared secret from its EDeviceKey private key and the reader's
/// EReaderKey; the reader from EReaderKey's private key and the mdoc's EDeviceKey. Both get the
/// same pair.
public struct SessionKeys: Sendable {
    /// The key the reader encrypts with (and the mdoc decrypts with).
    public let skReader: SymmetricKey
    /// The key the mdoc encrypts with (and the reader decrypts with).
    public let skDevice: SymmetricKey

    /// The HKDF `info` of SKReader.
    public static let readerInfo: [UInt8] = Array("SKReader".utf8)
    /// The HKDF `info` of SKDevice.
    public static let deviceInfo: [UInt8] = Array("SKDevice".utf8)
    /// Session keys are 256-bit AES keys (cipher suite 1).
    public static let keyByteCount = 32

    /// Derives both keys from our ephemeral private key, the peer's ephemeral public key and
    /// the exact SessionTranscriptBytes (`#6.24(bstr .cbor SessionTranscript)`).
    public init(
        privateKey: PrivateKey,
        peerPublicKey: PublicKey,
        sessionTranscriptBytes: [UInt8]
    ) throws(CryptoError) {
        let sharedSecret = try privateKey.sharedSecret(with: peerPublicKey)
        let salt = DigestAlgorithm.sha256.hash(sessionTranscriptBytes)
        self.skReader = try sharedSecret.hkdfDerivedSymmetricKey(
            salt: salt, info: Self.readerInfo, outputByteCount: Self.keyByteCount)
        self.skDevice = try sharedSecret.hkdfDerivedSymmetricKey(
            salt: salt, info: Self.deviceInfo, outputByteCount: Self.keyByteCount)
    }
}
