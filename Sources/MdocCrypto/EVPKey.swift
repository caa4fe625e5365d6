import COpenSSL

/// Owns one OpenSSL `EVP_PKEY` and frees it when the last reference goes.
///
/// The key is never changed once shared: only ``ECKeyObjectPool`` gives a key a new public point,
/// and only while it holds the sole reference. Sharing it between threads is therefore safe; that
/// is why this class is `@unchecked Sendable`.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// The provider that holds the key when it is not OpenSSL's default provider (a token or a
    /// TPM): kept alive with the key, and the library context and property query its operations
    /// are fetched with. `nil` for keys in OpenSSL's default context.
    let provider: KeyProvider?

    /// What ``provider`` loaded the key from (its PKCS#11 URI or TSS2 key file), so that a failed
    /// operation can ask whether the token or TPM still answers. `nil` with no provider.
    let storeName: String?

    /// Takes ownership of `pointer` (one reference), a key of OpenSSL's default context.
    init(takingOwnershipOf pointer: OpaquePointer) {
        self.pointer = pointer
        provider = nil
        storeName = nil
    }

    /// Takes ownership of `pointer` (one reference), a key `provider` holds, loaded from `name`.
    init(takingOwnershipOf pointer: OpaquePointer, heldBy provider: KeyProvider, loadedFrom name: String) {
        self.pointer = pointer
        self.provider = provider
        storeName = name
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// The curve of the key, or `nil` for key types 18013-5 does not use.
    var curve: Curve? {
        let type = EVP_PKEY_get_base_id(pointer)
        if type == EVP_PKEY_EC {
            var name = [CChar](repeating: 0, count: 80)
            var length = 0
            guard EVP_PKEY_get_utf8_string_param(pointer, OSSL_PKEY_PARAM_GROUP_NAME, &name, name.count, &length) == 1 else {
                return nil
            }
            let nid = OBJ_txt2nid(name)
            return Curve(nid: nid)
        }
        return Curve(nid: type)
    }
}
