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
}
