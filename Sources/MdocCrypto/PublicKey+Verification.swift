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
        guard let der = ecdsaSignatureDER(signature) else { return false }
        return verify(der, message: message, messageDigest: digest.fetchedMessageDigest)
    }

    /// Whether `signature` is a valid signature by this key of the message that `parts` make one
    /// after the other, as ``isValidSignature(_:for:digest:)`` decides for that message, with the
    /// parts read where they lie: ECDSA hashes them in turn (`EVP_DigestVerifyUpdate`), so that a
    /// large part, such as the payload of a received COSE_Sign1 (RFC 9052 section 4.4), is never
    /// copied. Pure EdDSA hashes the message after the signature's R and the key (RFC 8032
    /// sections 5.1.7 and 5.2.7), which OpenSSL does only in one call: for Ed25519 and Ed448
    /// keys the parts are joined first.
    public func isValidSignature(_ signature: [UInt8], forConcatenationOf parts: [UnsafeRawBufferPointer], digest: DigestAlgorithm) -> Bool {
        if curve.isEdwards {
            var message: [UInt8] = []
            message.reserveCapacity(parts.reduce(0) { $0 + $1.count })
            for part in parts { message.append(contentsOf: part) }
            return verify(signature, message: message, messageDigest: nil)
        }
        guard let der = ecdsaSignatureDER(signature), let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let verified = EVP_DigestVerifyInit(context, nil, digest.fetchedMessageDigest, nil, key.pointer) == 1
            && parts.allSatisfy { EVP_DigestVerifyUpdate(context, $0.baseAddress, $0.count) == 1 }
            && der.withUnsafeBufferPointer { EVP_DigestVerifyFinal(context, $0.baseAddress, $0.count) } == 1
        guard verified else {
            ERR_clear_error()
            return false
        }
        return true
    }

    /// The DER `ECDSA-Sig-Value` OpenSSL verifies, from a raw `r‖s` signature of exactly
    /// 2 × `curve.coordinateByteCount` bytes (RFC 9053 section 2.1); `nil` for any other length
    /// and for keys that are not on a Weierstrass curve.
    private func ecdsaSignatureDER(_ signature: [UInt8]) -> [UInt8]? {
        guard curve.isWeierstrass, signature.count == 2 * curve.coordinateByteCount else { return nil }
        return try? ECDSASignature.derFromRaw(signature)
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
