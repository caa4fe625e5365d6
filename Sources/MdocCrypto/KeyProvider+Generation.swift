import COpenSSL
import COpenSSLShims
import NIOConcurrencyHelpers

/// Making key pairs inside a provider's token or TPM (`EVP_PKEY_generate` on a context fetched
/// with the provider's property query), so that the private key is never anywhere else.
extension KeyProvider {
    /// The key usage a token's new key gets (pkcs11-provider's `pkcs11_key_usage`, X.509 key
    /// usage names): ECDSA for DeviceSignature and reader authentication (ISO/IEC 18013-5
    /// 9.1.3.6, 9.1.4) and ECDH for EMacKey (9.1.3.5), CKA_SIGN and CKA_DERIVE in PKCS#11.
    static let tokenKeyUsage = "digitalSignature keyAgreement"

    /// A new key pair on `curve` made inside the token the PKCS#11 URI `uri` names (RFC 7512),
    /// labelled with its `object` attribute, such as `pkcs11:token=wallet;object=device-key`,
    /// after logging in with the PIN. The private key is sensitive and not extractable (PKCS#11
    /// 3.0 section 4.9: CKA_SENSITIVE, CKA_EXTRACTABLE false, as pkcs11-provider makes it), and
    /// may sign and agree keys (`digitalSignature keyAgreement`); it is loaded again later with
    /// ``privateKey(pkcs11URI:)`` and `uri` with `type=private`.
    ///
    /// pkcs11-provider 1.0 generates without a login prompt of its own: it uses the token's login
    /// or asks on the terminal. The login is therefore made first, through the store with this
    /// provider's PIN, and checked to hold before any key is made, so that nothing is asked on a
    /// terminal.
    ///
    /// Throws `.invalidParameter` for a URI without `object` or a provider that is not a token's,
    /// `.unsupportedAlgorithm` for a curve that cannot both sign and agree keys (only the
    /// Weierstrass curves of 18013-5 do) or that the token does not make, `.keyExists` when the
    /// token holds a private key of that name, `.loginFailed`, or `.keyStoreUnavailable` when no
    /// token matches (told apart from a token that makes no key as ``privateKey(pkcs11URI:)``
    /// tells them apart: by whether the token asked for the PIN, or was logged in to before).
    public func generatePrivateKey(pkcs11URI uri: String, curve: Curve) throws(CryptoError) -> PrivateKey {
        guard kind == .pkcs11 else {
            throw CryptoError(.invalidParameter, "a PKCS#11 URI names a key of a pkcs11 provider, not of \(kind)")
        }
        guard uri.hasPrefix("pkcs11:") else {
            throw CryptoError(.invalidParameter, "a PKCS#11 URI starts with pkcs11: (RFC 7512 section 2.3)")
        }
        let attributes = uri.dropFirst("pkcs11:".count).prefix { $0 != "?" }.split(separator: ";")
        guard attributes.contains(where: { $0.hasPrefix("object=") && $0.count > "object=".count }) else {
            throw CryptoError(.invalidParameter, "\(uri) has no object attribute to label the new key with (RFC 7512 section 2.3)")
        }
        try Self.checkGeneration(on: curve)
        let privateURI = Self.typedURI(of: uri, type: "private")
        let (existing, asked) = load(privateURI, expecting: OSSL_STORE_INFO_PKEY, answeringLogin: true)
        if existing != nil {
            throw CryptoError(.keyExists, "the token already holds a private key \(privateURI)")
        }
        if asked {
            // Asked again, unanswered: the PIN did not log in (no C_Login is made then).
            guard !load(privateURI, expecting: OSSL_STORE_INFO_PKEY, answeringLogin: false).asked else {
                ERR_clear_error()
                throw CryptoError(
                    .loginFailed,
                    pin == nil
                        ? "the token of \(uri) needs a PIN and none was given"
                        : "the token of \(uri) refused the PIN: wrong, or the token is locked")
            }
            loggedIn.withLockedValue { $0 = true }
        }
        ERR_clear_error()
        let generationURI = Self.typedURI(of: uri, type: nil)
        let parameters = [("pkcs11_uri", generationURI), ("pkcs11_key_usage", Self.tokenKeyUsage)]
        let key = try generate(on: curve, named: privateURI, parameters: parameters) {
            asked || loggedIn.withLockedValue { $0 }
                ? CryptoError.openSSL(.unsupportedAlgorithm, "the token of \(uri) did not make a \(curve) key")
                : CryptoError.openSSL(.keyStoreUnavailable, "no token matches \(uri) through \(self)")
        }
        return try PrivateKey(key: key)
    }

    /// A new key pair on `curve` made inside the TPM by tpm2-openssl, under the TPM's storage
    /// key, and loaded: its "TSS2 PRIVATE KEY" blob (``tss2KeyBlob(of:)``) is the only way to
    /// load it again. tpm2-openssl makes the object with `sign` and `decrypt` set and not
    /// `restricted` (TPMA_OBJECT, TPM 2.0 Library Part 2 section 8.3), with no fixed scheme, so
    /// it does both ECDSA (TPM2_Sign) and ECDH (TPM2_ECDH_ZGen).
    ///
    /// Throws `.invalidParameter` for a provider that is not a TPM's, `.unsupportedAlgorithm` for
    /// a curve that cannot both sign and agree keys, or when the TPM makes no key: a curve it
    /// lacks (TPMs make P-256 and often P-384, rarely brainpool), or no room for another object.
    public func generatePrivateKey(curve: Curve) throws(CryptoError) -> PrivateKey {
        guard kind == .tpm2 else {
            throw CryptoError(.invalidParameter, "a key made without a PKCS#11 URI is a key of a tpm2 provider, not of \(kind)")
        }
        try Self.checkGeneration(on: curve)
        let key = try generate(on: curve, named: "a key made in it", parameters: []) {
            CryptoError.openSSL(.unsupportedAlgorithm, "the TPM at \(self) did not make a \(curve) key (a curve it lacks, or no room for another object)")
        }
        return try PrivateKey(key: key)
    }

    /// The "TSS2 PRIVATE KEY" PEM blob of `key`, a key of this TPM, encoded by tpm2-openssl
    /// (`OSSL_ENCODER` in this provider's context): the private part wrapped by the TPM's storage
    /// key, usable by this TPM only, and the public part. ``privateKey(tss2KeyFile:)`` loads it.
    ///
    /// Throws `.invalidParameter` for a key this TPM does not hold.
    public func tss2KeyBlob(of key: PrivateKey) throws(CryptoError) -> [UInt8] {
        guard kind == .tpm2, key.key.provider === self else {
            throw CryptoError(.invalidParameter, "only a key the TPM at \(self) holds has a TSS2 key blob")
        }
        let selection = OSSL_KEYMGMT_SELECT_PRIVATE_KEY | OSSL_KEYMGMT_SELECT_PUBLIC_KEY
        guard let encoder = OSSL_ENCODER_CTX_new_for_pkey(key.key.pointer, selection, "PEM", nil, propertyQuery) else {
            throw .openSSL(.libraryFailure, "cannot make an encoder for the TPM key")
        }
        defer { OSSL_ENCODER_CTX_free(encoder) }
        var data: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard OSSL_ENCODER_to_data(encoder, &data, &length) == 1, let data else {
            throw .openSSL(.libraryFailure, "tpm2-openssl did not encode the TPM key blob")
        }
        defer { CRYPTO_free(data, #fileID, #line) }
        let blob = Array(UnsafeBufferPointer(start: data, count: length))
        guard blob.starts(with: Array("-----BEGIN TSS2 PRIVATE KEY-----".utf8)) else {
            throw CryptoError(.libraryFailure, "the TPM key was encoded as something other than a TSS2 PRIVATE KEY blob")
        }
        return blob
    }

    /// Refuses a curve whose keys cannot serve as an 18013-5 device or reader key, which must
    /// sign (ECDSA) and may agree keys (ECDH): X25519 and X448 do not sign, Ed25519 and Ed448
    /// do not agree keys.
    private static func checkGeneration(on curve: Curve) throws(CryptoError) {
        guard curve.isWeierstrass else {
            throw CryptoError(.unsupportedAlgorithm, "a key made in a token or TPM is on a Weierstrass curve (ECDSA and ECDH), not \(curve)")
        }
    }

    /// A key pair on `curve` generated by this provider with `parameters` (text values), named
    /// `name` where a failed operation is reported; the error of `failure` when the provider
    /// makes none.
    private func generate(
        on curve: Curve, named name: String, parameters: [(String, String)], failure: () -> CryptoError
    ) throws(CryptoError) -> EVPKey {
        guard let context = EVP_PKEY_CTX_new_from_name(library, "EC", propertyQuery) else {
            throw .openSSL(.libraryFailure, "cannot make a key generation context of the \(kind) provider")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else {
            throw .openSSL(.libraryFailure, "the \(kind) provider cannot start a key generation")
        }
        guard let group = curve.groupName else {
            throw CryptoError(.unsupportedAlgorithm, "\(curve) has no OpenSSL group name")
        }
        // The names and values stay alive until EVP_PKEY_CTX_set_params returns.
        let texts = ([(OSSL_PKEY_PARAM_GROUP_NAME, String(cString: group))] + parameters).map { (strdup($0.0), strdup($0.1)) }
        defer { texts.forEach { free($0.0); free($0.1) } }
        var list = texts.map { OSSL_PARAM_construct_utf8_string($0.0, $0.1, 0) }
        list.append(OSSL_PARAM_construct_end())
        guard EVP_PKEY_CTX_set_params(context, &list) == 1 else {
            throw .openSSL(.unsupportedAlgorithm, "the \(kind) provider does not take the parameters of a \(curve) key")
        }
        var generated: OpaquePointer?
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw failure()
        }
        ERR_clear_error()
        return EVPKey(takingOwnershipOf: generated, heldBy: self, loadedFrom: name)
    }
}
