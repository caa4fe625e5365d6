import COpenSSL

extension PrivateKey {
    /// The shared secret with `peer` (`EVP_PKEY_derive`): ECDH on Weierstrass curves (SEC 1 v2
    /// section 3.3.1, the x-coordinate, `coordinateByteCount` bytes), X25519 or X448 (RFC 7748
    /// section 6). ISO/IEC 18013-5 9.1.1.4 (session keys) and 9.1.3.5 (EMacKey).
    ///
    /// The peer is validated: it must be on this key's curve (`.curveMismatch`) and pass the
    /// partial public-key validation of NIST SP 800-56A Rev. 3 section 5.6.2.3.4 (`.invalidPoint`);
    /// a result OpenSSL refuses, such as the all-zero X25519/X448 output of a low-order point,
    /// throws `.invalidPoint`. Ed25519 and Ed448 keys throw `.unsupportedAlgorithm`. A key a token
    /// or TPM holds (``KeyProvider``) agrees the key there; one it refuses to derive with throws
    /// `.operationNotPermitted`, and one whose token or TPM no longer answers
    /// `.keyStoreUnavailable`.
    public func sharedSecret(with peer: PublicKey) throws(CryptoError) -> SharedSecret {
        guard !curve.isEdwards else {
            throw CryptoError(.unsupportedAlgorithm, "\(curve) keys sign and cannot agree keys")
        }
        guard peer.curve == curve else {
            throw CryptoError(.curveMismatch, "the peer key is on \(peer.curve), this key on \(curve)")
        }
        // A key a token or TPM holds agrees keys there, through its provider (KeyProvider.propertyQuery).
        guard let context = EVP_PKEY_CTX_new_from_pkey(key.provider?.library, key.pointer, key.provider?.propertyQuery) else {
            throw .openSSL(.libraryFailure, "cannot make a key agreement context for \(curve)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_derive_init(context) == 1 else {
            if let provider = key.provider {
                throw provider.refusal(of: "agree keys", by: key, curve: curve)
            }
            throw .openSSL(.libraryFailure, "cannot start key agreement on \(curve)")
        }
        try Self.checkPeer(peer)
        // Validation is already done: 0 skips OpenSSL's full public-key check (see `checkPeer`).
        guard EVP_PKEY_derive_set_peer_ex(context, peer.key.pointer, 0) == 1 else {
            throw .openSSL(.invalidPoint, "the peer's \(curve) public key is not usable for key agreement")
        }
        var length = 0
        guard EVP_PKEY_derive(context, nil, &length) == 1, length > 0 else {
            // tpm2-openssl agrees the key when asked for its size.
            if let provider = key.provider {
                throw provider.refusal(of: "agree keys", by: key, curve: curve)
            }
            throw .openSSL(.libraryFailure, "cannot size the \(curve) shared secret")
        }
        let secret = SecureBytes(count: length)
        let status = secret.withUnsafeMutableBytes { buffer in
            EVP_PKEY_derive(context, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
        }
        guard status == 1 else {
            if let provider = key.provider {
                throw provider.refusal(of: "agree keys", by: key, curve: curve)
            }
            throw .openSSL(.invalidPoint, "key agreement with the peer's \(curve) public key failed")
        }
        return SharedSecret(storage: length == secret.count ? secret : SecureBytes(prefix: length, of: secret))
    }

    /// Partial public-key validation of the peer (NIST SP 800-56A Rev. 3 section 5.6.2.3.4,
    /// `EVP_PKEY_public_check_quick`): for Weierstrass curves, the point is not the identity, its
    /// coordinates are in range and it is on the curve.
    ///
    /// This is enough, and OpenSSL's full check (`EVP_PKEY_public_check`, which adds the
    /// multiplication nQ = O and costs more than half of an ECDH on P-256) is not needed: every
    /// Weierstrass curve ISO/IEC 18013-5 9.1.5.2 allows for key agreement (P-256, P-384, P-521 and
    /// the brainpool r1 curves) has cofactor 1, so every point on the curve other than the identity
    /// has order n, and the check nQ = O adds nothing (SEC 1 v2 section 3.2.2.1, step 4). A
    /// `PublicKey` made from a SEC1 point or coordinates is already on its curve, but one decoded
    /// from a SubjectPublicKeyInfo can be the identity, so the quick check stays. X25519 and X448
    /// keys have no invalid encodings; their low-order points give an all-zero secret, which
    /// `EVP_PKEY_derive` refuses (RFC 7748 section 6).
    private static func checkPeer(_ peer: PublicKey) throws(CryptoError) {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, peer.key.pointer, nil) else {
            throw .openSSL(.libraryFailure, "cannot make a key check context for \(peer.curve)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check_quick(context) == 1 else {
            throw .openSSL(.invalidPoint, "the peer's \(peer.curve) public key fails validation")
        }
    }
}
