import COpenSSL

extension PrivateKey {
    /// The shared secret with `peer` (`EVP_PKEY_derive`): ECDH on Weierstrass curves (SEC 1 v2
    /// section 3.3.1, the x-coordinate, `coordinateByteCount` bytes), X25519 or X448 (RFC 7748
    /// section 6). ISO/IEC 18013-5 9.1.1.4 (session keys) and 9.1.3.5 (EMacKey).
    ///
    /// The peer is validated: it must be on this key's curve (`.curveMismatch`) and pass OpenSSL's
    /// public-key check; a result OpenSSL refuses, such as the all-zero X25519/X448 output of a
    /// low-order point, throws `.invalidPoint`. Ed25519 and Ed448 keys throw
    /// `.unsupportedAlgorithm`.
    public func sharedSecret(with peer: PublicKey) throws(CryptoError) -> SharedSecret {
        guard !curve.isEdwards else {
            throw CryptoError(.unsupportedAlgorithm, "\(curve) keys sign and cannot agree keys")
        }
        guard peer.curve == curve else {
            throw CryptoError(.curveMismatch, "the peer key is on \(peer.curve), this key on \(curve)")
        }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            throw .openSSL(.libraryFailure, "cannot make a key agreement context for \(curve)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_derive_init(context) == 1 else {
            throw .openSSL(.libraryFailure, "cannot start key agreement on \(curve)")
        }
        guard EVP_PKEY_derive_set_peer_ex(context, peer.key.pointer, 1) == 1 else {
            throw .openSSL(.invalidPoint, "the peer's \(curve) public key fails validation")
        }
        var length = 0
        guard EVP_PKEY_derive(context, nil, &length) == 1, length > 0 else {
            throw .openSSL(.libraryFailure, "cannot size the \(curve) shared secret")
        }
        let secret = SecureBytes(count: length)
        let status = secret.withUnsafeMutableBytes { buffer in
            EVP_PKEY_derive(context, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
        }
        guard status == 1 else {
            throw .openSSL(.invalidPoint, "key agreement with the peer's \(curve) public key failed")
        }
        return SharedSecret(storage: length == secret.count ? secret : SecureBytes(prefix: length, of: secret))
    }
}
