extension HPKE {
    /// `Encap(pkR)` of DHKEM(P-256, HKDF-SHA256) (RFC 9180 section 4.1) with the sender's
    /// ephemeral key `ephemeralKey` (a fresh key, except in known-answer tests): the KEM shared
    /// secret and `enc`, the ephemeral public key serialised as in section 7.1.1.
    static func encapsulate(
        to recipient: PublicKey, ephemeralKey: PrivateKey, suite: HPKECipherSuite
    ) throws(CryptoError) -> (sharedSecret: SecureBytes, encapsulatedKey: [UInt8]) {
        try checkCurve(recipient.curve, of: "recipient's public key", suite: suite)
        try checkCurve(ephemeralKey.curve, of: "ephemeral key", suite: suite)
        let dh = try ephemeralKey.sharedSecret(with: recipient)
        let encapsulatedKey = try serialize(ephemeralKey.publicKey, suite: suite)
        let kemContext = encapsulatedKey + (try serialize(recipient, suite: suite))
        return (try extractAndExpand(dh, kemContext: kemContext, suite: suite), encapsulatedKey)
    }

    /// `Decap(enc, skR)` of DHKEM(P-256, HKDF-SHA256) (RFC 9180 section 4.1): `enc` must be the
    /// 65-byte uncompressed encoding of a point on P-256 (`DeserializePublicKey`, section
    /// 7.1.1; the point is validated as section 7.1.4 asks) before any key agreement.
    static func decapsulate(
        _ encapsulatedKey: [UInt8], recipientKey: PrivateKey, suite: HPKECipherSuite
    ) throws(CryptoError) -> SecureBytes {
        try checkCurve(recipientKey.curve, of: "recipient's private key", suite: suite)
        guard encapsulatedKey.count == suite.encapsulatedKeyByteCount, encapsulatedKey.first == 0x04 else {
            throw CryptoError(
                .invalidKey,
                "an HPKE encapsulated key for \(suite.curve) is the \(suite.encapsulatedKeyByteCount)-byte uncompressed point "
                    + "(RFC 9180 section 7.1.1), not \(encapsulatedKey.count) bytes"
                    + (encapsulatedKey.count == suite.encapsulatedKeyByteCount ? " starting with another byte than 04" : ""))
        }
        let ephemeral = try PublicKey(x963Representation: encapsulatedKey, curve: suite.curve)
        let dh = try recipientKey.sharedSecret(with: ephemeral)
        let kemContext = encapsulatedKey + (try serialize(recipientKey.publicKey, suite: suite))
        return try extractAndExpand(dh, kemContext: kemContext, suite: suite)
    }

    /// `ExtractAndExpand(dh, kem_context)` (RFC 9180 section 4.1): `eae_prk = LabeledExtract("",
    /// "eae_prk", dh)`, then `LabeledExpand(eae_prk, "shared_secret", kem_context, Nsecret)`.
    private static func extractAndExpand(
        _ dh: SharedSecret, kemContext: [UInt8], suite: HPKECipherSuite
    ) throws(CryptoError) -> SecureBytes {
        let suiteIdentifier = suite.kemSuiteIdentifier
        let prk = try dh.withUnsafeBytes { (dhBytes) throws(CryptoError) -> SecureBytes in
            try labeledExtract(
                salt: UnsafeRawBufferPointer(start: nil, count: 0), label: "eae_prk", inputKeyMaterial: dhBytes,
                suiteIdentifier: suiteIdentifier)
        }
        return try labeledExpand(
            prk, label: "shared_secret", info: kemContext, outputByteCount: suite.kemSecretByteCount,
            suiteIdentifier: suiteIdentifier)
    }

    /// `SerializePublicKey` (RFC 9180 section 7.1.1): the uncompressed SEC1 point.
    private static func serialize(_ key: PublicKey, suite: HPKECipherSuite) throws(CryptoError) -> [UInt8] {
        let point = key.x963Representation
        guard point.count == suite.encapsulatedKeyByteCount else {
            throw CryptoError(.libraryFailure, "OpenSSL gave no uncompressed point for a \(key.curve) key")
        }
        return point
    }

    private static func checkCurve(_ curve: Curve, of role: String, suite: HPKECipherSuite) throws(CryptoError) {
        guard curve == suite.curve else {
            throw CryptoError(.curveMismatch, "the \(role) is on \(curve); the HPKE suite \(suite) needs \(suite.curve)")
        }
    }
}
