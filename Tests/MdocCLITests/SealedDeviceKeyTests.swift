import Foundation
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocSession
import MdocStores
import Testing

/// A holder without a token keeps its software device key (SDeviceKey, ISO/IEC 18013-5 9.1.3)
/// sealed with a passphrase (docs/credential-file.md): `mdoc-holder import` seals it when a
/// passphrase is given, `mdoc-holder key seal` seals a stored one in place, and `present`,
/// `show` and `list` open it with the passphrase from `MDOC_KEY_PASSPHRASE` or
/// `--passphrase-file`. Each test has its own home (``IsolatedRun``).
@Suite struct SealedDeviceKeyTests {
    static let passphrase = "correct horse battery staple"
    /// The reader's request: the demo IACA trusted, the report as JSON.
    static let request = ["--preset", "age-over-18", "--json", "--trust", "Certs/demo/iaca.pem"]

    /// The demo mDL issued now into the home of `run` (its device key a fresh secret, in the
    /// clear); its path.
    static func issue(_ run: IsolatedRun) async throws -> String {
        let path = run.home + "/issued.mdoc"
        let issue = try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", "mdl", "--data", "Samples/mdl.json", "--out", path])
        try #require(issue.status == 0, "\(issue.standardError)")
        return path
    }

    /// The raw private device key of the credential file at `path`, read in the clear.
    static func privateKeyBytes(_ path: String) throws -> [UInt8] {
        try CredentialFiles.load(path).credential.deviceKey.rawRepresentation
    }

    /// Whether `bytes` holds `pattern` anywhere.
    static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        bytes.count >= pattern.count && (0...(bytes.count - pattern.count)).contains { Array(bytes[$0..<($0 + pattern.count)]) == pattern }
    }

    /// The bytes of the file at `path`.
    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("a credential imported with a passphrase is stored sealed and presents over sim, verified, without a warning")
    func importSealedAndPresent() async throws {
        let run = try IsolatedRun(["MDOC_KEY_PASSPHRASE": Self.passphrase])
        defer { run.remove() }
        let issued = try await Self.issue(run)
        let d = try Self.privateKeyBytes(issued)

        let imported = try await run.run("mdoc-holder", ["import", issued, "--name", "mdl"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("Stored org.iso.18013.5.1.mDL as mdl (\(run.credentialStore)/mdl.mdoc, mode 0600), device key sealed with the passphrase"),
                "\(imported.standardOutput)")
        #expect(imported.standardError == """
            mdoc-holder: note: \(issued) still holds the device private key in the clear; delete it once the stored credential works

            """)
        let stored = try Self.bytes(run.credentialStore + "/mdl.mdoc")
        #expect(!Self.contains(stored, d), "the stored credential holds the private key")
        let map = try CBOR.decode(stored).map(at: .root)
        #expect(try #require(map[text: "deviceKey"]).map(at: .root)[int: COSEKey.Label.d] == nil)
        #expect(map[text: "sealedDeviceKey"] != nil)

        let session = try await run.session(holder: ["--credential", "mdl", "--yes", "--no-qr"], reader: Self.request)
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        let document = try ReaderJSON(session.reader.standardOutput).document("org.iso.18013.5.1.mDL")
        #expect(document?["deviceAuthentication"] as? String == "DeviceMac", "\(session.reader.standardOutput)")
        #expect(!session.holder.standardError.contains("warning:"), "\(session.holder.standardError)")
        #expect(!session.holder.standardError.contains(Self.passphrase))

        let show = try await run.run("mdoc-holder", ["show", "mdl"])
        #expect(show.status == 0, "\(show.standardError)")
        #expect(show.standardOutput.contains("  docType:     org.iso.18013.5.1.mDL\n"), "\(show.standardOutput)")
        #expect(show.standardOutput.contains("  Device key:  P-256, sealed with a passphrase\n"), "\(show.standardOutput)")
        let list = try await run.run("mdoc-holder", ["list"])
        #expect(list.standardOutput.contains("  mdl  org.iso.18013.5.1.mDL  "), "\(list.standardOutput)")
    }

    @Test("a copy of a sealed credential presents nothing without its passphrase or with a wrong one: status 7 before the engagement")
    func copyWithoutPassphrase() async throws {
        let run = try IsolatedRun(["MDOC_KEY_PASSPHRASE": Self.passphrase])
        defer { run.remove() }
        let issued = try await Self.issue(run)
        #expect(try await run.run("mdoc-holder", ["import", issued, "--name", "mdl"]).status == 0)
        let elsewhere = try IsolatedRun()
        defer { elsewhere.remove() }
        let copy = elsewhere.home + "/mdl.mdoc"
        try FileManager.default.copyItem(atPath: run.credentialStore + "/mdl.mdoc", toPath: copy)

        let without = try await elsewhere.run("mdoc-holder", ["present", "--credential", copy, "--yes", "--no-qr", "--timeout", "1"])
        #expect(without.status == 7)
        #expect(without.standardError == """
            mdoc-holder: error: --credential \(copy): its device key is sealed with a passphrase and none was given (--passphrase-file FILE or MDOC_KEY_PASSPHRASE)

            """)
        #expect(!without.standardOutput.contains("mdoc:"), "no engagement may be shown")

        let wrong = try await elsewhere.run(
            "mdoc-holder", ["present", "--credential", copy, "--yes", "--no-qr", "--timeout", "1"], extra: ["MDOC_KEY_PASSPHRASE": "Tr0ub4dor&3"])
        #expect(wrong.status == 7)
        #expect(wrong.standardError == """
            mdoc-holder: error: --credential \(copy): its sealed device key cannot be opened (authenticationFailure): wrong passphrase or altered sealed key

            """)
        #expect(!wrong.standardOutput.contains("mdoc:"))
        #expect(!wrong.standardError.contains("Tr0ub4dor"))

        try Data("Tr0ub4dor&3\n".utf8).write(to: URL(fileURLWithPath: elsewhere.home + "/passphrase"))
        let fromFile = try await elsewhere.run(
            "mdoc-holder", ["show", copy, "--passphrase-file", elsewhere.home + "/passphrase"])
        #expect(fromFile.status == 7)
        #expect(fromFile.standardError.contains("wrong passphrase or altered sealed key"), "\(fromFile.standardError)")

        // The right passphrase from the file opens the same copy.
        try Data("\(Self.passphrase)\n".utf8).write(to: URL(fileURLWithPath: elsewhere.home + "/passphrase"))
        let right = try await elsewhere.run("mdoc-holder", ["show", copy, "--passphrase-file", elsewhere.home + "/passphrase"])
        #expect(right.status == 0, "\(right.standardError)")
    }

    @Test("`key seal` turns a stored credential in the clear into a sealed one in place, which still presents")
    func keySealMigration() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let issued = try await Self.issue(run)
        let d = try Self.privateKeyBytes(issued)
        #expect(try await run.run("mdoc-holder", ["import", issued, "--name", "mdl"]).status == 0)
        let path = run.credentialStore + "/mdl.mdoc"
        #expect(Self.contains(try Self.bytes(path), d))

        // In the clear: it works, with a warning naming the credential and the command.
        let before = try await run.run("mdoc-holder", ["show", "mdl"])
        #expect(before.status == 0, "\(before.standardError)")
        #expect(before.standardError == """
            mdoc-holder: warning: \(path) holds its device private key in the clear; seal it with a passphrase: mdoc-holder key seal mdl

            """)

        let noPassphrase = try await run.run("mdoc-holder", ["key", "seal", "mdl"])
        #expect(noPassphrase.status == 64)
        #expect(noPassphrase.standardError.contains("give the passphrase to seal the device key with: --passphrase-file FILE or MDOC_KEY_PASSPHRASE"),
                "\(noPassphrase.standardError)")

        let passphraseFile = run.home + "/passphrase"
        try Data("\(Self.passphrase)\n".utf8).write(to: URL(fileURLWithPath: passphraseFile))
        let sealed = try await run.run("mdoc-holder", ["key", "seal", "mdl", "--passphrase-file", passphraseFile])
        #expect(sealed.status == 0, "\(sealed.standardError)")
        #expect(sealed.standardOutput.contains("Sealed the device key of \(path) with the passphrase (scrypt(N=131072, r=8, p=1), AES-256-GCM)"),
                "\(sealed.standardOutput)")
        let bytes = try Self.bytes(path)
        #expect(!Self.contains(bytes, d), "the sealed credential still holds the private key")
        #expect(try CBOR.decode(bytes).map(at: .root)[text: "sealedDeviceKey"] != nil)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        // Replaced in one step: nothing is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.credentialStore) == ["mdl.mdoc"])

        let again = try await run.run("mdoc-holder", ["key", "seal", "mdl", "--passphrase-file", passphraseFile])
        #expect(again.status == 7)
        #expect(again.standardError.contains("its device key is sealed already"), "\(again.standardError)")

        let session = try await run.session(
            holder: ["--credential", "mdl", "--yes", "--no-qr", "--passphrase-file", passphraseFile], reader: Self.request)
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        #expect(!session.holder.standardError.contains("warning:"), "\(session.holder.standardError)")
    }

    @Test("test material in the clear gets no warning: the published demo credentials, and credentials marked testMaterial")
    func testMaterialIsNotWarnedAbout() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let demo = try await run.run("mdoc-holder", ["show", "Certs/demo/mdl.mdoc"])
        #expect(demo.status == 0, "\(demo.standardError)")
        #expect(!demo.standardError.contains("warning:"), "\(demo.standardError)")

        let expired = run.home + "/expired.mdoc"
        let issue = try await run.run("mdoc-issuer", [
            "issue", "--pki", "Certs/demo", "--doctype", "mdl", "--data", "Samples/mdl.json", "--out", expired,
            "--valid-from", "2021-01-01T00:00:00Z", "--valid-until", "2022-01-01T00:00:00Z",
        ])
        try #require(issue.status == 0, "\(issue.standardError)")
        let show = try await run.run("mdoc-holder", ["show", expired])
        #expect(show.status == 0, "\(show.standardError)")
        #expect(show.standardError.contains("is TEST MATERIAL"), "\(show.standardError)")
        #expect(!show.standardError.contains("warning:"), "\(show.standardError)")
    }
}
