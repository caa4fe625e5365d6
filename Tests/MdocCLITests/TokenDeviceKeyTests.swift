import Foundation
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocTestSupport
import Testing

/// A holder whose device key (SDeviceKey, ISO/IEC 18013-5 9.1.3) never leaves a PKCS#11 token:
/// `mdoc-issuer issue --device-key PUBLIC` issues for the token's key, `mdoc-holder import
/// --key-in` binds the document to it, and `mdoc-holder present` authenticates with it over
/// `sim`, by DeviceMac (ECDH in the token, 9.1.3.5) and by DeviceSignature (ECDSA in the token,
/// 9.1.3.6). Each test makes its own SoftHSM token (``SoftHSMToken``) and home (``IsolatedRun``)
/// and removes them; the programs find the token through `SOFTHSM2_CONF` and its PIN in
/// `MDOC_TOKEN_PIN`.
@Suite struct TokenDeviceKeyTests {
    /// The reader's request: the demo IACA trusted, the report as JSON.
    static let request = ["--preset", "age-over-18", "--json", "--trust", "Certs/demo/iaca.pem"]

    /// A token with the P-256 key pair `device`, a home that reaches it with its PIN, and the
    /// demo mDL issued for the key and stored as `mdl`, bound to the key.
    static func provision() async throws -> (SoftHSMToken, IsolatedRun) {
        let token = try SoftHSMToken()
        try token.makeKeyPair("device", id: "01", derive: true)
        let run = try IsolatedRun(["SOFTHSM2_CONF": token.configurationPath, "MDOC_TOKEN_PIN": token.pin])
        let imported = try await issueAndImport(
            run, publicKey: PublicKey(derRepresentation: try token.publicKeyDER(of: "device")),
            keyIn: ["--key-in", token.uri(of: "device"), "--module", SoftHSMToken.module])
        #expect(imported.standardOutput.contains("device key held by the PKCS#11 key \(token.uri(of: "device"))"), "\(imported.standardOutput)")
        return (token, run)
    }

    /// The demo mDL issued for `publicKey` and stored as `mdl`, bound to the key `keyIn` names;
    /// the output of `mdoc-holder import`.
    static func issueAndImport(_ run: IsolatedRun, publicKey: PublicKey, keyIn: [String]) async throws -> ProgramRunner.Result {
        try Data(COSEKey(publicKey: publicKey).encoded()).write(to: URL(fileURLWithPath: run.home + "/device.cose"))
        return try await issueAndImport(run, coseKey: run.home + "/device.cose", keyIn: keyIn)
    }

    /// The demo mDL issued for the public COSE_Key in the file `coseKey` and stored as `mdl`,
    /// bound to the key `keyIn` names; the output of `mdoc-holder import`.
    static func issueAndImport(_ run: IsolatedRun, coseKey: String, keyIn: [String]) async throws -> ProgramRunner.Result {
        let issued = run.home + "/issued.mdoc"
        let issue = try await run.run("mdoc-issuer", [
            "issue", "--pki", "Certs/demo", "--doctype", "mdl", "--data", "Samples/mdl.json", "--device-key", coseKey,
            "--out", issued,
        ])
        #expect(issue.status == 0, "\(issue.standardError)")
        // Issued for a public key: it cannot be presented before it is bound.
        let unbound = try await run.run("mdoc-holder", ["show", issued])
        #expect(unbound.status == 7)
        #expect(unbound.standardError.contains("bind it to the key in the token or TPM with `mdoc-holder import --key-in`"), "\(unbound.standardError)")

        let imported = try await run.run("mdoc-holder", ["import", issued, "--name", "mdl"] + keyIn)
        #expect(imported.status == 0, "\(imported.standardError)")
        return imported
    }

    /// The stored credential's map.
    static func storedCredential(_ run: IsolatedRun) throws -> CBORMap {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: run.credentialStore + "/mdl.mdoc"))
        return try CBOR.decode(Array(bytes)).map(at: .root)
    }

    /// A presentation of the stored credential, the reader's report and the holder's result.
    static func present(_ run: IsolatedRun, extra: [String] = []) async throws -> (holder: ProgramRunner.Result, reader: ProgramRunner.Result) {
        try await run.session(holder: ["--credential", "mdl", "--yes", "--no-qr"] + extra, reader: request)
    }

    @Test("a P-256 key in SoftHSM authenticates by DeviceMac, ECDH inside the token")
    func deviceMac() async throws {
        let (token, run) = try await Self.provision()
        defer { run.remove(); token.remove() }
        let capture = run.home + "/holder-capture"

        let session = try await Self.present(run, extra: ["--save-session", capture])

        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        let document = try ReaderJSON(session.reader.standardOutput).document("org.iso.18013.5.1.mDL")
        #expect(document?["deviceAuthentication"] as? String == "DeviceMac", "\(session.reader.standardOutput)")

        // The private key is nowhere the run wrote: the stored credential names the key and
        // holds its public half only (no "d", RFC 9052 section 7.1), and the capture holds the
        // session's ephemeral key, not the device key.
        let stored = try Self.storedCredential(run)
        let deviceKey = try #require(stored[text: "deviceKey"]).map(at: .root)
        #expect(deviceKey[int: COSEKey.Label.d] == nil)
        #expect(deviceKey[int: COSEKey.Label.x] != nil)
        let reference = try #require(stored[text: "deviceKeyReference"]).map(at: .root)
        #expect(reference[text: "provider"] == .textString("pkcs11"))
        #expect(reference[text: "uri"] == .textString(token.uri(of: "device")))
        #expect(reference[text: "module"] == .textString(SoftHSMToken.module))
        let written = try FileManager.default.subpathsOfDirectory(atPath: run.home).filter { $0.hasSuffix(".mdoc") || $0.hasSuffix(".cose") }
        for path in written {
            let map = try? CBOR.decode(Array(try Data(contentsOf: URL(fileURLWithPath: run.home + "/" + path)))).map(at: .root)
            let key = map?[text: "deviceKey"].flatMap { try? $0.map(at: .root) } ?? map
            #expect(key?[int: COSEKey.Label.d] == nil, "\(path) holds a private key")
        }
        #expect(FileManager.default.fileExists(atPath: capture + "/ephemeral-key.pem"))
    }

    @Test("a key in SoftHSM authenticates by DeviceSignature, ECDSA inside the token")
    func deviceSignature() async throws {
        let (token, run) = try await Self.provision()
        defer { run.remove(); token.remove() }

        let session = try await Self.present(run, extra: ["--device-auth", "signature"])

        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        let document = try ReaderJSON(session.reader.standardOutput).document("org.iso.18013.5.1.mDL")
        #expect(document?["deviceAuthentication"] as? String == "DeviceSignature", "\(session.reader.standardOutput)")
    }

    @Test("a P-256 key in a software TPM authenticates by DeviceMac, ECDH inside the TPM")
    func tpmDeviceMac() async throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let blob = try tpm.makeKey(named: "device.tss2.pem")
        let run = try IsolatedRun()
        defer { run.remove() }
        let imported = try await Self.issueAndImport(
            run, publicKey: PublicKey(derRepresentation: try tpm.publicKeyDER(ofKey: "device.tss2.pem")),
            keyIn: ["--key-in", "tpm2:" + tpm.tcti, "--key-file", blob])
        #expect(imported.standardOutput.contains("device key held by the TPM key \(blob)"), "\(imported.standardOutput)")

        let session = try await Self.present(run)

        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        let document = try ReaderJSON(session.reader.standardOutput).document("org.iso.18013.5.1.mDL")
        #expect(document?["deviceAuthentication"] as? String == "DeviceMac", "\(session.reader.standardOutput)")
        let reference = try #require(try Self.storedCredential(run)[text: "deviceKeyReference"]).map(at: .root)
        #expect(reference[text: "provider"] == .textString("tpm2"))
        #expect(reference[text: "keyFile"] == .textString(blob))
    }

    @Test("a wrong PIN, from MDOC_TOKEN_PIN or --pin-file, ends the holder with status 7 before the engagement")
    func wrongPIN() async throws {
        let (token, run) = try await Self.provision()
        defer { run.remove(); token.remove() }

        let wrong = try await run.run("mdoc-holder", ["present", "--credential", "mdl", "--yes", "--no-qr"], extra: ["MDOC_TOKEN_PIN": "000000"])
        #expect(wrong.status == 7)
        #expect(wrong.standardError.contains("cannot be used (loginFailed)"), "\(wrong.standardError)")
        #expect(!wrong.standardOutput.contains("mdoc:"))
        #expect(!wrong.standardError.contains("000000") && !wrong.standardError.contains(token.pin))

        try Data("999999\n".utf8).write(to: URL(fileURLWithPath: run.home + "/pin"))
        let fromFile = try await run.run("mdoc-holder", ["present", "--credential", "mdl", "--yes", "--no-qr", "--pin-file", run.home + "/pin"])
        #expect(fromFile.status == 7)
        #expect(fromFile.standardError.contains("cannot be used (loginFailed)"), "\(fromFile.standardError)")

        // The right PIN from the file: the same credential presents.
        try Data("\(token.pin)\n".utf8).write(to: URL(fileURLWithPath: run.home + "/pin"))
        let session = try await Self.present(run, extra: ["--pin-file", run.home + "/pin"])
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
    }

    @Test("a copy of the credential file presents nothing without its token")
    func copiedCredential() async throws {
        let (token, run) = try await Self.provision()
        defer { run.remove(); token.remove() }
        // Another machine: its own token (another SoftHSM token directory), the same PIN.
        let other = try SoftHSMToken(label: "elsewhere", pin: token.pin)
        defer { other.remove() }
        let copy = try IsolatedRun(["SOFTHSM2_CONF": other.configurationPath, "MDOC_TOKEN_PIN": token.pin])
        defer { copy.remove() }
        try FileManager.default.copyItem(atPath: run.credentialStore + "/mdl.mdoc", toPath: copy.home + "/mdl.mdoc")

        let present = try await copy.run("mdoc-holder", ["present", "--credential", copy.home + "/mdl.mdoc", "--yes", "--no-qr"])

        #expect(present.status == 7)
        #expect(present.standardError.contains("cannot be used (keyStoreUnavailable): no token matches \(token.uri(of: "device"))"),
                "\(present.standardError)")
        #expect(!present.standardOutput.contains("mdoc:"))
    }
}
