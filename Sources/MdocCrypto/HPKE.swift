/// Hybrid Public Key Encryption (RFC 9180) in base mode, single-shot (section 6.1), for the
/// suites of ``HPKECipherSuite``: how ISO/IEC TS 18013-7 Annex C encrypts the DeviceResponse to
/// the reader's `recipientPublicKey`, with the SessionTranscript as `info` and empty `aad`.
///
/// Built from this module's P-256 ECDH, HKDF-SHA256 (extract and expand as separate steps) and
/// AES-GCM: OpenSSL 3.0 has no HPKE API. Checked against the test vectors of RFC 9180 Appendix
/// A.3. Every input is bounded before any work (``maximumPlaintextByteCount``,
/// ``maximumInfoByteCount``, ``maximumAssociatedDataByteCount``); the shared secrets and keys
/// live in wiped storage and appear in no message.
public enum HPKE: Sendable {
    /// 8 MiB: the longest plaintext sealed or opened, the largest message ISO/IEC 18013-5 decodes
    /// (MdocCBOR's `CBORLimits.defaultMaximumInputSize`); a ciphertext may be longer by the tag.
    public static let maximumPlaintextByteCount = 8 * 1024 * 1024

    /// 64 KiB: the longest `info`. An ISO/IEC TS 18013-7 SessionTranscript is under 100 bytes,
    /// one of ISO/IEC 18013-5 (with the DeviceEngagement) a few hundred.
    public static let maximumInfoByteCount = 65_536

    /// 64 KiB: the longest `aad` (empty in ISO/IEC TS 18013-7 Annex C).
    public static let maximumAssociatedDataByteCount = 65_536

    /// `SealBase(pkR, info, aad, pt)` (RFC 9180 section 6.1) with a fresh ephemeral key.
    ///
    /// Throws `.curveMismatch` for a recipient key not on the suite's curve, `.inputTooLarge`
    /// for a plaintext, `info` or `aad` over its limit.
    public static func seal(
        _ plaintext: [UInt8], to recipient: PublicKey, info: [UInt8], authenticating aad: [UInt8] = [],
        suite: HPKECipherSuite = .p256SHA256AES128GCM
    ) throws(CryptoError) -> HPKESealedMessage {
        try seal(plaintext, to: recipient, info: info, authenticating: aad, suite: suite, ephemeralKey: PrivateKey(generating: suite.curve))
    }

    /// ``seal(_:to:info:authenticating:suite:)`` with the given ephemeral key in place of a fresh
    /// one: for the known-answer tests of RFC 9180 Appendix A only, since reusing an ephemeral
    /// key breaks the confidentiality of every message sealed under it.
    static func seal(
        _ plaintext: [UInt8], to recipient: PublicKey, info: [UInt8], authenticating aad: [UInt8],
        suite: HPKECipherSuite, ephemeralKey: PrivateKey
    ) throws(CryptoError) -> HPKESealedMessage {
        try checkLength(plaintext.count, limit: maximumPlaintextByteCount, of: "plaintext")
        try checkLength(info.count, limit: maximumInfoByteCount, of: "info")
        try checkLength(aad.count, limit: maximumAssociatedDataByteCount, of: "aad")
        let (sharedSecret, encapsulatedKey) = try encapsulate(to: recipient, ephemeralKey: ephemeralKey, suite: suite)
        let context = try HPKEContext(sharedSecret: sharedSecret, info: info, suite: suite)
        return HPKESealedMessage(
            encapsulatedKey: encapsulatedKey, ciphertext: try context.seal(plaintext, authenticating: aad, sequenceNumber: 0))
    }

    /// `OpenBase(enc, skR, info, aad, ct)` (RFC 9180 section 6.1): the plaintext, or an error and
    /// nothing of it.
    ///
    /// Throws `.inputTooLarge` for a ciphertext, `info` or `aad` over its limit; `.invalidKey`
    /// for an encapsulated key that is not a 65-byte uncompressed point, `.invalidPoint` for one
    /// not on the curve; `.curveMismatch` for a recipient key not on the suite's curve;
    /// `.invalidParameter` for a ciphertext shorter than the tag; `.authenticationFailure` when
    /// the tag does not verify (another recipient key, `info` or `aad`, or altered bytes).
    public static func open(
        _ message: HPKESealedMessage, recipientKey: PrivateKey, info: [UInt8], authenticating aad: [UInt8] = [],
        suite: HPKECipherSuite = .p256SHA256AES128GCM
    ) throws(CryptoError) -> [UInt8] {
        try checkLength(message.ciphertext.count, limit: maximumPlaintextByteCount + AESGCM.tagByteCount, of: "ciphertext")
        try checkLength(info.count, limit: maximumInfoByteCount, of: "info")
        try checkLength(aad.count, limit: maximumAssociatedDataByteCount, of: "aad")
        let sharedSecret = try decapsulate(message.encapsulatedKey, recipientKey: recipientKey, suite: suite)
        let context = try HPKEContext(sharedSecret: sharedSecret, info: info, suite: suite)
        return try context.open(message.ciphertext, authenticating: aad, sequenceNumber: 0)
    }

    private static func checkLength(_ count: Int, limit: Int, of input: String) throws(CryptoError) {
        guard count <= limit else {
            throw CryptoError(.inputTooLarge, "the HPKE \(input) has \(count) bytes, more than the limit of \(limit)")
        }
    }
}
