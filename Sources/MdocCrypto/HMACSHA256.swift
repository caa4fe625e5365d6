import COpenSSL

/// HMAC with SHA-256 (RFC 2104, FIPS 198-1), COSE algorithm 5 "HMAC 256/256" (RFC 9053 section
/// 3.1): the DeviceMac of ISO/IEC 18013-5 9.1.3.5. Through OpenSSL's `EVP_Q_mac`.
public enum HMACSHA256: Sendable {
    /// The length of a tag in bytes.
    public static let byteCount = 32

    /// The 32-byte HMAC-SHA-256 of `message` under `key` (any length, including empty). Empty only
    /// if OpenSSL fails internally (memory exhaustion); an empty tag never verifies.
    public static func authenticationCode(for message: [UInt8], key: SymmetricKey) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: byteCount)
        var length = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                EVP_Q_mac(
                    nil, "HMAC", nil, "SHA256", nil, keyBytes.baseAddress, keyBytes.count,
                    messageBytes.baseAddress, messageBytes.count, &tag, byteCount, &length)
            }
        }
        guard result != nil, length == byteCount else {
            ERR_clear_error()
            return []
        }
        return tag
    }

    /// Whether `tag` is the HMAC-SHA-256 of `message` under `key`: the full 32 bytes, compared in
    /// constant time (`CRYPTO_memcmp`).
    public static func isValidAuthenticationCode(_ tag: [UInt8], for message: [UInt8], key: SymmetricKey) -> Bool {
        let expected = authenticationCode(for: message, key: key)
        guard expected.count == byteCount, tag.count == byteCount else { return false }
        return CRYPTO_memcmp(expected, tag, byteCount) == 0
    }
}
