import COpenSSL

extension PrivateKey {
    /// Signs `message`: ECDSA with `digest` on Weierstrass curves, returning the raw fixed-width
    /// `r‖s` (2 × `curve.coordinateByteCount` bytes) COSE uses (RFC 9053 section 2.1; ISO/IEC
    /// 18013-5 9.1.3.6, 9.1.4, 9.1.5), or pure EdDSA on Ed25519 and Ed448 (RFC 8032; RFC 9053
    /// section 2.2), which ignores `digest`.
    ///
    /// Throws `.unsupportedAlgorithm` for X25519 and X448, which only agree keys. A key a token or
    /// TPM holds (``KeyProvider``) signs there; one it refuses to sign with throws
    /// `.operationNotPermitted`, and one whose token or TPM no longer answers
    /// `.keyStoreUnavailable`.
    public func signature(for message: [UInt8], digest: DigestAlgorithm) throws(CryptoError) -> [UInt8] {
        guard !curve.isMontgomery else {
            throw CryptoError(.unsupportedAlgorithm, "\(curve) keys agree keys and cannot sign")
        }
        guard let context = EVP_MD_CTX_new() else {
            throw .openSSL(.libraryFailure, "cannot make a signing context")
        }
        defer { EVP_MD_CTX_free(context) }
        let messageDigest = curve.isEdwards ? nil : digest.messageDigest
        let started: Int32
        if let provider = key.provider {
            // A key a token or TPM holds: the signature is made by its provider, fetched in its
            // library context (KeyProvider.propertyQuery).
            started = EVP_DigestSignInit_ex(
                context, nil, messageDigest.flatMap { EVP_MD_get0_name($0) }, provider.library, provider.propertyQuery,
                key.pointer, nil)
        } else {
            started = EVP_DigestSignInit(context, nil, messageDigest, nil, key.pointer)
        }
        guard started == 1 else {
            if let provider = key.provider {
                throw provider.refusal(of: "sign", by: key, curve: curve)
            }
            throw .openSSL(.libraryFailure, "cannot start signing with the \(curve) key")
        }
        var signature = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(key.pointer)))
        var length = signature.count
        let status = message.withUnsafeBufferPointer { input in
            EVP_DigestSign(context, &signature, &length, input.baseAddress, input.count)
        }
        guard status == 1, length <= signature.count else {
            if let provider = key.provider {
                throw provider.refusal(of: "sign", by: key, curve: curve)
            }
            throw .openSSL(.libraryFailure, "signing with the \(curve) key failed")
        }
        signature.removeSubrange(length...)
        guard curve.isWeierstrass else { return signature }
        return try ECDSASignature.rawFromDER(signature, coordinateByteCount: curve.coordinateByteCount)
    }
}
