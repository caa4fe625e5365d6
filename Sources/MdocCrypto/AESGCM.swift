import COpenSSL

/// AES-256-GCM (NIST SP 800-38D) with a 12-byte nonce and a 16-byte tag appended to the
/// ciphertext: the session encryption of ISO/IEC 18013-5 9.1.1.5 (SessionEstablishment and
/// SessionData `data`). Through OpenSSL's `EVP_EncryptInit_ex2` / `EVP_DecryptInit_ex2`.
///
/// AES-128-GCM is there as well, named explicitly (``KeyLength``), for the HPKE suites that name
/// it (RFC 9180 section 7.3, ``HPKE``) and JWE's `A128GCM` (RFC 7518 section 5.3).
public enum AESGCM: Sendable {
    /// The AES key length, which picks the cipher: AES-128-GCM or AES-256-GCM.
    public enum KeyLength: Sendable, CaseIterable {
        /// AES-128-GCM: 16-byte keys.
        case bits128
        /// AES-256-GCM: 32-byte keys.
        case bits256

        /// The key length in bytes.
        public var byteCount: Int { self == .bits128 ? 16 : 32 }

        /// The cipher's name in messages.
        var name: String { self == .bits128 ? "AES-128-GCM" : "AES-256-GCM" }

        /// OpenSSL's static cipher.
        var cipher: OpaquePointer? { self == .bits128 ? EVP_aes_128_gcm() : EVP_aes_256_gcm() }
    }

    /// The key length: AES-256 (18013-5 9.1.1.5).
    public static let keyByteCount = 32
    /// The nonce (IV) length: 96 bits, 18013-5's 8-byte identifier ‖ 4-byte counter.
    public static let nonceByteCount = 12
    /// The tag length: 128 bits.
    public static let tagByteCount = 16

    /// OpenSSL takes lengths as `Int32`; longer inputs go in pieces of this size.
    private static let chunkByteCount = Int(Int32.max) & ~0xF

    /// Encrypts `plaintext` and authenticates it together with `aad`; returns ciphertext ‖ tag.
    ///
    /// Throws `.invalidParameter` for a key that is not 32 bytes or a nonce that is not 12 bytes.
    public static func seal(
        _ plaintext: [UInt8], key: SymmetricKey, nonce: [UInt8], authenticating aad: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        try seal(plaintext, key: key, nonce: nonce, authenticating: aad, keyLength: .bits256)
    }

    /// ``seal(_:key:nonce:authenticating:)`` with the cipher of `keyLength`; the key must have
    /// its length.
    public static func seal(
        _ plaintext: [UInt8], key: SymmetricKey, nonce: [UInt8], authenticating aad: [UInt8], keyLength: KeyLength
    ) throws(CryptoError) -> [UInt8] {
        let context = try makeContext(key: key, nonce: nonce, encrypting: true, keyLength: keyLength)
        defer { EVP_CIPHER_CTX_free(context) }
        var sealed = [UInt8](repeating: 0, count: plaintext.count + tagByteCount)
        let finished = sealed.withUnsafeMutableBufferPointer { output -> Bool in
            guard let outputStart = output.baseAddress,
                  update(context, input: aad, output: nil, encrypting: true),
                  update(context, input: plaintext, output: outputStart, encrypting: true)
            else { return false }
            var finalLength: Int32 = 0
            return EVP_EncryptFinal_ex(context, outputStart + plaintext.count, &finalLength) == 1
                && finalLength == 0
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), outputStart + plaintext.count) == 1
        }
        guard finished else {
            throw .openSSL(.libraryFailure, "\(keyLength.name) encryption failed")
        }
        return sealed
    }

    /// Checks the tag at the end of `sealed` (ciphertext ‖ tag) over the ciphertext and `aad` and
    /// returns the plaintext.
    ///
    /// Throws `.authenticationFailure` when the tag does not verify (nothing of the plaintext is
    /// returned), `.invalidParameter` for a wrong key or nonce length or input shorter than a tag.
    public static func open(
        _ sealed: [UInt8], key: SymmetricKey, nonce: [UInt8], authenticating aad: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        try open(sealed, key: key, nonce: nonce, authenticating: aad, keyLength: .bits256)
    }

    /// ``open(_:key:nonce:authenticating:)`` with the cipher of `keyLength`; the key must have
    /// its length.
    public static func open(
        _ sealed: [UInt8], key: SymmetricKey, nonce: [UInt8], authenticating aad: [UInt8], keyLength: KeyLength
    ) throws(CryptoError) -> [UInt8] {
        guard sealed.count >= tagByteCount else {
            throw CryptoError(.invalidParameter, "\(keyLength.name) input has \(sealed.count) bytes, less than the \(tagByteCount)-byte tag")
        }
        let context = try makeContext(key: key, nonce: nonce, encrypting: false, keyLength: keyLength)
        defer { EVP_CIPHER_CTX_free(context) }
        let ciphertextCount = sealed.count - tagByteCount
        var tag = Array(sealed[ciphertextCount...])
        var plaintext = [UInt8](repeating: 0, count: ciphertextCount)
        let prepared = plaintext.withUnsafeMutableBufferPointer { output -> Bool in
            update(context, input: aad, output: nil, encrypting: false)
                && sealed.withUnsafeBufferPointer { input in
                    update(context, input: UnsafeBufferPointer(rebasing: input[..<ciphertextCount]), output: output.baseAddress, encrypting: false)
                }
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount), &tag) == 1
        }
        guard prepared else {
            throw .openSSL(.libraryFailure, "\(keyLength.name) decryption failed")
        }
        var finalLength: Int32 = 0
        var scratch = [UInt8](repeating: 0, count: tagByteCount)
        guard EVP_DecryptFinal_ex(context, &scratch, &finalLength) == 1 else {
            ERR_clear_error()
            throw CryptoError(.authenticationFailure, "the \(keyLength.name) tag does not verify")
        }
        return plaintext
    }

    /// A cipher context set up with the key and nonce; the caller frees it.
    private static func makeContext(
        key: SymmetricKey, nonce: [UInt8], encrypting: Bool, keyLength: KeyLength
    ) throws(CryptoError) -> OpaquePointer {
        guard key.byteCount == keyLength.byteCount else {
            throw CryptoError(.invalidParameter, "an \(keyLength.name) key has \(keyLength.byteCount) bytes, not \(key.byteCount)")
        }
        guard nonce.count == nonceByteCount else {
            throw CryptoError(.invalidParameter, "an \(keyLength.name) nonce has \(nonceByteCount) bytes, not \(nonce.count)")
        }
        guard let context = EVP_CIPHER_CTX_new() else {
            throw .openSSL(.libraryFailure, "cannot make a cipher context")
        }
        let status = key.withUnsafeBytes { keyBytes in
            nonce.withUnsafeBufferPointer { nonceBytes in
                let keyStart = keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                return encrypting
                    ? EVP_EncryptInit_ex2(context, keyLength.cipher, keyStart, nonceBytes.baseAddress, nil)
                    : EVP_DecryptInit_ex2(context, keyLength.cipher, keyStart, nonceBytes.baseAddress, nil)
            }
        }
        guard status == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw .openSSL(.libraryFailure, "cannot set up \(keyLength.name)")
        }
        return context
    }

    /// Feeds `input` (AAD when `output` is `nil`) to the cipher in `Int32`-sized pieces.
    private static func update(
        _ context: OpaquePointer, input: [UInt8], output: UnsafeMutablePointer<UInt8>?, encrypting: Bool
    ) -> Bool {
        input.withUnsafeBufferPointer { update(context, input: $0, output: output, encrypting: encrypting) }
    }

    private static func update(
        _ context: OpaquePointer, input: UnsafeBufferPointer<UInt8>, output: UnsafeMutablePointer<UInt8>?, encrypting: Bool
    ) -> Bool {
        var offset = 0
        while offset < input.count {
            let pieceCount = min(chunkByteCount, input.count - offset)
            var written: Int32 = 0
            let status = encrypting
                ? EVP_EncryptUpdate(context, output.map { $0 + offset }, &written, input.baseAddress.map { $0 + offset }, Int32(pieceCount))
                : EVP_DecryptUpdate(context, output.map { $0 + offset }, &written, input.baseAddress.map { $0 + offset }, Int32(pieceCount))
            guard status == 1, output == nil || Int(written) == pieceCount else { return false }
            offset += pieceCount
        }
        return true
    }
}
