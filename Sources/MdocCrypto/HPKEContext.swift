/// An HPKE encryption context in base mode (RFC 9180 section 5.1): the AEAD key and base nonce
/// that `KeySchedule` derives from the KEM shared secret and `info`, and the nonce of each
/// sequence number (section 5.2). The public API of ``HPKE`` is single-shot and uses sequence
/// number 0; the other sequence numbers are for the known-answer tests of Appendix A.
struct HPKEContext: Sendable {
    let suite: HPKECipherSuite
    /// `key`, Nk bytes.
    let key: SymmetricKey
    /// `base_nonce`, Nn bytes.
    let baseNonce: [UInt8]

    /// `mode_base` (RFC 9180 section 5.1, Table 1).
    private static let modeBase: UInt8 = 0x00

    /// `KeySchedule(mode_base, shared_secret, info, default_psk, default_psk_id)` (RFC 9180
    /// section 5.1), without the exporter secret, which nothing here uses.
    init(sharedSecret: SecureBytes, info: [UInt8], suite: HPKECipherSuite) throws(CryptoError) {
        let suiteIdentifier = suite.suiteIdentifier
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        let pskIdentifierHash = try HPKE.labeledExtract(
            salt: empty, label: "psk_id_hash", inputKeyMaterial: empty, suiteIdentifier: suiteIdentifier)
        let infoHash = try info.withUnsafeBytes { infoBytes in
            Result { () throws(CryptoError) -> SecureBytes in
                try HPKE.labeledExtract(salt: empty, label: "info_hash", inputKeyMaterial: infoBytes, suiteIdentifier: suiteIdentifier)
            }
        }.get()
        // Neither hash is secret: they are of the empty psk_id and of the info both sides know.
        let keyScheduleContext = [Self.modeBase]
            + pskIdentifierHash.withUnsafeBytes { Array($0) } + infoHash.withUnsafeBytes { Array($0) }
        let secret = try sharedSecret.withUnsafeBytes { (salt) throws(CryptoError) -> SecureBytes in
            try HPKE.labeledExtract(salt: salt, label: "secret", inputKeyMaterial: empty, suiteIdentifier: suiteIdentifier)
        }
        self.suite = suite
        key = SymmetricKey(storage: try HPKE.labeledExpand(
            secret, label: "key", info: keyScheduleContext, outputByteCount: suite.keyLength.byteCount,
            suiteIdentifier: suiteIdentifier))
        baseNonce = try HPKE.labeledExpand(
            secret, label: "base_nonce", info: keyScheduleContext, outputByteCount: suite.nonceByteCount,
            suiteIdentifier: suiteIdentifier
        ).withUnsafeBytes { Array($0) }
    }

    /// `ComputeNonce(seq)`: `base_nonce XOR I2OSP(seq, Nn)` (RFC 9180 section 5.2).
    func nonce(sequenceNumber: UInt64) -> [UInt8] {
        var nonce = baseNonce
        for index in 0..<8 {
            nonce[nonce.count - 1 - index] ^= UInt8(truncatingIfNeeded: sequenceNumber >> (8 * index))
        }
        return nonce
    }

    /// `ContextS.Seal(aad, pt)` at `sequenceNumber` (RFC 9180 section 5.2).
    func seal(_ plaintext: [UInt8], authenticating aad: [UInt8], sequenceNumber: UInt64) throws(CryptoError) -> [UInt8] {
        try AESGCM.seal(
            plaintext, key: key, nonce: nonce(sequenceNumber: sequenceNumber), authenticating: aad, keyLength: suite.keyLength)
    }

    /// `ContextR.Open(aad, ct)` at `sequenceNumber` (RFC 9180 section 5.2); a tag that does not
    /// verify throws `.authenticationFailure` (`OpenError`).
    func open(_ ciphertext: [UInt8], authenticating aad: [UInt8], sequenceNumber: UInt64) throws(CryptoError) -> [UInt8] {
        try AESGCM.open(
            ciphertext, key: key, nonce: nonce(sequenceNumber: sequenceNumber), authenticating: aad, keyLength: suite.keyLength)
    }
}
