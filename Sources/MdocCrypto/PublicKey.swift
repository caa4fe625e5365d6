import COpenSSL

/// A public key on one of the 18013-5 curves (``Curve``).
public struct PublicKey: Sendable {
    let key: EVPKey

    /// The key's curve.
    public let curve: Curve

    /// Wraps an OpenSSL key, checking that its curve is one 18013-5 allows.
    init(key: EVPKey) throws(CryptoError) {
        guard let curve = key.curve else {
            throw CryptoError(.unsupportedAlgorithm, "the public key is not on a curve ISO/IEC 18013-5 allows")
        }
        self.key = key
        self.curve = curve
    }

    /// Wraps an OpenSSL key made here on `curve`, without asking OpenSSL for its curve again.
    init(key: EVPKey, madeOn curve: Curve) {
        self.key = key
        self.curve = curve
    }
}
