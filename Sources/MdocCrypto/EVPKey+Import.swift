import COpenSSL
import COpenSSLShims

/// Making OpenSSL keys from raw material (OpenSSL 3 `EVP_PKEY_fromdata`, `EVP_PKEY_generate`).
extension EVPKey {
    /// A new key pair on `curve` (`EVP_PKEY_generate`).
    static func generate(on curve: Curve) throws(CryptoError) -> EVPKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, curve.keyTypeName, nil) else {
            throw .openSSL(.libraryFailure, "cannot make a key generation context for \(curve)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else {
            throw .openSSL(.libraryFailure, "cannot start key generation for \(curve)")
        }
        if curve.isWeierstrass {
            guard EVP_PKEY_CTX_set_group_name(context, curve.groupName) == 1 else {
                throw .openSSL(.libraryFailure, "cannot select the group of \(curve)")
            }
        }
        var generated: OpaquePointer?
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw .openSSL(.libraryFailure, "key generation for \(curve) failed")
        }
        return EVPKey(takingOwnershipOf: generated)
    }

    /// A Weierstrass public key from a SEC1 point encoding (SEC 1 v2 section 2.3.4), checked to be
    /// on `curve`. The caller has checked the prefix byte and the length.
    ///
    /// A copy of the curve's ``ECGroupTemplate`` gets the point with
    /// `EVP_PKEY_set1_encoded_public_key`, which decodes it with `EC_POINT_oct2point`: that
    /// refuses a point whose coordinates do not satisfy the curve equation, and a compressed x
    /// with no point on the curve.
    static func weierstrassPublicKey(point: [UInt8], curve: Curve) throws(CryptoError) -> EVPKey {
        let template = try ECGroupTemplate.key(for: curve)
        guard let copy = EVP_PKEY_dup(template.pointer) else {
            throw .openSSL(.libraryFailure, "cannot copy the group parameters of \(curve)")
        }
        let key = EVPKey(takingOwnershipOf: copy)
        guard EVP_PKEY_set1_encoded_public_key(copy, point, point.count) == 1 else {
            throw .openSSL(.invalidPoint, "the point is not on \(curve)")
        }
        return key
    }

    /// A Weierstrass key pair from the private scalar `d` (SEC 1 v2 section 3.2.1), which must be
    /// `coordinateByteCount` big-endian bytes in 1...n-1. The public point dG is computed here
    /// because OpenSSL 3.0 does not derive it on import.
    static func weierstrassPrivateKey(scalar: [UInt8], curve: Curve) throws(CryptoError) -> EVPKey {
        guard let group = EC_GROUP_new_by_curve_name(curve.nid) else {
            throw .openSSL(.libraryFailure, "cannot load the group of \(curve)")
        }
        defer { EC_GROUP_free(group) }
        // Secure-heap BIGNUM: OpenSSL then keeps the parameter copy on the secure heap too.
        guard let d = BN_secure_new() else {
            throw .openSSL(.libraryFailure, "cannot allocate the private scalar")
        }
        defer { BN_clear_free(d) }
        guard scalar.withUnsafeBytes({ BN_bin2bn($0.baseAddress, Int32($0.count), d) }) != nil else {
            throw .openSSL(.libraryFailure, "cannot load the private scalar")
        }
        BN_set_flags(d, BN_FLG_CONSTTIME)
        guard let order = EC_GROUP_get0_order(group) else {
            throw .openSSL(.libraryFailure, "cannot read the order of \(curve)")
        }
        guard BN_is_zero(d) == 0, BN_cmp(d, order) < 0 else {
            throw CryptoError(.invalidKey, "the private scalar is not in 1...n-1 for \(curve)")
        }
        guard let point = EC_POINT_new(group) else {
            throw .openSSL(.libraryFailure, "cannot make a point on \(curve)")
        }
        defer { EC_POINT_free(point) }
        guard EC_POINT_mul(group, point, d, nil, nil, nil) == 1 else {
            throw .openSSL(.libraryFailure, "cannot compute the public point on \(curve)")
        }
        let encodedCount = 1 + 2 * curve.coordinateByteCount
        var encoded = [UInt8](repeating: 0, count: encodedCount)
        let written = EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, &encoded, encodedCount, nil)
        guard written == encodedCount else {
            throw .openSSL(.libraryFailure, "cannot encode the public point on \(curve)")
        }
        let made = encoded.withUnsafeBytes { bytes in
            Result { () throws(CryptoError) -> EVPKey in
                try fromParameters(curve: curve, selection: mdoc_EVP_PKEY_KEYPAIR(), failure: .invalidKey) { builder in
                    OSSL_PARAM_BLD_push_utf8_string(builder, mdoc_OSSL_PKEY_PARAM_GROUP_NAME(), curve.groupName, 0) == 1
                        && OSSL_PARAM_BLD_push_octet_string(
                            builder, mdoc_OSSL_PKEY_PARAM_PUB_KEY(), bytes.baseAddress, bytes.count) == 1
                        && OSSL_PARAM_BLD_push_BN(builder, mdoc_OSSL_PKEY_PARAM_PRIV_KEY(), d) == 1
                }
            }
        }
        return try made.get()
    }

    /// An X25519, X448, Ed25519 or Ed448 key from its raw encoding (RFC 7748 section 5, RFC 8032
    /// section 5.1.5 / 5.2.5), which must be `coordinateByteCount` bytes.
    static func octetKey(raw: [UInt8], curve: Curve, isPrivate: Bool) throws(CryptoError) -> EVPKey {
        let made = raw.withUnsafeBufferPointer { bytes in
            isPrivate
                ? EVP_PKEY_new_raw_private_key(curve.nid, nil, bytes.baseAddress, bytes.count)
                : EVP_PKEY_new_raw_public_key(curve.nid, nil, bytes.baseAddress, bytes.count)
        }
        guard let made else {
            throw .openSSL(.invalidKey, "the \(isPrivate ? "private" : "public") \(curve) key does not load")
        }
        return EVPKey(takingOwnershipOf: made)
    }

    /// Runs `EVP_PKEY_fromdata` on the parameters `push` adds to a builder. Everything `push`
    /// points at must stay alive until this returns: the builder keeps pointers, not copies.
    private static func fromParameters(
        curve: Curve, selection: Int32, failure: CryptoError.Code,
        push: (OpaquePointer) -> Bool
    ) throws(CryptoError) -> EVPKey {
        guard let builder = OSSL_PARAM_BLD_new() else {
            throw .openSSL(.libraryFailure, "cannot make an OpenSSL parameter builder")
        }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard push(builder), let parameters = OSSL_PARAM_BLD_to_param(builder) else {
            throw .openSSL(.libraryFailure, "cannot build the key parameters for \(curve)")
        }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, curve.keyTypeName, nil) else {
            throw .openSSL(.libraryFailure, "cannot make a key import context for \(curve)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_fromdata_init(context) == 1 else {
            throw .openSSL(.libraryFailure, "cannot start the key import for \(curve)")
        }
        var made: OpaquePointer?
        guard EVP_PKEY_fromdata(context, &made, selection, parameters) == 1, let made else {
            throw .openSSL(failure, "the key is not valid on \(curve)")
        }
        return EVPKey(takingOwnershipOf: made)
    }
}

extension EVPKey {
    /// Checks a decoded key pair (`EVP_PKEY_check`): the private key is in range and matches the
    /// public key. PEM and DER private keys may carry a public key of their own (RFC 5915
    /// `publicKey`, RFC 5958 `publicKey`) that OpenSSL does not compare on load.
    func checkKeyPair(curve: Curve) throws(CryptoError) {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            throw .openSSL(.libraryFailure, "cannot make a key check context for \(curve)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_check(context) == 1 else {
            throw .openSSL(.invalidKey, "the \(curve) private key and its public key do not form a valid pair")
        }
    }
}
