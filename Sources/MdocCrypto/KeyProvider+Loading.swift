import COpenSSL
import COpenSSLShims
import NIOConcurrencyHelpers

/// Loading a provider's private keys through OpenSSL's store (`OSSL_STORE_open_ex` on the
/// provider's library context).
extension KeyProvider {
    /// The private key the PKCS#11 URI `uri` names (RFC 7512), such as
    /// `pkcs11:token=wallet;object=device-key;type=private`, logging in to the token with the PIN
    /// when it asks. The key stays in the token; its curve must be one ISO/IEC 18013-5 allows and
    /// its public key is read from the token.
    ///
    /// pkcs11-provider reports every failure to find the key the same way, so the cause is worked
    /// out from what happened: no login prompt means no token matched the URI
    /// (`.keyStoreUnavailable`); a prompt, then no private key while the public key of the same
    /// name is there, means the token refused the PIN, wrong or locked out (`.loginFailed`);
    /// otherwise `.keyNotFound`. Throws `.unsupportedAlgorithm` for a key not on an 18013-5 curve.
    public func privateKey(pkcs11URI uri: String) throws(CryptoError) -> PrivateKey {
        guard kind == .pkcs11 else {
            throw CryptoError(.invalidParameter, "a PKCS#11 URI names a key of a pkcs11 provider, not of \(kind)")
        }
        guard uri.hasPrefix("pkcs11:") else {
            throw CryptoError(.invalidParameter, "a PKCS#11 URI starts with pkcs11: (RFC 7512 section 2.3)")
        }
        let (found, asked) = load(uri, expecting: OSSL_STORE_INFO_PKEY, answeringLogin: true)
        if let found {
            loggedIn.withLockedValue { $0 = true }
            return try privateKey(found, named: uri)
        }
        let wasLoggedIn = loggedIn.withLockedValue { $0 }
        guard asked || wasLoggedIn else {
            throw CryptoError(.keyStoreUnavailable, "no token matches \(uri) through \(self)")
        }
        // The public object is read without a login (no prompt answered), so that a token that
        // counts wrong PINs sees one attempt only.
        if asked, load(Self.typedURI(of: uri, type: "public"), expecting: OSSL_STORE_INFO_PUBKEY, answeringLogin: false).key != nil {
            throw CryptoError(
                .loginFailed,
                pin == nil
                    ? "the token of \(uri) needs a PIN and none was given"
                    : "the token of \(uri) refused the PIN: wrong, or the token is locked")
        }
        throw CryptoError(.keyNotFound, "the token has no private key \(uri)")
    }

    /// The private key of the TPM key blob at `path`, a "TSS2 PRIVATE KEY" PEM file (the key
    /// wrapped by the TPM's storage key, usable by no other TPM), loaded into the TPM.
    ///
    /// A key with an authorization value (its PIN) gets this provider's authorization. The TPM
    /// checks it when the key is used, not when it is loaded (TPM 2.0 Part 1, 19.6): one
    /// signature over a fixed text (for a key that may only agree keys, one key agreement with a
    /// fresh key) checks it here, so that a wrong PIN is found before the key is relied
    /// on. A wrong one counts toward the TPM's dictionary-attack lock-out like any other use.
    ///
    /// Throws `.keyNotFound` when the file holds no key this TPM loads, `.unsupportedAlgorithm`
    /// for a key not on an 18013-5 curve, `.loginFailed` when the key needs an authorization
    /// value and none was given or the TPM refused it, `.lockedOut` when the TPM is in lock-out.
    public func privateKey(tss2KeyFile path: String) throws(CryptoError) -> PrivateKey {
        guard kind == .tpm2 else {
            throw CryptoError(.invalidParameter, "a TSS2 key blob is a key of a tpm2 provider, not of \(kind)")
        }
        let (found, asked) = load(path, expecting: OSSL_STORE_INFO_PKEY, answeringLogin: true)
        guard let found else {
            throw .openSSL(.keyNotFound, "\(path) holds no TSS2 private key that the TPM at \(self) loads")
        }
        let key = try privateKey(found, named: path)
        if asked {
            // tpm2-openssl loads the key with an empty authorization value when none is given:
            // it is not used, so that no try counts toward the lock-out.
            guard pin != nil else {
                throw CryptoError(.loginFailed, "the TPM key \(path) needs its authorization value (PIN) and none was given")
            }
            try checkAuthorization(of: key)
        }
        return key
    }

    /// Uses `key` once, so that the TPM checks its authorization value: a signature over a fixed
    /// text (the signature is not kept), or a key agreement when the key may not sign.
    private func checkAuthorization(of key: PrivateKey) throws(CryptoError) {
        do {
            _ = try key.signature(for: Array("swift-mdoc: the TPM checks the key's authorization value".utf8), digest: .sha256)
        } catch where error.code == .operationNotPermitted {
            _ = try key.sharedSecret(with: try PrivateKey(generating: key.curve).publicKey)
        }
    }

    /// The first key of type `expected` that the store finds at `uri` (OpenSSL's error queue
    /// left as the provider filled it when there is none), and whether the provider asked for the
    /// PIN. With `answeringLogin`, the prompt is answered with ``pin``; without, with nothing,
    /// which reads public objects without logging in.
    func load(_ uri: String, expecting expected: Int32, answeringLogin: Bool) -> (key: EVPKey?, asked: Bool) {
        guard let method = mdoc_pin_ui_method_new() else { return (nil, false) }
        defer { UI_destroy_method(method) }
        let attempt = { (source: UnsafeMutablePointer<mdoc_pin_source>) -> EVPKey? in
            guard let store = OSSL_STORE_open_ex(uri, self.library, self.propertyQuery, method, source, nil, nil, nil) else {
                return nil
            }
            defer { OSSL_STORE_close(store) }
            _ = OSSL_STORE_expect(store, expected)
            // A store that fails without reaching its end (a locked token) is asked a few times.
            var failures = 0
            while OSSL_STORE_eof(store) == 0, failures < 8 {
                guard let info = OSSL_STORE_load(store) else {
                    failures += 1
                    continue
                }
                defer { OSSL_STORE_INFO_free(info) }
                guard OSSL_STORE_INFO_get_type(info) == expected else { continue }
                let key = expected == OSSL_STORE_INFO_PKEY ? OSSL_STORE_INFO_get1_PKEY(info) : OSSL_STORE_INFO_get1_PUBKEY(info)
                if let key { return EVPKey(takingOwnershipOf: key, heldBy: self, loadedFrom: uri) }
            }
            return nil
        }
        var source = mdoc_pin_source(pin: nil, length: 0, asked: 0)
        guard answeringLogin, let pin else {
            let key = attempt(&source)
            return (key, source.asked != 0)
        }
        let key = pin.withUnsafeBytes { bytes in
            source.pin = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            source.length = bytes.count
            return attempt(&source)
        }
        return (key, source.asked != 0)
    }

    /// A loaded key as a ``PrivateKey``, with its curve checked and its public key read.
    private func privateKey(_ key: EVPKey, named name: String) throws(CryptoError) -> PrivateKey {
        ERR_clear_error()
        guard key.curve?.isWeierstrass == true else {
            throw CryptoError(.unsupportedAlgorithm, "\(name) is not an EC key on a curve ISO/IEC 18013-5 allows")
        }
        return try PrivateKey(key: key)
    }

    /// `uri` with its `type` attribute set to `type`, or left out when `type` is `nil`
    /// (RFC 7512 section 2.3); the other attributes and the query as they were.
    static func typedURI(of uri: String, type: String?) -> String {
        let body = uri.dropFirst("pkcs11:".count)
        let path = body.prefix { $0 != "?" }
        let query = body.dropFirst(path.count)
        let attributes = path.split(separator: ";").filter { !$0.hasPrefix("type=") } + (type.map { ["type=\($0)"] } ?? [])
        return "pkcs11:" + attributes.joined(separator: ";") + query
    }
}
