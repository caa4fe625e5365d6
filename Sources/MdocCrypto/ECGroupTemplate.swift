import COpenSSL

/// One parameters-only OpenSSL key per Weierstrass curve: the named group and nothing else.
///
/// Importing a public key copies the template (`EVP_PKEY_dup`) and sets the point on the copy,
/// which costs about a quarter of the instructions of `EVP_PKEY_fromdata`: OpenSSL 3.0 builds the
/// group from its name on every `fromdata`, while a copy duplicates a group already built.
/// Each template is made once, on first use (Swift initializes a `static let` exactly once, under
/// a lock), and never changed after; OpenSSL allows concurrent read-only use of an `EVP_PKEY`,
/// which is all `EVP_PKEY_dup` does with it.
enum ECGroupTemplate {
    private static let p256 = make(.p256)
    private static let p384 = make(.p384)
    private static let p521 = make(.p521)
    private static let brainpoolP256r1 = make(.brainpoolP256r1)
    private static let brainpoolP320r1 = make(.brainpoolP320r1)
    private static let brainpoolP384r1 = make(.brainpoolP384r1)
    private static let brainpoolP512r1 = make(.brainpoolP512r1)

    /// The template of a Weierstrass curve.
    static func key(for curve: Curve) throws(CryptoError) -> EVPKey {
        let template: Result<EVPKey, CryptoError>
        switch curve {
        case .p256: template = p256
        case .p384: template = p384
        case .p521: template = p521
        case .brainpoolP256r1: template = brainpoolP256r1
        case .brainpoolP320r1: template = brainpoolP320r1
        case .brainpoolP384r1: template = brainpoolP384r1
        case .brainpoolP512r1: template = brainpoolP512r1
        case .x25519, .x448, .ed25519, .ed448:
            throw CryptoError(.unsupportedAlgorithm, "\(curve) is not a Weierstrass curve and has no group parameters")
        }
        return try template.get()
    }

    /// The group parameters of `curve` (`EVP_PKEY_paramgen` with the group name).
    private static func make(_ curve: Curve) -> Result<EVPKey, CryptoError> {
        Result { () throws(CryptoError) -> EVPKey in
            guard let context = EVP_PKEY_CTX_new_from_name(nil, curve.keyTypeName, nil) else {
                throw .openSSL(.libraryFailure, "cannot make a parameter context for \(curve)")
            }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_paramgen_init(context) == 1,
                  EVP_PKEY_CTX_set_group_name(context, curve.groupName) == 1
            else {
                throw .openSSL(.libraryFailure, "cannot select the group of \(curve)")
            }
            var made: OpaquePointer?
            guard EVP_PKEY_paramgen(context, &made) == 1, let made else {
                throw .openSSL(.libraryFailure, "cannot make the group parameters of \(curve)")
            }
            return EVPKey(takingOwnershipOf: made)
        }
    }
}
