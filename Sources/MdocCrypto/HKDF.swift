import COpenSSL
import COpenSSLShims

/// HKDF with SHA-256 (RFC 5869), through OpenSSL's `EVP_KDF` "HKDF": the key derivation of
/// ISO/IEC 18013-5 9.1.1.5 (SKReader, SKDevice) and 9.1.3.5 (EMacKey), and, as separate extract
/// and expand steps, of HPKE (RFC 9180 section 4, ``HPKE``).
public enum HKDF: Sendable {
    /// The longest output: 255 × the SHA-256 length (RFC 5869 section 2.3).
    public static let maximumOutputByteCount = 255 * 32

    /// The longest `info`: OpenSSL 3.0's HKDF keeps at most 1024 bytes of it. 18013-5 uses
    /// 8-byte values ("SKReader", "SKDevice") and "EMacKey".
    public static let maximumInfoByteCount = 1024

    /// HKDF-SHA-256 extract-then-expand of `inputKeyMaterial` (non-empty) with `salt` (may be
    /// empty, RFC 5869 section 2.2) and `info` (at most ``maximumInfoByteCount`` bytes), giving
    /// 1...``maximumOutputByteCount`` bytes. Wrong sizes throw `.invalidParameter`.
    public static func deriveKey(
        inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        let derived = inputKeyMaterial.withUnsafeBytes { ikm in
            Result { () throws(CryptoError) -> SymmetricKey in
                try deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: outputByteCount)
            }
        }
        return try derived.get()
    }

    /// The same, reading the key material in place (for ``SharedSecret``).
    static func deriveKey(
        inputKeyMaterial: UnsafeRawBufferPointer, salt: [UInt8], info: [UInt8], outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        guard (1...maximumOutputByteCount).contains(outputByteCount) else {
            throw CryptoError(.invalidParameter, "HKDF-SHA-256 gives 1...\(maximumOutputByteCount) bytes, not \(outputByteCount)")
        }
        guard info.count <= maximumInfoByteCount else {
            throw CryptoError(.invalidParameter, "the HKDF info has \(info.count) bytes, more than the limit of \(maximumInfoByteCount)")
        }
        let output = salt.withUnsafeBytes { saltBytes in
            Result { () throws(CryptoError) -> SecureBytes in
                try derive(
                    mode: EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND, key: inputKeyMaterial, salt: saltBytes, info: info,
                    outputByteCount: outputByteCount)
            }
        }
        return SymmetricKey(storage: try output.get())
    }

    /// The length of a pseudorandom key: the SHA-256 length (RFC 5869 section 2.2).
    static let pseudorandomKeyByteCount = 32

    /// HKDF-Extract (RFC 5869 section 2.2) alone: the ``pseudorandomKeyByteCount``-byte PRK of
    /// `inputKeyMaterial` (non-empty) under `salt` (may be empty, as a string of zeros). Both may
    /// be secrets, so both are read in place and the PRK stays in wiped storage.
    static func extract(salt: UnsafeRawBufferPointer, inputKeyMaterial: UnsafeRawBufferPointer) throws(CryptoError) -> SecureBytes {
        try derive(mode: EVP_KDF_HKDF_MODE_EXTRACT_ONLY, key: inputKeyMaterial, salt: salt, info: [], outputByteCount: pseudorandomKeyByteCount)
    }

    /// HKDF-Expand (RFC 5869 section 2.3) alone: `outputByteCount` bytes (1...``maximumOutputByteCount``)
    /// of the pseudorandom key `pseudorandomKey` with `info` (at most ``maximumInfoByteCount`` bytes).
    static func expand(pseudorandomKey: UnsafeRawBufferPointer, info: [UInt8], outputByteCount: Int) throws(CryptoError) -> SecureBytes {
        guard (1...maximumOutputByteCount).contains(outputByteCount) else {
            throw CryptoError(.invalidParameter, "HKDF-SHA-256 gives 1...\(maximumOutputByteCount) bytes, not \(outputByteCount)")
        }
        guard info.count <= maximumInfoByteCount else {
            throw CryptoError(.invalidParameter, "the HKDF info has \(info.count) bytes, more than the limit of \(maximumInfoByteCount)")
        }
        return try derive(mode: EVP_KDF_HKDF_MODE_EXPAND_ONLY, key: pseudorandomKey, salt: UnsafeRawBufferPointer(start: nil, count: 0), info: info, outputByteCount: outputByteCount)
    }

    /// One `EVP_KDF_derive` of OpenSSL's "HKDF" in `mode` (extract and expand, extract only, or
    /// expand only, where `key` is the PRK) into wiped storage of `outputByteCount` bytes.
    private static func derive(
        mode: Int32, key: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, info: [UInt8], outputByteCount: Int
    ) throws(CryptoError) -> SecureBytes {
        guard let keyStart = key.baseAddress, !key.isEmpty else {
            throw CryptoError(.invalidParameter, "the HKDF input keying material is empty")
        }
        var modeValue = mode
        let derived = info.withUnsafeBytes { infoBytes in Result { () throws(CryptoError) -> SecureBytes in
            // The names and buffers stay alive until the derivation returns.
            var parameters = [
                OSSL_PARAM_construct_utf8_string(
                    mdoc_OSSL_KDF_PARAM_DIGEST(), UnsafeMutablePointer(mutating: OBJ_nid2sn(NID_sha256)), 0),
                OSSL_PARAM_construct_int(mdoc_OSSL_KDF_PARAM_MODE(), &modeValue),
                OSSL_PARAM_construct_octet_string(
                    mdoc_OSSL_KDF_PARAM_KEY(), UnsafeMutableRawPointer(mutating: keyStart), key.count),
            ]
            // An empty salt or info is left out (OpenSSL refuses an octet string with no
            // buffer); no salt is a salt of zeros (RFC 5869 section 2.2).
            if let saltStart = salt.baseAddress, !salt.isEmpty {
                parameters.append(OSSL_PARAM_construct_octet_string(
                    mdoc_OSSL_KDF_PARAM_SALT(), UnsafeMutableRawPointer(mutating: saltStart), salt.count))
            }
            if let infoStart = infoBytes.baseAddress, !infoBytes.isEmpty {
                parameters.append(OSSL_PARAM_construct_octet_string(
                    mdoc_OSSL_KDF_PARAM_INFO(), UnsafeMutableRawPointer(mutating: infoStart), infoBytes.count))
            }
            return try KeyDerivationFunction.hkdf.derive(outputByteCount: outputByteCount, parameters: &parameters, failure: "HKDF-SHA-256 failed")
        } }
        return try derived.get()
    }
}
