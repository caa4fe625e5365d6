import COpenSSL

extension PublicKey {
    /// Whether `signature` is a valid signature of `message` by this key: ECDSA with `digest` and
    /// a raw `r‖s` signature of exactly 2 × `curve.coordinateByteCount` bytes on Weierstrass
    /// curves (RFC 9053 section 2.1; ISO/IEC 18013-5 9.1.2.4, 9.1.3.6, 9.1.4), pure EdDSA on
    /// Ed25519 and Ed448 (RFC 8032; RFC 9053 section 2.2), ignoring `digest`.
    ///
    /// `false` for any other length, for X25519 and X448 keys, and for any failure. One
    /// `EVP_DigestVerify` call on the already-parsed key.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8], digest: DigestAlgorithm) -> Bool {
        if curve.isEdwards {
            return verify(signature, message: message, messageDigest: nil)
        }
        guard curve.isWeierstrass, signature.count == 2 * curve.coordinateByteCount,
              let der = try? ECDSASignature.derFromRaw(signature)
        else { return false }
        return verify(der, message: message, messageDigest: digest.messageDigest)
    }

    /// `EVP_DigestVerify` of an OpenSSL-encoded signature (DER for ECDSA, raw for EdDSA) with
    /// `messageDigest` (`nil` for EdDSA).
    func verify(_ signature: [UInt8], message: [UInt8], messageDigest: OpaquePointer?) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, messageDigest, nil, key.pointer) == 1 else {
            ERR_clear_error()
            return false
        }
        let status = signature.withUnsafeBufferPointer { signatureBytes in
            message.withUnsafeBufferPointer { messageBytes in
                EVP_DigestVerify(context, signatureBytes.baseAddress, signatureBytes.count, messageBytes.baseAddress, messageBytes.count)
            }
        }
        guard status == 1 else {
            ERR_clear_error()
            return false
        }
        return true
    }
}
