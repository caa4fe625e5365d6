import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocSession

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads credential files (the `Credential` format `mdoc-issuer issue` writes): for
/// `mdoc-holder present --credential`, the holder's store and `mdoc-holder import`.
///
/// A credential holds the device private key (ISO/IEC 18013-5 9.1.3), so one that group or
/// others may access is refused, as OpenSSH refuses such private keys (docs/architecture.md rule 8),
/// unless its device key is one of ``PublishedDeviceKeys``: a key the repository publishes has
/// no secret left to protect. The file is read and recognised first, so that a file that is no
/// credential at all (issuer data, a certificate, a response) is called what it is instead of a
/// private key.
///
/// A credential whose device key is held by a PKCS#11 token or a TPM (`Credential`'s
/// `deviceKeyReference`) is read by loading that key, the token's login answered with the PIN
/// given; the key stays where it is. One whose device key is sealed with a passphrase
/// (`Credential`'s `sealedDeviceKey`) is read by opening the key with the passphrase given.
public enum CredentialFiles {
    /// The permission bits a file holding a private key must not have: any access by group or
    /// others (docs/architecture.md rule 8; the rule OpenSSH applies to its private keys).
    public static let forbiddenMode: mode_t = 0o077

    /// A credential read from a file.
    public struct Loaded: Sendable {
        /// The credential.
        public let credential: Credential
        /// The file it was read from.
        public let path: String
        /// `true` when group or others may read the file and it was accepted because its device
        /// key is published test material.
        public let isPublishedTestMaterial: Bool
    }

    /// The credential in the file at `path`, as ``load(_:pin:)`` reads it without a PIN.
    public static func load(_ path: String) throws(InputError) -> Loaded {
        try load(path, pin: nil)
    }

    /// The credential in the file at `path`, as ``load(_:pin:passphrase:)`` reads it without a
    /// passphrase.
    public static func load(_ path: String, pin: [UInt8]?) throws(InputError) -> Loaded {
        try load(path, pin: pin, passphrase: nil)
    }

    /// The credential in the file at `path`; `pin` answers the login of the token that holds
    /// its device key, if one does, and `passphrase` opens its sealed device key, if it has one.
    ///
    /// Throws `InputError` (MdocFiles) with code `InputError.Code.unreadable` (the file cannot
    /// be opened or read, with the system's reason), `InputError.Code.unsupportedContent` (the
    /// file is something else, named: JSON text, a PEM certificate or key, another 18013-5
    /// message, CBOR that is no credential) or `InputError.Code.insecurePermissions` (group or
    /// others may access it, with the `chmod` that fixes it); the token or TPM that holds the
    /// device key failing is `InputError.Code.unreadable` naming the key and the `CryptoError`
    /// code (MdocCrypto: `loginFailed`, `keyStoreUnavailable`...); a sealed device key without a
    /// passphrase, or one that does not open it, is `InputError.Code.unreadable` too (the
    /// `CryptoError` code `authenticationFailure`: "wrong passphrase or altered sealed key").
    public static func load(_ path: String, pin: [UInt8]?, passphrase: [UInt8]?) throws(InputError) -> Loaded {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let number = errno
            throw InputError(
                .unreadable, source: path,
                number == ENOENT ? "no such file" : "cannot open it: \(String(cString: strerror(number)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw InputError(.unreadable, source: path, "cannot read its mode: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw InputError(.unsupportedContent, source: path, "is a folder, not a credential file")
        }
        let credential = try decode(InputSource.detect(try InputSource.readAll(fd: fd, name: path), name: path), pin: pin, passphrase: passphrase)
        let mode = status.st_mode & 0o777
        let published = PublishedDeviceKeys.contains(credential.deviceKey.publicKey)
        guard mode & forbiddenMode == 0 || published else {
            throw InputError(
                .insecurePermissions, source: path,
                "holds a private key but its mode \(octal(mode)) lets \(accessors(mode)) access it; run: chmod 600 \(path)")
        }
        return Loaded(credential: credential, path: path, isPublishedTestMaterial: mode & forbiddenMode != 0)
    }

    /// The credential in `input`, as ``decode(_:pin:)`` reads it without a PIN.
    public static func decode(_ input: InputSource) throws(InputError) -> Credential {
        try decode(input, pin: nil)
    }

    /// The credential in `input`, as ``decode(_:pin:passphrase:)`` reads it without a passphrase.
    public static func decode(_ input: InputSource, pin: [UInt8]?) throws(InputError) -> Credential {
        try decode(input, pin: pin, passphrase: nil)
    }

    /// The credential in `input`; when it holds none, an `InputError.Code.unsupportedContent`
    /// that says what it holds instead. A device key held by a token or a TPM is loaded, with
    /// `pin` for the token's login; a sealed one is opened with `passphrase`
    /// (``load(_:pin:passphrase:)`` has the failures).
    public static func decode(_ input: InputSource, pin: [UInt8]?, passphrase: [UInt8]?) throws(InputError) -> Credential {
        let cbor: CBOR
        let reference: DeviceKeyReference?
        let sealed: SealedDeviceKey?
        do {
            cbor = try CBOR.decode(input.bytes)
            reference = try Credential.deviceKeyReference(in: cbor, at: .root)
            sealed = try Credential.sealedDeviceKey(in: cbor, at: .root)
        } catch {
            throw InputError(.unsupportedContent, source: input.name, identify(input, failure: error))
        }
        if let sealed, reference == nil {
            let key = try unsealedKey(sealed, of: cbor, passphrase: passphrase, source: input.name)
            do {
                return try Credential(cbor: cbor, at: .root, unsealedKey: key)
            } catch {
                throw InputError(.unsupportedContent, source: input.name, identify(input, failure: error))
            }
        }
        guard let reference else {
            do {
                return try Credential(cbor: cbor, at: .root)
            } catch {
                throw InputError(.unsupportedContent, source: input.name, identify(input, failure: error))
            }
        }
        let key = try deviceKey(reference, pin: pin, source: input.name)
        do {
            return try Credential(cbor: cbor, at: .root, heldKey: key, reference: reference)
        } catch {
            throw InputError(.unsupportedContent, source: input.name, identify(input, failure: error))
        }
    }

    /// The private key `reference` names, loaded with `pin`; its failure is an
    /// `InputError.Code.unreadable` of `source` that names the key and the `CryptoError` code.
    public static func deviceKey(_ reference: DeviceKeyReference, pin: [UInt8]?, source: String) throws(InputError) -> PrivateKey {
        do {
            return try reference.privateKey(pin: pin)
        } catch {
            throw InputError(.unreadable, source: source, "its device key, \(reference), cannot be used (\(error.code)): \(error)")
        }
    }

    /// The private key `sealed` holds, opened with `passphrase` for the public device key of
    /// `cbor`; no passphrase, or one that does not open it, is an `InputError.Code.unreadable` of
    /// `source` naming the `CryptoError` code.
    static func unsealedKey(_ sealed: SealedDeviceKey, of cbor: CBOR, passphrase: [UInt8]?, source: String) throws(InputError) -> PrivateKey {
        let publicKey: PublicKey
        do {
            publicKey = try Credential.publicDeviceKey(in: cbor, at: .root)
        } catch {
            throw InputError(.unsupportedContent, source: source, "is a credential that cannot be used: \(error)")
        }
        guard let passphrase else {
            throw InputError(
                .unreadable, source: source, "its device key is sealed with a passphrase and none was given (--passphrase-file FILE or \(passphraseVariable))")
        }
        do {
            return try sealed.privateKey(passphrase: passphrase, publicKey: publicKey)
        } catch {
            throw InputError(.unreadable, source: source, "its sealed device key cannot be opened (\(error.code)): \(error.reason)")
        }
    }

    /// The environment variable the programs read a device key's passphrase from.
    public static let passphraseVariable = "MDOC_KEY_PASSPHRASE"

    /// Whether the file at `path` lets group or others access it while its credential's device
    /// key is a secret (not one of ``PublishedDeviceKeys``).
    public static func isExposed(_ path: String, credential: Credential) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_mode & forbiddenMode != 0 && !PublishedDeviceKeys.contains(credential.deviceKey.publicKey)
    }

    /// What a credential is, for messages.
    static let expectation = "expected a credential, the CBOR file `mdoc-issuer issue` writes"

    /// What `input`, which is no credential, is (``InputKind``, MdocFiles), and what to do;
    /// `failure` is how its decoding as a credential failed.
    static func identify(_ input: InputSource, failure: CBORError) -> String {
        let kind = InputKind(of: input)
        switch kind {
        case .issuerData:
            return "is \(kind), not a credential; make one from it with "
                + "`mdoc-issuer issue --pki DIR --doctype T --data \(input.name) --out FILE.mdoc`"
        case .text, .der, .unknown:
            return "is not CBOR (\(failure)); \(expectation)"
        case .cbor:
            return "is CBOR but not a credential: \(failure)"
        case .message(.credential):
            return "is a credential that cannot be used: \(failure)"
        case .consentPolicy, .json, .pemPrivateKey, .pemCertificate, .pem, .encrypted, .message:
            return "is \(kind), not a credential; \(expectation)"
        }
    }

    /// Who besides the owner `mode` lets in: "group", "others" or "group and others".
    static func accessors(_ mode: mode_t) -> String {
        [(mode & 0o070 != 0, "group"), (mode & 0o007 != 0, "others")].filter(\.0).map(\.1).joined(separator: " and ")
    }

    /// `mode` as four octal digits, as ls and chmod spell it.
    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
