import Foundation
import MdocCrypto
import MdocTestSupport
import Testing

/// Private keys that never leave a PKCS#11 token (SoftHSM through pkcs11-provider) or a TPM 2.0
/// (swtpm through tpm2-openssl), used as ``PrivateKey``s: ECDSA for DeviceSignature and reader
/// authentication (ISO/IEC 18013-5 9.1.3.6, 9.1.4), ECDH for EMacKey (9.1.3.5). Each test makes
/// its own token or starts its own TPM and removes it. SoftHSM is configured per process
/// (`SOFTHSM2_CONF`), so the tests run one after the other.
@Suite("Keys in a PKCS#11 token or a TPM", .serialized)
struct KeyProviderTests {
    static let message = Array("DeviceAuthenticationBytes stand-in".utf8)

    /// A token with a sign-and-derive key `device` and a sign-only key `signer`, and its provider.
    static func token(pin: String? = nil) throws -> (SoftHSMToken, KeyProvider) {
        let token = try SoftHSMToken()
        try token.makeKeyPair("device", id: "01", derive: true)
        try token.makeKeyPair("signer", id: "02", derive: false)
        token.useInThisProcess()
        let provider = try KeyProvider.pkcs11(module: SoftHSMToken.module, pin: Array((pin ?? token.pin).utf8))
        return (token, provider)
    }

    @Test("a token's ECDSA signature verifies with its public key")
    func tokenSignature() throws {
        let (token, provider) = try Self.token()
        defer { token.remove() }
        let key = try provider.privateKey(pkcs11URI: token.uri(of: "device"))
        #expect(key.curve == .p256)
        let signature = try key.signature(for: Self.message, digest: .sha256)
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: Self.message, digest: .sha256))
        #expect(!key.publicKey.isValidSignature(signature, for: Self.message + [0], digest: .sha256))
        let other = try PrivateKey(generating: .p256).publicKey
        #expect(!other.isValidSignature(signature, for: Self.message, digest: .sha256))
    }

    @Test("a token's ECDH secret with a software peer equals the peer's")
    func tokenKeyAgreement() throws {
        let (token, provider) = try Self.token()
        defer { token.remove() }
        let key = try provider.privateKey(pkcs11URI: token.uri(of: "device"))
        let peer = try PrivateKey(generating: .p256)
        let ours = try key.sharedSecret(with: peer.publicKey)
        let theirs = try peer.sharedSecret(with: key.publicKey)
        #expect(ours.byteCount == 32)
        #expect(ours.withUnsafeBytes { Array($0) } == theirs.withUnsafeBytes { Array($0) })
    }

    @Test("a sign-only key in a token refuses key agreement with operationNotPermitted")
    func signOnlyKey() throws {
        let (token, provider) = try Self.token()
        defer { token.remove() }
        let key = try provider.privateKey(pkcs11URI: token.uri(of: "signer"))
        let signature = try key.signature(for: Self.message, digest: .sha256)
        #expect(key.publicKey.isValidSignature(signature, for: Self.message, digest: .sha256))
        let peer = try PrivateKey(generating: .p256)
        #expect(throws: CryptoError(.operationNotPermitted, "")) { try key.sharedSecret(with: peer.publicKey) }
    }

    @Test("a wrong PIN gives loginFailed; no PIN too")
    func wrongPIN() throws {
        let (token, provider) = try Self.token(pin: "000000")
        defer { token.remove() }
        #expect(throws: CryptoError(.loginFailed, "")) { try provider.privateKey(pkcs11URI: token.uri(of: "device")) }
        let withoutPIN = try KeyProvider.pkcs11(module: SoftHSMToken.module, pin: nil)
        #expect(throws: CryptoError(.loginFailed, "")) { try withoutPIN.privateKey(pkcs11URI: token.uri(of: "device")) }
    }

    @Test("an absent token gives keyStoreUnavailable, an absent key keyNotFound")
    func absentTokenAndKey() throws {
        let (token, provider) = try Self.token()
        defer { token.remove() }
        #expect(throws: CryptoError(.keyStoreUnavailable, "")) {
            try provider.privateKey(pkcs11URI: "pkcs11:token=no-such-token;object=device;type=private")
        }
        #expect(throws: CryptoError(.keyNotFound, "")) { try provider.privateKey(pkcs11URI: token.uri(of: "no-such-key")) }
    }

    @Test("a missing PKCS#11 module or provider gives providerUnavailable")
    func missingModule() throws {
        #expect(throws: CryptoError(.providerUnavailable, "")) {
            try KeyProvider.pkcs11(module: "/nonexistent/libpkcs11-module.so", pin: nil)
        }
        // A provider directory without the provider modules, as on a machine without them.
        let empty = NSTemporaryDirectory() + "mdoc-no-providers-\(getpid())"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let previous = ProcessInfo.processInfo.environment["OPENSSL_MODULES"]
        setenv("OPENSSL_MODULES", empty, 1)
        defer { if let previous { setenv("OPENSSL_MODULES", previous, 1) } else { unsetenv("OPENSSL_MODULES") } }
        #expect(throws: CryptoError(.providerUnavailable, "")) {
            try KeyProvider.pkcs11(module: SoftHSMToken.module, pin: nil)
        }
        #expect(throws: CryptoError(.providerUnavailable, "")) { try KeyProvider.tpm2(tcti: "swtpm:host=127.0.0.1,port=1") }
    }

    @Test("a token's private key cannot be exported")
    func tokenKeyStaysInside() throws {
        let (token, provider) = try Self.token()
        defer { token.remove() }
        let key = try provider.privateKey(pkcs11URI: token.uri(of: "device"))
        #expect(key.rawRepresentation.isEmpty)
        #expect(key.derRepresentation.isEmpty)
        #expect(key.pemRepresentation.isEmpty)
        #expect(!"\(key)".contains(token.pin))
        #expect(!"\(provider)".contains(token.pin))
    }

    @Test("a TPM key signs and agrees keys, and cannot be exported")
    func tpmKey() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let path = try tpm.makeKey(named: "device.tss2.pem")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("-----BEGIN TSS2 PRIVATE KEY-----"))
        let provider = try KeyProvider.tpm2(tcti: tpm.tcti)
        let key = try provider.privateKey(tss2KeyFile: path)
        #expect(key.curve == .p256)
        let signature = try key.signature(for: Self.message, digest: .sha256)
        #expect(key.publicKey.isValidSignature(signature, for: Self.message, digest: .sha256))
        let peer = try PrivateKey(generating: .p256)
        let ours = try key.sharedSecret(with: peer.publicKey)
        let theirs = try peer.sharedSecret(with: key.publicKey)
        #expect(ours.withUnsafeBytes { Array($0) } == theirs.withUnsafeBytes { Array($0) })
        #expect(key.rawRepresentation.isEmpty)
        let pem = key.pemRepresentation
        #expect(!pem.contains("BEGIN PRIVATE KEY") && !pem.contains("BEGIN EC PRIVATE KEY"))
        #expect(throws: CryptoError(.keyNotFound, "")) { try provider.privateKey(tss2KeyFile: tpm.directory + "/absent.pem") }
    }

    @Test("a TPM that does not answer gives keyStoreUnavailable")
    func absentTPM() throws {
        let tpm = try SoftwareTPM()
        let tcti = tpm.tcti
        tpm.stop()
        #expect(throws: CryptoError(.keyStoreUnavailable, "")) { try KeyProvider.tpm2(tcti: tcti) }
    }

    @Test("a key made in a token is not extractable, signs and agrees keys, and is loaded again by its URI")
    func tokenGeneration() throws {
        let (token, provider) = try Self.token()
        defer { token.remove() }
        let made = try provider.generatePrivateKey(pkcs11URI: "pkcs11:token=\(token.label);object=made", curve: .p256)
        #expect(made.curve == .p256)
        let attributes = try token.privateKeyAttributes(of: "made")
        #expect(attributes.contains("sensitive") && attributes.contains("never extractable"), "\(attributes)")
        #expect(!attributes.replacingOccurrences(of: "never extractable", with: "").contains("extractable"), "\(attributes)")
        let usage = attributes.split(separator: "\n").first { $0.contains("Usage:") } ?? ""
        #expect(usage.contains("sign") && usage.contains("derive"), "\(attributes)")
        #expect(made.rawRepresentation.isEmpty && made.derRepresentation.isEmpty && made.pemRepresentation.isEmpty)
        #expect(try PublicKey(derRepresentation: token.publicKeyDER(of: "made")) == made.publicKey)

        let loaded = try provider.privateKey(pkcs11URI: token.uri(of: "made"))
        #expect(loaded.publicKey == made.publicKey)
        let signature = try loaded.signature(for: Self.message, digest: .sha256)
        #expect(made.publicKey.isValidSignature(signature, for: Self.message, digest: .sha256))
        let peer = try PrivateKey(generating: .p256)
        let ours = try loaded.sharedSecret(with: peer.publicKey)
        let theirs = try peer.sharedSecret(with: made.publicKey)
        #expect(ours.withUnsafeBytes { Array($0) } == theirs.withUnsafeBytes { Array($0) })

        let p384 = try provider.generatePrivateKey(pkcs11URI: "pkcs11:token=\(token.label);object=made-384;type=private", curve: .p384)
        #expect(p384.curve == .p384)
        #expect(try provider.privateKey(pkcs11URI: token.uri(of: "made-384")).publicKey == p384.publicKey)
    }

    @Test("making a key in a token: a taken name gives keyExists, a wrong PIN loginFailed, no object invalidParameter, X25519 unsupportedAlgorithm")
    func tokenGenerationRefused() throws {
        let (token, provider) = try Self.token()
        defer { token.remove() }
        // Before any login: the module's login holds for every provider of this process.
        let wrong = try KeyProvider.pkcs11(module: SoftHSMToken.module, pin: Array("000000".utf8))
        #expect(throws: CryptoError(.loginFailed, "")) {
            try wrong.generatePrivateKey(pkcs11URI: "pkcs11:token=\(token.label);object=refused", curve: .p256)
        }
        let withoutPIN = try KeyProvider.pkcs11(module: SoftHSMToken.module, pin: nil)
        #expect(throws: CryptoError(.loginFailed, "")) {
            try withoutPIN.generatePrivateKey(pkcs11URI: "pkcs11:token=\(token.label);object=refused", curve: .p256)
        }
        #expect(try token.privateKeyAttributes(of: "refused").isEmpty)
        #expect(throws: CryptoError(.keyExists, "")) {
            try provider.generatePrivateKey(pkcs11URI: token.uri(of: "device"), curve: .p256)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try provider.generatePrivateKey(pkcs11URI: "pkcs11:token=\(token.label);type=private", curve: .p256)
        }
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) {
            try provider.generatePrivateKey(pkcs11URI: "pkcs11:token=\(token.label);object=x", curve: .x25519)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) { try provider.generatePrivateKey(curve: .p256) }

        #expect(throws: CryptoError(.keyStoreUnavailable, "")) {
            try provider.generatePrivateKey(pkcs11URI: "pkcs11:token=no-such-token;object=made", curve: .p256)
        }
    }

    @Test("a key made in a TPM signs and agrees keys, its TSS2 blob loads it again in that TPM only")
    func tpmGeneration() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let provider = try KeyProvider.tpm2(tcti: tpm.tcti)
        let made = try provider.generatePrivateKey(curve: .p256)
        #expect(made.curve == .p256)
        #expect(made.rawRepresentation.isEmpty)
        let blob = try provider.tss2KeyBlob(of: made)
        let text = String(decoding: blob, as: UTF8.self)
        #expect(text.hasPrefix("-----BEGIN TSS2 PRIVATE KEY-----"))
        #expect(!text.contains("BEGIN PRIVATE KEY") && !text.contains("BEGIN EC PRIVATE KEY"))
        let path = tpm.directory + "/made.tss2.pem"
        try Data(blob).write(to: URL(fileURLWithPath: path))

        let loaded = try provider.privateKey(tss2KeyFile: path)
        #expect(loaded.publicKey == made.publicKey)
        let signature = try loaded.signature(for: Self.message, digest: .sha256)
        #expect(made.publicKey.isValidSignature(signature, for: Self.message, digest: .sha256))
        let peer = try PrivateKey(generating: .p256)
        let ours = try loaded.sharedSecret(with: peer.publicKey)
        let theirs = try peer.sharedSecret(with: made.publicKey)
        #expect(ours.withUnsafeBytes { Array($0) } == theirs.withUnsafeBytes { Array($0) })

        #expect(throws: CryptoError(.invalidParameter, "")) { try provider.tss2KeyBlob(of: peer) }
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) { try provider.generatePrivateKey(curve: .ed25519) }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try provider.generatePrivateKey(pkcs11URI: "pkcs11:token=t;object=o", curve: .p256)
        }

        // Another TPM cannot unwrap the blob: the key is bound to the TPM that made it.
        let other = try SoftwareTPM()
        defer { other.stop() }
        #expect(throws: CryptoError(.keyNotFound, "")) { try KeyProvider.tpm2(tcti: other.tcti).privateKey(tss2KeyFile: path) }
    }
}
