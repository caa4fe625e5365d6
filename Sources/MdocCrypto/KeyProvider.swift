import COpenSSL
import COpenSSLShims
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#endif

/// A place that holds private keys which never leave it: a PKCS#11 token through pkcs11-provider,
/// or a TPM 2.0 through tpm2-openssl, each an OpenSSL 3 provider loaded into a library context
/// of this object's own (`OSSL_LIB_CTX`), beside OpenSSL's default provider, so nothing of the
/// token touches OpenSSL's default context.
///
/// A key loaded from it (``privateKey(pkcs11URI:)``, ``privateKey(tss2KeyFile:)``) is a
/// ``PrivateKey`` like any other: it signs (ISO/IEC 18013-5 9.1.3.6 DeviceSignature, 9.1.4 reader
/// authentication) and agrees keys (9.1.3.5 EMacKey) inside the token, through the provider, and
/// keeps this object alive as long as it is used. Its private half cannot be read out.
///
/// A final class because it owns the library context and frees it when the last key and the
/// last reference go; OpenSSL library contexts may be used from several threads at once, and
/// nothing here changes after it is made but the record that a login was done, under a lock:
/// that is why it is `@unchecked Sendable`.
public final class KeyProvider: @unchecked Sendable, CustomStringConvertible {
    /// Which provider holds the keys.
    public enum Kind: String, Sendable, CustomStringConvertible {
        /// A PKCS#11 token (smart card, USB token, SoftHSM) through pkcs11-provider; keys named
        /// by PKCS#11 URIs (RFC 7512).
        case pkcs11
        /// A TPM 2.0 through tpm2-openssl; keys as "TSS2 PRIVATE KEY" blobs the TPM wraps.
        case tpm2

        /// The provider's name: `pkcs11` or `tpm2`.
        public var description: String { rawValue }
    }

    /// Which provider this is.
    public let kind: Kind

    /// The library context the provider and the default provider are loaded into.
    let library: OpaquePointer

    /// The property query every operation with one of this provider's keys fetches its
    /// implementation with: the provider's own, preferred (`?provider=NAME`). tpm2-openssl 1.1.1
    /// needs it for signing and key agreement, or OpenSSL picks the default provider, which
    /// cannot use a key it does not hold.
    let propertyQuery: String

    /// The PIN the token's login prompt is answered with, wiped when this object goes.
    let pin: SecureBytes?

    /// Whether a private key was loaded, so the token is logged in: a later load asks no PIN.
    let loggedIn = NIOLockedValueBox(false)

    /// What the keys are read from: the PKCS#11 module's path, or the TPM's TCTI.
    let location: String

    private init(kind: Kind, library: OpaquePointer, location: String, pin: SecureBytes?) {
        self.kind = kind
        self.library = library
        self.location = location
        self.pin = pin
        propertyQuery = "?provider=\(kind.rawValue)"
    }

    deinit {
        OSSL_LIB_CTX_free(library)
        // Unloading pkcs11-provider queues errors about a module it does not finalize
        // (`pkcs11-module-quirks = no-deinit`); they belong to no caller.
        ERR_clear_error()
    }

    /// "pkcs11 (/usr/lib/softhsm/libsofthsm2.so)" or "tpm2 (swtpm:host=...)": never the PIN.
    public var description: String { "\(kind) (\(location))" }

    /// A PKCS#11 token's keys: pkcs11-provider with the PKCS#11 module at `module` (OpenSC's
    /// `opensc-pkcs11.so`, SoftHSM's `libsofthsm2.so`...), whose login prompt is answered with
    /// `pin` (the user PIN, PKCS#11 3.0 section 5.6 C_Login) when a private key is loaded. The PIN
    /// goes to the provider through OpenSSL's passphrase callback, never through a file, the
    /// configuration or the environment, and is wiped when this object goes.
    ///
    /// The module is never finalized (`pkcs11-module-quirks = no-deinit`): SoftHSM 2.6 and
    /// OpenSSL 3 crash at process exit otherwise, each cleaning up after the other.
    ///
    /// Throws `.providerUnavailable` when pkcs11-provider is not installed, the module does not
    /// exist or the provider does not start.
    public static func pkcs11(module: String, pin: [UInt8]?) throws(CryptoError) -> KeyProvider {
        guard access(module, R_OK) == 0 else {
            throw CryptoError(.providerUnavailable, "the PKCS#11 module \(module) does not exist or cannot be read")
        }
        let configuration = try Self.configuration(kind: .pkcs11, parameters: [
            ("pkcs11-module-path", module),
            ("pkcs11-module-quirks", "no-deinit"),
        ])
        let library = try load(.pkcs11, configuration: configuration, location: module)
        return KeyProvider(kind: .pkcs11, library: library, location: module, pin: pin.map { SecureBytes($0) })
    }

    /// A TPM 2.0's keys: tpm2-openssl speaking to the TPM through `tcti`, a TSS2 TCTI
    /// configuration (`device:/dev/tpmrm0`, `swtpm:host=127.0.0.1,port=2321`).
    ///
    /// tpm2-openssl 1.1.1 reads the TCTI from the environment (`TPM2OPENSSL_TCTI`) when it
    /// starts, and not from its configuration, whose `tcti` parameter it asks for but never keeps:
    /// the variable is set for the moment the provider starts, under a lock of this module, and
    /// put back as it was. The configuration names it too, for versions that read it. The TSS2
    /// libraries' own log lines on standard error are silenced (`TSS2_LOG=all+NONE`) unless
    /// `TSS2_LOG` is already set.
    ///
    /// Throws `.providerUnavailable` when tpm2-openssl is not installed, `.keyStoreUnavailable`
    /// when the TPM does not answer.
    public static func tpm2(tcti: String) throws(CryptoError) -> KeyProvider {
        try tpm2(tcti: tcti, authorization: nil)
    }

    /// A TPM 2.0's keys, as ``tpm2(tcti:)``, with `authorization` the authorization value (the
    /// key's PIN, TPM 2.0 Part 1, 19.6.4 authValue) of keys that need one: tpm2-openssl asks for
    /// it through OpenSSL's passphrase callback when it loads a key blob whose emptyAuth is false,
    /// and gives it to the TPM with each use. It is wiped when this object goes.
    public static func tpm2(tcti: String, authorization: [UInt8]?) throws(CryptoError) -> KeyProvider {
        let configuration = try Self.configuration(kind: .tpm2, parameters: [("tcti", tcti)])
        environmentLock.lock()
        // The TSS2 libraries under tpm2-openssl write their own warnings and errors to standard
        // error (a TPM that went away: several lines of ESYS return codes), which the failures of
        // this module already name: silenced unless the user set TSS2_LOG.
        setenv("TSS2_LOG", "all+NONE", 0)
        let previous = getenv("TPM2OPENSSL_TCTI").map { String(cString: $0) }
        setenv("TPM2OPENSSL_TCTI", tcti, 1)
        defer {
            if let previous { setenv("TPM2OPENSSL_TCTI", previous, 1) } else { unsetenv("TPM2OPENSSL_TCTI") }
            environmentLock.unlock()
        }
        let library = try load(.tpm2, configuration: configuration, location: tcti)
        return KeyProvider(kind: .tpm2, library: library, location: tcti, pin: authorization.map { SecureBytes($0) })
    }

    /// Serializes the changes of the environment ``tpm2(tcti:)`` makes.
    private static let environmentLock = NIOLock()

    /// The directory OpenSSL loads provider modules from: `OPENSSL_MODULES`, or the directory it
    /// was built with.
    static var modulesDirectory: String {
        if let set = getenv("OPENSSL_MODULES") { return String(cString: set) }
        // "MODULESDIR: \"/usr/lib/x86_64-linux-gnu/ossl-modules\"".
        let text = String(cString: OpenSSL_version(OPENSSL_MODULES_DIR))
        return String(text.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first ?? "")
    }

    /// An OpenSSL configuration that activates the default provider and `kind`'s provider with
    /// `parameters`, each value quoted; values that would break out of the quotes are refused.
    private static func configuration(kind: Kind, parameters: [(String, String)]) throws(CryptoError) -> String {
        var lines = [
            "openssl_conf = mdoc_init", "[mdoc_init]", "providers = mdoc_providers",
            "[mdoc_providers]", "default = mdoc_default", "\(kind.rawValue) = mdoc_\(kind.rawValue)",
            "[mdoc_default]", "activate = 1", "[mdoc_\(kind.rawValue)]",
        ]
        for (name, value) in parameters {
            guard !value.contains(where: { "\"\\$\n\r".contains($0) }) else {
                throw CryptoError(.invalidParameter, "the \(name) of the \(kind) provider holds a quote, a backslash, a dollar sign or a line break")
            }
            lines.append("\(name) = \"\(value)\"")
        }
        lines.append("activate = 1")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A new library context with the default provider and `kind`'s provider, loaded from
    /// `configuration`.
    private static func load(_ kind: Kind, configuration: String, location: String) throws(CryptoError) -> OpaquePointer {
        let module = modulesDirectory + "/\(kind.rawValue).so"
        guard access(module, R_OK) == 0 else {
            let package = kind == .pkcs11 ? "pkcs11-provider" : "tpm2-openssl"
            throw CryptoError(.providerUnavailable, "the OpenSSL provider \(kind) is not installed (no \(module); Debian package \(package))")
        }
        guard let library = OSSL_LIB_CTX_new() else {
            throw .openSSL(.libraryFailure, "cannot make a library context for the \(kind) provider")
        }
        let loaded = mdoc_load_config_text(library, configuration) == 1
        guard loaded, OSSL_PROVIDER_available(library, kind.rawValue) == 1,
              OSSL_PROVIDER_available(library, "default") == 1
        else {
            let error = CryptoError.openSSL(
                kind == .tpm2 ? .keyStoreUnavailable : .providerUnavailable,
                kind == .tpm2
                    ? "the TPM at \(location) does not answer, or tpm2-openssl does not start"
                    : "pkcs11-provider does not start with the module \(location)")
            OSSL_LIB_CTX_free(library)
            ERR_clear_error()
            throw error
        }
        return library
    }
}
