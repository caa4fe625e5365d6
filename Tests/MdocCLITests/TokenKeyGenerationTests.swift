import Foundation
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocTestSupport
import Testing

/// Keys made inside a PKCS#11 token or a TPM by the programs, and a reader whose reader
/// authentication key is in a token or a TPM: `mdoc-holder key generate` makes the device key
/// (SDeviceKey, ISO/IEC 18013-5 9.1.3) inside SoftHSM or swtpm, `mdoc-issuer issue --device-key`
/// issues for the COSE_Key it writes, `mdoc-holder import --key-in` binds the document to it and
/// a presentation over `sim` verifies; `mdoc-issuer pki --reader-public-key` certifies a token's
/// key and `mdoc-reader request --reader-key pkcs11:...` (or `tpm2:...`) signs ReaderAuth
/// (9.1.4) inside it. Each test makes its own token or TPM and home and removes them.
@Suite struct TokenKeyGenerationTests {
    /// `mdoc-holder key generate` with `arguments`, writing the public COSE_Key to
    /// `device.cose` in the run's home.
    static func generate(_ run: IsolatedRun, _ arguments: [String]) async throws -> ProgramRunner.Result {
        try await run.run("mdoc-holder", ["key", "generate", "--out", run.home + "/device.cose"] + arguments)
    }

    @Test("a key made in SoftHSM by mdoc-holder key generate is not extractable, is issued for, bound and presents by DeviceMac")
    func tokenKeyFlow() async throws {
        let token = try SoftHSMToken()
        defer { token.remove() }
        let run = try IsolatedRun(["SOFTHSM2_CONF": token.configurationPath, "MDOC_TOKEN_PIN": token.pin])
        defer { run.remove() }
        let uri = "pkcs11:token=\(token.label);object=device"
        let keyIn = ["--module", SoftHSMToken.module]

        let generated = try await Self.generate(run, ["--in", uri] + keyIn)

        #expect(generated.status == 0, "\(generated.standardError)")
        #expect(generated.standardOutput.contains("Made a P-256 device key in the token as \(uri)"), "\(generated.standardOutput)")
        #expect(generated.standardOutput.contains("Public COSE_Key: {1: 2, -1: 1, -2: h'"), "\(generated.standardOutput)")
        let attributes = try token.privateKeyAttributes(of: "device")
        #expect(attributes.contains("never extractable"), "\(attributes)")
        #expect(!attributes.replacingOccurrences(of: "never extractable", with: "").contains("extractable"), "\(attributes)")
        let written = try COSEKey(encoded: Array(try Data(contentsOf: URL(fileURLWithPath: run.home + "/device.cose"))))
        #expect(written.d == nil)
        #expect(try written.publicKey() == PublicKey(derRepresentation: token.publicKeyDER(of: "device")))

        // The same label again: refused, and the key made first is still the only one.
        let again = try await run.run("mdoc-holder", ["key", "generate", "--in", uri] + keyIn)
        #expect(again.status == 7)
        #expect(again.standardError.contains("no key made (keyExists)"), "\(again.standardError)")

        let imported = try await TokenDeviceKeyTests.issueAndImport(run, coseKey: run.home + "/device.cose", keyIn: ["--key-in", uri] + keyIn)
        #expect(imported.standardOutput.contains("device key held by the PKCS#11 key \(uri)"), "\(imported.standardOutput)")
        let session = try await TokenDeviceKeyTests.present(run)
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        let document = try ReaderJSON(session.reader.standardOutput).document("org.iso.18013.5.1.mDL")
        #expect(document?["deviceAuthentication"] as? String == "DeviceMac", "\(session.reader.standardOutput)")
    }

    @Test("a key made in swtpm by mdoc-holder key generate writes a 0600 TSS2 blob, is issued for, bound and presents by DeviceSignature")
    func tpmKeyFlow() async throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let run = try IsolatedRun()
        defer { run.remove() }
        let blob = run.home + "/device.tss2.pem"
        let keyIn = ["tpm2:" + tpm.tcti, "--key-file", blob]

        let generated = try await Self.generate(run, ["--in"] + keyIn)
        if KnownTPMEncodingFailure.met(in: generated) { return }

        #expect(generated.status == 0, "\(generated.standardError)")
        #expect(generated.standardOutput.contains("Made a P-256 device key in the TPM, its key blob in \(blob) (mode 0600)"),
                "\(generated.standardOutput)")
        #expect(try String(contentsOfFile: blob, encoding: .utf8).hasPrefix("-----BEGIN TSS2 PRIVATE KEY-----"))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: blob)[.posixPermissions] as? Int)
        #expect(mode == 0o600)

        // An existing key blob is never replaced, with --force neither.
        let again = try await run.run("mdoc-holder", ["key", "generate", "--force", "--in"] + keyIn)
        #expect(again.status == 7)
        #expect(again.standardError.contains("--key-file \(blob): exists"), "\(again.standardError)")

        let imported = try await TokenDeviceKeyTests.issueAndImport(run, coseKey: run.home + "/device.cose", keyIn: ["--key-in"] + keyIn)
        #expect(imported.standardOutput.contains("device key held by the TPM key \(blob)"), "\(imported.standardOutput)")
        let session = try await TokenDeviceKeyTests.present(run, extra: ["--device-auth", "signature"])
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        let document = try ReaderJSON(session.reader.standardOutput).document("org.iso.18013.5.1.mDL")
        #expect(document?["deviceAuthentication"] as? String == "DeviceSignature", "\(session.reader.standardOutput)")
    }

    @Test("mdoc-holder key generate refuses a URI without an object label, an Edwards curve, and a wrong PIN with loginFailed, PIN unprinted")
    func generationRefused() async throws {
        let token = try SoftHSMToken()
        defer { token.remove() }
        let run = try IsolatedRun(["SOFTHSM2_CONF": token.configurationPath, "MDOC_TOKEN_PIN": "000000"])
        defer { run.remove() }

        let unlabelled = try await run.run("mdoc-holder", ["key", "generate", "--in", "pkcs11:token=\(token.label)", "--module", SoftHSMToken.module])
        #expect(unlabelled.status == 64)
        #expect(unlabelled.standardError.contains("the URI's object attribute"), "\(unlabelled.standardError)")
        let edwards = try await run.run("mdoc-holder", [
            "key", "generate", "--in", "pkcs11:token=\(token.label);object=device", "--module", SoftHSMToken.module, "--curve", "ed25519",
        ])
        #expect(edwards.status == 64)
        #expect(edwards.standardError.contains("--curve ed25519: a device key signs and agrees keys"), "\(edwards.standardError)")

        let wrong = try await Self.generate(run, ["--in", "pkcs11:token=\(token.label);object=device", "--module", SoftHSMToken.module])
        #expect(wrong.status == 7)
        #expect(wrong.standardError.contains("no key made (loginFailed)"), "\(wrong.standardError)")
        #expect(!wrong.standardError.contains("000000") && !wrong.standardOutput.contains("000000"))
        #expect(!FileManager.default.fileExists(atPath: run.home + "/device.cose"))
        #expect(try token.privateKeyAttributes(of: "device").isEmpty)
    }

    @Test("a reader whose reader authentication key is in SoftHSM signs ReaderAuth there, and the holder trusts it")
    func readerKeyInToken() async throws {
        let token = try SoftHSMToken()
        defer { token.remove() }
        try token.makeKeyPair("reader", id: "02", derive: false)
        let run = try IsolatedRun(["SOFTHSM2_CONF": token.configurationPath, "MDOC_TOKEN_PIN": token.pin])
        defer { run.remove() }
        let readerPublic = run.home + "/reader.cose"
        try Data(COSEKey(publicKey: PublicKey(derRepresentation: token.publicKeyDER(of: "reader"))).encoded())
            .write(to: URL(fileURLWithPath: readerPublic))
        let pki = run.home + "/pki"

        let made = try await run.run("mdoc-issuer", ["pki", pki, "--reader-public-key", readerPublic])

        #expect(made.status == 0, "\(made.standardError)")
        #expect(FileManager.default.fileExists(atPath: pki + "/reader.pem"))
        #expect(!FileManager.default.fileExists(atPath: pki + "/reader-key.pem"))
        let notCOSE = try await run.run("mdoc-issuer", ["pki", run.home + "/other-pki", "--reader-public-key", "Certs/demo/reader.pem"])
        #expect(notCOSE.status == 7)
        #expect(notCOSE.standardError.contains("--reader-public-key Certs/demo/reader.pem: not a public COSE_Key"), "\(notCOSE.standardError)")
        let readerKey = ["--reader-cert", pki + "/reader.pem", "--reader-key", token.uri(of: "reader"), "--module", SoftHSMToken.module]
        let session = try await run.session(
            holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--trust-readers", pki + "/reader-root.pem"],
            reader: ["--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem"] + readerKey)
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        #expect(session.holder.standardOutput.contains("Reader: trusted: C=US, CN=swift-mdoc Test Reader"), "\(session.holder.standardOutput)")

        // The reader's PIN wrong: it stops before any session, naming the token's refusal.
        let wrong = try await run.run(
            "mdoc-reader", ["request", try ExitCodeTests.annexDURI(), "--trust", "Certs/demo/iaca.pem"] + readerKey, extra: ["MDOC_TOKEN_PIN": "000000"])
        #expect(wrong.status == 7)
        #expect(wrong.standardError.contains("cannot be used (loginFailed)"), "\(wrong.standardError)")
        #expect(!wrong.standardError.contains("000000"))
        // The certificate of another key: the token's key is checked against it.
        let other = try await run.run(
            "mdoc-reader", ["request", try ExitCodeTests.annexDURI(), "--trust", "Certs/demo/iaca.pem", "--reader-cert", "Certs/demo/reader.pem",
                            "--reader-key", token.uri(of: "reader"), "--module", SoftHSMToken.module])
        #expect(other.status == 7)
        #expect(other.standardError.contains("is not the key of the --reader-cert certificate"), "\(other.standardError)")
    }

    @Test("a reader whose reader authentication key was made in swtpm signs ReaderAuth there, and the holder trusts it")
    func readerKeyInTPM() async throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let run = try IsolatedRun()
        defer { run.remove() }
        let blob = run.home + "/reader.tss2.pem"
        let generated = try await Self.generate(run, ["--in", "tpm2:" + tpm.tcti, "--key-file", blob])
        if KnownTPMEncodingFailure.met(in: generated) { return }
        #expect(generated.status == 0, "\(generated.standardError)")
        let pki = run.home + "/pki"
        let made = try await run.run("mdoc-issuer", ["pki", pki, "--reader-public-key", run.home + "/device.cose"])
        #expect(made.status == 0, "\(made.standardError)")

        let session = try await run.session(
            holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--trust-readers", pki + "/reader-root.pem"],
            reader: ["--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--reader-cert", pki + "/reader.pem",
                     "--reader-key", "tpm2:" + tpm.tcti, "--key-file", blob])
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        #expect(session.holder.standardOutput.contains("Reader: trusted: C=US, CN=swift-mdoc Test Reader"), "\(session.holder.standardOutput)")
    }
}
