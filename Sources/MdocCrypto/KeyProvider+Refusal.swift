import COpenSSL

/// Why an operation with one of a provider's keys failed. pkcs11-provider and tpm2-openssl
/// report a key that may not do the operation and a token or TPM that went away alike
/// (OpenSSL's "cannot generate", "operation not supported"), so the cause is worked out by asking
/// the token or TPM again.
extension KeyProvider {
    /// The error for `key` having failed `operation` ("sign", "agree keys"): `.keyStoreUnavailable`
    /// when the token or TPM no longer answers, else `.operationNotPermitted` (a key made for
    /// signing only asked for key agreement, or the reverse). OpenSSL's reason for the failure is
    /// kept in the message; the error queue is left empty.
    func refusal(of operation: String, by key: EVPKey, curve: Curve) -> CryptoError {
        let refused = CryptoError.openSSL(.operationNotPermitted, "the \(curve) key in \(self) refused to \(operation)")
        guard let name = key.storeName, !answers(about: name) else {
            return refused
        }
        return CryptoError(
            .keyStoreUnavailable,
            "the \(kind == .tpm2 ? "TPM" : "token") holding \(name) no longer answers (\(self)): removed, or stopped")
    }

    /// Whether the token or TPM still answers for the key loaded from `name`: for a token, its
    /// public object of the same name is read (without a login, so that no PIN try is spent); for
    /// a TPM, tpm2-openssl is started on its TCTI again, which asks the TPM for its properties.
    private func answers(about name: String) -> Bool {
        defer { ERR_clear_error() }
        switch kind {
        case .pkcs11:
            return load(Self.typedURI(of: name, type: "public"), expecting: OSSL_STORE_INFO_PUBKEY, answeringLogin: false).key != nil
        case .tpm2:
            return (try? KeyProvider.tpm2(tcti: location)) != nil
        }
    }
}
