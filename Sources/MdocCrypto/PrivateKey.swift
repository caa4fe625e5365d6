import COpenSSL
import COpenSSLShims

/// A private key on one of the ISO/IEC 18013-5 curves (``Curve``; 18013-5 9.1.5.2 and
/// Table 22): device keys, ephemeral session keys (9.1.1.4), reader and issuer signing keys.
///
/// A value type over an OpenSSL key that is never mutated, so copies are cheap and safe to share
/// between threads. Its description names the curve only, never the key.
public struct PrivateKey: Sendable, CustomStringConvertible {
    let key: EVPKey

    /// The key's curve.
    public let curve: Curve

    /// The matching public key.
    public let publicKey: PublicKey

    /// Wraps an OpenSSL private key, checking that its curve is one 18013-5 allows, and derives
    /// the public key.
    init(key: EVPKey) throws(CryptoError) {
        guard let curve = key.curve else {
            throw CryptoError(.unsupportedAlgorithm, "the private key is not on a curve ISO/IEC 18013-5 allows")
        }
        self.key = key
        self.curve = curve
        publicKey = try PublicKey(publicPartOf: key, curve: curve)
    }

    /// A new random key on `curve` (OpenSSL's default random generator).
    public init(generating curve: Curve) throws(CryptoError) {
        try self.init(key: EVPKey.generate(on: curve))
    }

    public var description: String { "PrivateKey(\(curve))" }
}

extension PublicKey {
    /// The public half of a private OpenSSL key, as a separate key object that holds no secret.
    init(publicPartOf key: EVPKey, curve: Curve) throws(CryptoError) {
        if curve.isWeierstrass {
            let capacity = 1 + 2 * curve.coordinateByteCount
            var point = [UInt8](repeating: 0, count: capacity)
            var length = 0
            if EVP_PKEY_get_octet_string_param(key.pointer, OSSL_PKEY_PARAM_PUB_KEY, &point, capacity, &length) == 1,
               length <= capacity
            {
                try self.init(x963Representation: Array(point.prefix(length)), curve: curve)
                return
            }
            guard key.provider != nil else {
                throw .openSSL(.invalidKey, "the \(curve) private key has no public point")
            }
            // pkcs11-provider 1.0 answers no parameter query for the point, but exports it.
            ERR_clear_error()
            try self.init(x963Representation: try Self.exportedPoint(of: key, curve: curve), curve: curve)
            return
        }
        var raw = [UInt8](repeating: 0, count: curve.coordinateByteCount)
        var length = raw.count
        guard EVP_PKEY_get_raw_public_key(key.pointer, &raw, &length) == 1, length == raw.count else {
            throw .openSSL(.invalidKey, "the \(curve) private key has no public key")
        }
        try self.init(rawRepresentation: raw, curve: curve)
    }

    /// The public point of a provider's key as the provider exports it (`EVP_PKEY_todata` of the
    /// public key selection): the encoded point (SEC 1 v2 section 2.3.3) under `pub`.
    private static func exportedPoint(of key: EVPKey, curve: Curve) throws(CryptoError) -> [UInt8] {
        var parameters: UnsafeMutablePointer<OSSL_PARAM>?
        guard EVP_PKEY_todata(key.pointer, mdoc_EVP_PKEY_PUBLIC_KEY(), &parameters) == 1, let parameters else {
            throw .openSSL(.invalidKey, "the \(curve) key's provider exports no public point")
        }
        defer { OSSL_PARAM_free(parameters) }
        var data: UnsafeRawPointer?
        var length = 0
        guard let found = OSSL_PARAM_locate(parameters, OSSL_PKEY_PARAM_PUB_KEY),
              OSSL_PARAM_get_octet_string_ptr(found, &data, &length) == 1, let data
        else {
            throw .openSSL(.invalidKey, "the \(curve) key's provider exports no public point")
        }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }
}
