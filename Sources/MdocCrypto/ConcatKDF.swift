import COpenSSL
import COpenSSLShims

/// The Concat KDF with SHA-256 (NIST SP 800-56A Rev. 2 section 5.8.1, the single-step KDF of
/// SP 800-56C), through OpenSSL's `EVP_KDF` "SSKDF": how JWE's ECDH-ES derives the content
/// encryption key from the shared secret Z (RFC 7518 section 4.6.2), for OpenID4VP's encrypted
/// responses.
///
/// `K(i) = SHA-256(counter_i || Z || OtherInfo)`, the counter a 32-bit big-endian number from 1,
/// the key the first `outputByteCount` bytes of `K(1) || K(2) || ...`.
public enum ConcatKDF: Sendable {
    /// The longest output: 64 bytes, two rounds, past every AES key a JWE uses.
    public static let maximumOutputByteCount = 64

    /// The longest OtherInfo: 64 KiB. RFC 7518's (AlgorithmID, PartyUInfo, PartyVInfo,
    /// SuppPubInfo) is a few dozen bytes plus `apu` and `apv`.
    public static let maximumOtherInfoByteCount = 65_536

    /// The Concat KDF of `sharedSecret` (Z) with `otherInfo`, giving 1...``maximumOutputByteCount``
    /// bytes. Wrong sizes throw `.invalidParameter`.
    public static func deriveKey(
        sharedSecret: SharedSecret, otherInfo: [UInt8], outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        guard (1...maximumOutputByteCount).contains(outputByteCount) else {
            throw CryptoError(.invalidParameter, "the Concat KDF gives 1...\(maximumOutputByteCount) bytes here, not \(outputByteCount)")
        }
        guard otherInfo.count <= maximumOtherInfoByteCount else {
            throw CryptoError(
                .invalidParameter, "the Concat KDF OtherInfo has \(otherInfo.count) bytes, more than the limit of \(maximumOtherInfoByteCount)")
        }
        let output = try sharedSecret.withUnsafeBytes { (secret) throws(CryptoError) -> SecureBytes in
            try otherInfo.withUnsafeBytes { infoBytes in Result { () throws(CryptoError) -> SecureBytes in
                // The names and buffers stay alive until the derivation returns.
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(
                        mdoc_OSSL_KDF_PARAM_DIGEST(), UnsafeMutablePointer(mutating: OBJ_nid2sn(NID_sha256)), 0),
                    OSSL_PARAM_construct_octet_string(
                        mdoc_OSSL_KDF_PARAM_KEY(), UnsafeMutableRawPointer(mutating: secret.baseAddress), secret.count),
                ]
                // An empty OtherInfo is left out (OpenSSL refuses an octet string with no buffer).
                if let infoStart = infoBytes.baseAddress, !infoBytes.isEmpty {
                    parameters.append(OSSL_PARAM_construct_octet_string(
                        mdoc_OSSL_KDF_PARAM_INFO(), UnsafeMutableRawPointer(mutating: infoStart), infoBytes.count))
                }
                return try KeyDerivationFunction.singleStep.derive(
                    outputByteCount: outputByteCount, parameters: &parameters, failure: "the Concat KDF failed")
            } }.get()
        }
        return SymmetricKey(storage: output)
    }
}
