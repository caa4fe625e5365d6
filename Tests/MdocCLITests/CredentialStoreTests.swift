import Foundation
import MdocStores
import Testing

/// A home for credentials and trust: the holder's credential store (`mdoc-holder import`,
/// `list`, `show`, `remove`, and `present` without `--credential`), and the default trust of
/// reader and holder (`MDOC_TRUST`, `MDOC_TRUST_READERS`, the trust store folders), each in a
/// home of its own (``IsolatedRun``).
@Suite struct CredentialStoreTests {
    static let v = "Vectors/iso18013-5-annex-d"
    static let annexD = ["--at", "2021-01-01T00:00:00Z", "--transcript", "\(v)/session_transcript_bytes.hex",
                         "--reader-key", "Certs/annex-d/eReaderKey.pem"]

    /// Puts `files` files (not credentials) into the store of `run`.
    static func fillStore(_ run: IsolatedRun, files: Int) throws {
        try FileManager.default.createDirectory(atPath: run.credentialStore, withIntermediateDirectories: true)
        for index in 0..<files {
            try Data("not a credential".utf8).write(to: URL(fileURLWithPath: run.credentialStore + "/c\(index).mdoc"))
        }
    }

    static func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    @Test func importListShowPresentRemove() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }

        let imported = try await run.run("mdoc-holder", ["import", "Certs/demo/mdl.mdoc", "Certs/demo/pid.mdoc"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("Stored org.iso.18013.5.1.mDL as mdl (\(run.credentialStore)/mdl.mdoc, mode 0600)"),
                "\(imported.standardOutput)")
        #expect(try Self.mode(run.credentialStore) == 0o700)
        #expect(try Self.mode(run.credentialStore + "/mdl.mdoc") == 0o600)
        #expect(try Self.mode(run.credentialStore + "/pid.mdoc") == 0o600)
        #expect(FileManager.default.contents(atPath: run.credentialStore + "/pid.mdoc")
            == FileManager.default.contents(atPath: ProgramRunner.repositoryRoot + "/Certs/demo/pid.mdoc"))
        // The demo credentials' keys are published: nothing to warn about.
        #expect(!imported.standardError.contains("note:"), "\(imported.standardError)")

        let again = try await run.run("mdoc-holder", ["import", "Certs/demo/mdl.mdoc"])
        #expect(again.status == 7)
        #expect(again.standardError.contains("a credential named mdl is already stored; give --force to replace it, or --name"))
        #expect(try await run.run("mdoc-holder", ["import", "Certs/demo/mdl.mdoc", "--name", "licence"]).status == 0)

        let list = try await run.run("mdoc-holder", ["list"])
        #expect(list.status == 0)
        let lines = list.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "3 credentials in \(run.credentialStore):", "\(list.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("  licence  org.iso.18013.5.1.mDL    ") && $0.contains(" elements, valid until 2036-11-19T02:15:34Z") },
                "\(list.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("  pid      eu.europa.ec.eudi.pid.1  ") }, "\(list.standardOutput)")

        let show = try await run.run("mdoc-holder", ["show", "pid"])
        #expect(show.status == 0, "\(show.standardError)")
        #expect(show.standardOutput.hasPrefix("pid (\(run.credentialStore)/pid.mdoc)\n  docType:     eu.europa.ec.eudi.pid.1\n"),
                "\(show.standardOutput)")
        #expect(show.standardOutput.contains("  Issuer:      C=US, CN=swift-mdoc Demo Document Signer\n"))
        #expect(show.standardOutput.contains("  Elements in eu.europa.ec.eudi.pid.1:\n"))

        // present without --credential: every stored credential; --credential NAME: one.
        let session = try await run.session(
            holder: ["--yes", "--no-qr"], reader: ["--doctype", "pid", "--elements", "family_name", "--trust", "Certs/demo/iaca.pem"])
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        let named = try await run.session(
            holder: ["--credential", "licence", "--yes", "--no-qr"], reader: ["--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem"])
        #expect(named.reader.status == 0, "\(named.reader.standardError)")

        let removed = try await run.run("mdoc-holder", ["remove", "licence", "pid"])
        #expect(removed.status == 0)
        #expect(!FileManager.default.fileExists(atPath: run.credentialStore + "/pid.mdoc"))
        let after = try await run.run("mdoc-holder", ["list", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(after.standardOutput.utf8)) as? [String: Any])
        #expect((json["credentials"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["mdl"], "\(after.standardOutput)")
    }

    @Test func importingACredentialOthersCanReadWarnsAboutTheOriginal() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let issued = run.home + "/mine.mdoc"
        let issue = try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", "mdl", "--data", "Samples/mdl.json",
                                                      "--out", issued])
        #expect(issue.status == 0, "\(issue.standardError)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: issued)

        let imported = try await run.run("mdoc-holder", ["import", issued])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.contains(
            "mdoc-holder: note: \(issued) may be read by others and holds the device private key; delete it, or run: chmod 600 \(issued)"),
                "\(imported.standardError)")
        #expect(try Self.mode(run.credentialStore + "/mine.mdoc") == 0o600)
    }

    @Test func aStoreCredentialOthersCanReadIsRefused() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let issue = try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", "mdl", "--data", "Samples/mdl.json",
                                                      "--out", run.home + "/mine.mdoc"])
        #expect(issue.status == 0)
        #expect(try await run.run("mdoc-holder", ["import", run.home + "/mine.mdoc"]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: run.credentialStore + "/mine.mdoc")

        let present = try await run.run("mdoc-holder", ["present", "--yes", "--no-qr", "--timeout", "1"])
        #expect(present.status == 7)
        #expect(present.standardError.contains(
            "mdoc-holder: error: the stored credential mine: \(run.credentialStore)/mine.mdoc: holds a private key but its mode 0640 lets group access it"),
                "\(present.standardError)")
        #expect(!present.standardError.contains("--credential"), "\(present.standardError)")
    }

    @Test func aStoreCredentialOthersCanReadIsLeftOutAndTheOthersPresented() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let issue = try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", "mdl", "--data", "Samples/mdl.json",
                                                      "--out", run.home + "/mine.mdoc"])
        #expect(issue.status == 0)
        #expect(try await run.run("mdoc-holder", ["import", run.home + "/mine.mdoc"]).status == 0)
        #expect(try await run.run("mdoc-holder", ["import", "Certs/demo/mdl.mdoc", "--name", "demo"]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: run.credentialStore + "/mine.mdoc")

        let session = try await run.session(
            holder: ["--yes", "--no-qr"], reader: ["--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem"])

        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        #expect(session.holder.standardError.contains(
            "mdoc-holder: warning: the stored credential mine: \(run.credentialStore)/mine.mdoc: holds a private key but its mode 0640 lets group access it; run: chmod 600 \(run.credentialStore)/mine.mdoc; it is left out"),
                "\(session.holder.standardError)")
    }

    @Test(arguments: [(256, Int32(0)), (257, 7)])
    func theStoreListsAtMostItsLimit(files: Int, status: Int32) async throws {
        #expect(CredentialStore.maximumCredentials == 256)
        let run = try IsolatedRun()
        defer { run.remove() }
        try Self.fillStore(run, files: files)
        let list = try await run.run("mdoc-holder", ["list"])
        #expect(list.status == status, "\(list.standardError)")
        if status == 0 {
            #expect(list.standardOutput.contains("256 credentials in"))
            #expect(list.standardOutput.contains("\n  c0    unusable: is not CBOR (1 byte follows the data item"),
                    "\(list.standardOutput.prefix(300))")
        } else {
            #expect(list.standardError.contains("more than 256 files"))
        }
    }

    // MARK: Default trust

    @Test func verifyTrustsMDOCTrustWithoutTrustOption() async throws {
        let run = try IsolatedRun(["MDOC_TRUST": "Certs/demo/iaca.pem:\(Self.v)/iaca_cert.hex"])
        defer { run.remove() }
        let result = try await run.run("mdoc-reader", ["verify", "\(Self.v)/device_response.hex"] + Self.annexD)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "mdoc-reader: trusting the IACA roots of MDOC_TRUST\n")
    }

    @Test func verifyTrustsTheTrustStoreFolder() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        try FileManager.default.createDirectory(atPath: run.issuerTrustStore, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ProgramRunner.repositoryRoot + "/\(Self.v)/iaca_cert.hex",
                                         toPath: run.issuerTrustStore + "/annex-d.hex")
        let result = try await run.run("mdoc-reader", ["verify", "\(Self.v)/device_response.hex"] + Self.annexD)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("mdoc-reader: trusting the IACA roots of the trust store \(run.issuerTrustStore)"))

        // --trust replaces the default.
        let given = try await run.run("mdoc-reader", ["verify", "\(Self.v)/device_response.hex", "--trust", "Certs/demo/iaca.pem"] + Self.annexD)
        #expect(given.status == 3, "\(given.standardError)")
    }

    @Test func withoutAnyTrustTheReaderSaysWhereTrustComesFrom() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let result = try await run.run("mdoc-reader", ["verify", "\(Self.v)/device_response.hex"])
        #expect(result.status == 64)
        #expect(result.standardError == """
            mdoc-reader: error: give --trust with the IACA root certificates to trust, set MDOC_TRUST, or put them in \(run.issuerTrustStore)
            mdoc-reader: see 'mdoc-reader verify --help'

            """)
    }

    @Test(arguments: ["variable", "store"])
    func theHolderTrustsReadersWithoutTrustReaders(source: String) async throws {
        var extra: [String: String] = [:]
        if source == "variable" { extra["MDOC_TRUST_READERS"] = "Certs/demo/reader-root.pem" }
        let run = try IsolatedRun(extra)
        defer { run.remove() }
        if source == "store" {
            try FileManager.default.createDirectory(atPath: run.readerTrustStore, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: ProgramRunner.repositoryRoot + "/Certs/demo/reader-root.pem",
                                             toPath: run.readerTrustStore + "/demo-root.pem")
        }
        let session = try await run.session(
            holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr"],
            reader: ["--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--reader-cert", "Certs/demo/reader.pem",
                     "--reader-key", "Certs/demo/reader-key.pem"])
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.standardOutput.contains("Reader: trusted: C=US, CN=swift-mdoc Demo Reader"), "\(session.holder.standardOutput)")
        #expect(session.holder.standardError.contains(
            source == "variable" ? "mdoc-holder: trusting the reader roots of MDOC_TRUST_READERS"
                : "mdoc-holder: trusting the reader roots of the trust store \(run.readerTrustStore)"), "\(session.holder.standardError)")
    }

    @Test func aPKIFolderAsTrustSkipsItsKeys() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let session = try await run.session(
            holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr"],
            reader: ["--preset", "age-over-18", "--trust", "Certs/demo"])
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.reader.standardError.contains(
            "mdoc-reader: note: --trust Certs/demo: skipped private keys ds-key.pem, iaca-key.pem, reader-key.pem, reader-root-key.pem"),
                "\(session.reader.standardError)")
    }
}
