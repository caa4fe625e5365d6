import MdocCBOR
import MdocCrypto

/// Where a credential's private static device key (SDeviceKey, ISO/IEC 18013-5 9.1.3) is held
/// when the credential file does not hold it: a PKCS#11 token or a TPM 2.0, which sign
/// (DeviceSignature, 9.1.3.6) and agree keys (EMacKey, 9.1.3.5) inside, so that a copy of the
/// file presents nothing without them.
///
/// In a credential file it is this project's CBOR map, under the credential's
/// `"deviceKeyReference"`:
///
/// ```
/// DeviceKeyReference = PKCS11KeyReference / TPM2KeyReference
/// PKCS11KeyReference = {
///   "provider": "pkcs11",
///   "uri": tstr,        ; RFC 7512 PKCS#11 URI of the private key, "pkcs11:token=...;object=...;type=private"
///   "module": tstr      ; absolute path of the PKCS#11 module (opensc-pkcs11.so, libsofthsm2.so)
/// }
/// TPM2KeyReference = {
///   "provider": "tpm2",
///   "keyFile": tstr,    ; absolute path of the "TSS2 PRIVATE KEY" blob, wrapped by this TPM
///   "tcti": tstr        ; TSS2 TCTI configuration, "device:/dev/tpmrm0", "swtpm:host=...,port=..."
/// }
/// ```
///
/// Neither form holds a secret: the PIN is asked for when the key is loaded and is never
/// written, and a TPM key blob is usable by its own TPM only.
public enum DeviceKeyReference: CBORRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// A private key in a PKCS#11 token named by the PKCS#11 URI `uri`, reached through the
    /// PKCS#11 module at `module`.
    case pkcs11(uri: String, module: String)
    /// A private key of a TPM 2.0 reached through the TCTI `tcti`, as the key blob at `keyFile`.
    case tpm2(keyFile: String, tcti: String)

    /// Reads the map described on the type; error paths start at `path`.
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        let provider = try map.required("provider", at: path).text(at: path.appending(key: "provider"))
        func field(_ name: String, isPath: Bool = false) throws(CBORError) -> String {
            let value = try map.required(name, at: path).text(at: path.appending(key: name))
            guard !isPath || value.hasPrefix("/") else {
                throw CBORError(.invalidValue, "\(name) is not an absolute path", path: path.appending(key: name))
            }
            return value
        }
        switch provider {
        case "pkcs11":
            let uri = try field("uri")
            guard uri.hasPrefix("pkcs11:") else {
                throw CBORError(.invalidValue, "uri is not a PKCS#11 URI (RFC 7512 section 2.3)", path: path.appending(key: "uri"))
            }
            self = .pkcs11(uri: uri, module: try field("module", isPath: true))
        case "tpm2":
            self = .tpm2(keyFile: try field("keyFile", isPath: true), tcti: try field("tcti"))
        default:
            throw CBORError(.invalidValue, "provider is neither \"pkcs11\" nor \"tpm2\"", path: path.appending(key: "provider"))
        }
    }

    /// The map described on the type, in deterministic order (RFC 8949 4.2.1).
    public var cbor: CBOR {
        var map = CBORMap()
        switch self {
        case let .pkcs11(uri, module):
            map.append("provider", .textString("pkcs11"))
            map.append("uri", .textString(uri))
            map.append("module", .textString(module))
        case let .tpm2(keyFile, tcti):
            map.append("provider", .textString("tpm2"))
            map.append("keyFile", .textString(keyFile))
            map.append("tcti", .textString(tcti))
        }
        return CBOR.map(map).sortedDeterministically()
    }

    /// "the PKCS#11 key URI (module MODULE)" or "the TPM key KEYFILE (TCTI)".
    public var description: String {
        switch self {
        case let .pkcs11(uri, module): return "the PKCS#11 key \(uri) (module \(module))"
        case let .tpm2(keyFile, tcti): return "the TPM key \(keyFile) (\(tcti))"
        }
    }

    /// The private key this names, loaded through its provider (MdocCrypto's `KeyProvider`);
    /// `pin` answers a PKCS#11 token's login, or is a TPM key's authorization value when the key
    /// has one. The key stays where it is.
    ///
    /// Throws the provider's `CryptoError`: `.providerUnavailable` (the OpenSSL provider or the
    /// module is not installed), `.keyStoreUnavailable` (no such token, or the TPM does not
    /// answer), `.loginFailed` (no PIN, or the token or TPM refused it), `.lockedOut` (a TPM in
    /// dictionary-attack lock-out) or `.keyNotFound`.
    public func privateKey(pin: [UInt8]?) throws(CryptoError) -> PrivateKey {
        switch self {
        case let .pkcs11(uri, module):
            return try KeyProvider.pkcs11(module: module, pin: pin).privateKey(pkcs11URI: uri)
        case let .tpm2(keyFile, tcti):
            return try KeyProvider.tpm2(tcti: tcti, authorization: pin).privateKey(tss2KeyFile: keyFile)
        }
    }
}
