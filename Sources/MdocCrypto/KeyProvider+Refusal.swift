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
        if kind == .tpm2, let name = key.storeName, let code = TPMResponseCode.reported() {
            switch code {
            case .lockout:
                ERR_clear_error()
                return CryptoError(
                    .lockedOut,
                    "the TPM is in dictionary-attack lock-out after too many wrong PINs and refuses \(name) until its recovery time has passed (TPM2_PT_LOCKOUT_RECOVERY, shown by tpm2_getcap properties-variable) or the lock-out is reset with its lockout authorization (tpm2_dictionarylockout --clear-lockout)")
            case .authorizationFailure:
                ERR_clear_error()
                return CryptoError(
                    .loginFailed,
                    pin == nil
                        ? "the TPM key \(name) needs its authorization value (PIN) and none was given"
                        : "the TPM refused the authorization value (PIN) of \(name): wrong; each wrong one counts toward the TPM's dictionary-attack lock-out")
            default:
                break
            }
        }
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
