import COpenSSL

/// Private key encodings: raw scalars and raw OKP keys, PKCS#8 and SEC1 in DER and PEM.
extension PrivateKey {
    /// The largest PEM or DER input the key decoders accept: far above any key on an 18013-5
    /// curve (a P-521 PKCS#8 key is under 300 bytes), and it bounds work on untrusted input.
    public static let maximumEncodedByteCount = 65_536

    /// A private key from its raw encoding: the scalar d as `curve.coordinateByteCount` big-endian
    /// bytes in 1...n-1 for Weierstrass curves (SEC 1 v2 section 2.3.7 and 3.2.1), the raw key
    /// for X25519, X448 (RFC 7748 section 5), Ed25519 and Ed448 (RFC 8032 section 5.1.5, 5.2.5).
    public init(rawRepresentation: [UInt8], curve: Curve) throws(CryptoError) {
        guard rawRepresentation.count == curve.coordinateByteCount else {
            throw CryptoError(.invalidKey, "a raw \(curve) private key has \(curve.coordinateByteCount) bytes, not \(rawRepresentation.count)")
        }
        if curve.isWeierstrass {
            try self.init(key: EVPKey.weierstrassPrivateKey(scalar: rawRepresentation, curve: curve))
        } else {
            try self.init(key: EVPKey.octetKey(raw: rawRepresentation, curve: curve, isPrivate: true))
        }
    }

    /// A private key from an unencrypted PEM block: `PRIVATE KEY` (PKCS#8, RFC 5958 and RFC 7468
    /// section 10) or `EC PRIVATE KEY` (SEC1, RFC 5915). Text before the block is ignored;
    /// encrypted keys are refused (no passphrase is ever asked for).
    public init(pemRepresentation: String) throws(CryptoError) {
        let bytes = Array(pemRepresentation.utf8)
        guard bytes.count <= Self.maximumEncodedByteCount else {
            throw CryptoError(.invalidKey, "the PEM private key has \(bytes.count) bytes, more than the limit of \(Self.maximumEncodedByteCount)")
        }
        let decoded = MemoryBIO.reading(bytes) { bio in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
        }
        guard let decoded = decoded ?? nil else {
            throw .openSSL(.invalidKey, "the text holds no unencrypted PEM private key block that decodes")
        }
        try self.init(checking: EVPKey(takingOwnershipOf: decoded))
    }

    /// A private key from DER: a PKCS#8 PrivateKeyInfo (RFC 5958) or a SEC1 ECPrivateKey
    /// (RFC 5915). The whole input must be the one structure.
    public init(derRepresentation: [UInt8]) throws(CryptoError) {
        guard derRepresentation.count <= Self.maximumEncodedByteCount else {
            throw CryptoError(.invalidKey, "the DER private key has \(derRepresentation.count) bytes, more than the limit of \(Self.maximumEncodedByteCount)")
        }
        let decoded: OpaquePointer? = derRepresentation.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            guard let key = d2i_AutoPrivateKey(nil, &cursor, buffer.count) else { return nil }
            guard cursor == start + buffer.count else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        guard let decoded else {
            throw .openSSL(.invalidKey, "the DER bytes are not exactly one PKCS#8 or SEC1 private key")
        }
        try self.init(checking: EVPKey(takingOwnershipOf: decoded))
    }

    /// A decoded key, after checking that it is on an allowed curve and a consistent pair.
    private init(checking key: EVPKey) throws(CryptoError) {
        guard let curve = key.curve else {
            throw CryptoError(.unsupportedAlgorithm, "the private key is not on a curve ISO/IEC 18013-5 allows")
        }
        try key.checkKeyPair(curve: curve)
        try self.init(key: key)
    }

    /// The raw private key (see ``init(rawRepresentation:curve:)``): the scalar left-padded to
    /// `curve.coordinateByteCount` bytes, or the raw OKP key. Empty only if OpenSSL fails
    /// internally. The caller owns the copy of the secret.
    public var rawRepresentation: [UInt8] {
        var raw = [UInt8](repeating: 0, count: curve.coordinateByteCount)
        if curve.isWeierstrass {
            var scalar: OpaquePointer?
            guard EVP_PKEY_get_bn_param(key.pointer, OSSL_PKEY_PARAM_PRIV_KEY, &scalar) == 1, let scalar else {
                ERR_clear_error()
                return []
            }
            defer { BN_clear_free(scalar) }
            let width = Int32(curve.coordinateByteCount)
            guard BN_bn2binpad(scalar, &raw, width) == width else {
                ERR_clear_error()
                return []
            }
            return raw
        }
        var length = raw.count
        guard EVP_PKEY_get_raw_private_key(key.pointer, &raw, &length) == 1, length == raw.count else {
            ERR_clear_error()
            return []
        }
        return raw
    }

    /// The key as an unencrypted PKCS#8 PrivateKeyInfo in DER (RFC 5958). Empty only if OpenSSL
    /// fails internally.
    public var derRepresentation: [UInt8] {
        let der = MemoryBIO.written(secure: true) { bio in
            i2d_PKCS8PrivateKey_bio(bio, key.pointer, nil, nil, 0, nil, nil) == 1
        }
        guard let der else {
            ERR_clear_error()
            return []
        }
        return der
    }

    /// The key as an unencrypted PEM `PRIVATE KEY` block (PKCS#8; RFC 7468 section 10). Empty
    /// only if OpenSSL fails internally.
    public var pemRepresentation: String {
        let pem = MemoryBIO.written(secure: true) { bio in
            PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil) == 1
        }
        guard let pem else {
            ERR_clear_error()
            return ""
        }
        return String(decoding: pem, as: UTF8.self)
    }
}
