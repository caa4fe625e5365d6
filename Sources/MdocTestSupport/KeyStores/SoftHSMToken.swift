import Foundation
import MdocPosix

/// A SoftHSM 2 token of a test's own: a token directory and a `softhsm2.conf` naming it in a
/// directory of their own, the token initialized with `softhsm2-util --init-token --free`, and
/// key pairs made in it with OpenSC's `pkcs11-tool --keypairgen` (never exported). Removed by
/// ``remove()`` or when the object goes.
///
/// SoftHSM reads its configuration from `SOFTHSM2_CONF` when the module is initialized, once per
/// process while it stays loaded: a test that loads the module in its own process points it at
/// this token with ``useInThisProcess()`` first, and such tests run one after the other.
package final class SoftHSMToken: Sendable {
    /// SoftHSM's PKCS#11 module (Debian's softhsm2).
    package static let module = "/usr/lib/softhsm/libsofthsm2.so"

    /// The token's label.
    package let label: String
    /// The user PIN (test material).
    package let pin: String
    /// The `softhsm2.conf` of this token.
    package let configurationPath: String
    /// The directory of the configuration and the token directory.
    private let directory: String

    /// Makes the directory, the configuration and the token `label` with user PIN `pin`. Throws
    /// with the package to install when softhsm2 is missing.
    package init(label: String = "mdoc-test", pin: String = "246810") throws {
        guard FileManager.default.fileExists(atPath: Self.module) else {
            throw HelperProcessError("\(Self.module) is missing: apt-get install softhsm2 (scripts/install-deps.sh --test)")
        }
        directory = try HelperCommand.makeDirectory("mdoc-softhsm")
        self.label = label
        self.pin = pin
        configurationPath = directory + "/softhsm2.conf"
        try FileManager.default.createDirectory(atPath: directory + "/tokens", withIntermediateDirectories: false)
        let configuration = "directories.tokendir = \(directory)/tokens\nobjectstore.backend = file\nlog.level = ERROR\n"
        try configuration.write(toFile: configurationPath, atomically: true, encoding: .utf8)
        try HelperCommand.run(
            ["softhsm2-util", "--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "13579111"],
            package: "softhsm2", environment: ["SOFTHSM2_CONF": configurationPath], in: directory)
    }

    deinit {
        remove()
    }

    /// A P-256 key pair labelled `object` made in the token, for signing and, when `derive`, key
    /// agreement too (CKA_SIGN, CKA_DERIVE).
    package func makeKeyPair(_ object: String, id: String, derive: Bool) throws {
        try HelperCommand.run(
            ["pkcs11-tool", "--module", Self.module, "--token-label", label, "--login", "--pin", pin, "--keypairgen",
             "--key-type", "EC:prime256v1", "--label", object, "--id", id, "--usage-sign",
            ] + (derive ? ["--usage-derive"] : []),
            package: "opensc", environment: ["SOFTHSM2_CONF": configurationPath], in: directory)
    }

    /// The key pair whose private key is `privateKeyDER` (PKCS#8 or SEC 1 DER) and public key
    /// `publicKeyDER` (SubjectPublicKeyInfo) written into the token as the objects `object`, for
    /// signing and key agreement (`pkcs11-tool --write-object`); the private object is sensitive
    /// (CKA_SENSITIVE), so the token never gives it out again. For a test that must know a
    /// token's private key bytes to look for them.
    package func importKeyPair(_ object: String, id: String, privateKeyDER: [UInt8], publicKeyDER: [UInt8]) throws {
        for (type, bytes) in [("privkey", privateKeyDER), ("pubkey", publicKeyDER)] {
            let file = directory + "/\(object).\(type).der"
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            try HelperCommand.run(
                ["pkcs11-tool", "--module", Self.module, "--token-label", label, "--login", "--pin", pin,
                 "--write-object", file, "--type", type, "--label", object, "--id", id,
                ] + (type == "privkey" ? ["--usage-sign", "--usage-derive"] : []),
                package: "opensc", environment: ["SOFTHSM2_CONF": configurationPath], in: directory)
        }
    }

    /// The public key of the key pair `object`, as its DER SubjectPublicKeyInfo, read from the
    /// token with `pkcs11-tool --read-object`.
    package func publicKeyDER(of object: String) throws -> [UInt8] {
        let file = directory + "/\(object).pub.der"
        try HelperCommand.run(
            ["pkcs11-tool", "--module", Self.module, "--token-label", label, "--read-object", "--type", "pubkey",
             "--label", object, "--output-file", file],
            package: "opensc", environment: ["SOFTHSM2_CONF": configurationPath], in: directory)
        return Array(try Data(contentsOf: URL(fileURLWithPath: file)))
    }

    /// What `pkcs11-tool --list-objects` says of the private key `object`: its lines, with the
    /// usage (`sign`, `derive`...) and access (`sensitive`, `never extractable`...); empty when
    /// the token has no private key of that label.
    package func privateKeyAttributes(of object: String) throws -> String {
        let file = directory + "/objects.txt"
        try HelperCommand.run(
            ["pkcs11-tool", "--module", Self.module, "--token-label", label, "--login", "--pin", pin, "--list-objects",
             "--type", "privkey"],
            package: "opensc", environment: ["SOFTHSM2_CONF": configurationPath], in: directory, output: file)
        let listing = try String(contentsOfFile: file, encoding: .utf8)
        // One "Private Key Object" block per key; pkcs11-tool pads the label after "label:".
        let blocks = listing.components(separatedBy: "Private Key Object")
        return blocks.first { $0.split(separator: "\n").contains { $0.split(separator: " ") == ["label:", Substring(object)] } } ?? ""
    }

    /// The PKCS#11 URI of the private key `object` of this token (RFC 7512).
    package func uri(of object: String) -> String {
        "pkcs11:token=\(label);object=\(object);type=private"
    }

    /// Points SoftHSM in this process at this token (`SOFTHSM2_CONF`).
    package func useInThisProcess() {
        setenv("SOFTHSM2_CONF", configurationPath, 1)
    }

    /// Removes the token and its configuration. Idempotent.
    package func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
