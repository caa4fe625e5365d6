import Foundation
import MdocCrypto
import MdocSession
import MdocStores
import MdocTestSupport
import Testing

/// The committed demo material as a fresh clone has it (every file 0644, since git keeps no
/// other mode), and what the holder says about files that are not usable credentials.
@Suite struct DemoMaterialTests {
    /// A copy of `Certs/demo` in a new folder, every file mode 0644 as git checks it out; the
    /// caller removes the folder.
    static func freshCheckout() throws -> String {
        let folder = try LiveSession.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/Certs", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Vectors.repositoryRoot + "/Certs/demo", toPath: folder + "/Certs/demo")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder + "/Certs/demo") {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/Certs/demo/" + file)
        }
        return folder
    }

    /// The commands of the README's "A presentation in two terminals" block: backslash
    /// continuations joined, comments and blank lines dropped, split into words as the shell
    /// does for these (single quotes, no expansions).
    static func readmeTwoTerminalCommands() throws -> [[String]] {
        let readme = try String(contentsOfFile: Vectors.repositoryRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## A presentation in two terminals").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        let joined = block.replacingOccurrences(of: "\\\n", with: " ")
        return joined.split(separator: "\n").map { line in
            String(line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        }.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(Self.words)
    }

    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in line {
            if character == "'" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }

    @Test func theReadmeTwoTerminalPresentationWorksOnAFreshCheckout() async throws {
        let commands = try Self.readmeTwoTerminalCommands()
        let holderCommand = try #require(commands.first { $0.first == "mdoc-holder" }, "\(commands)")
        let readerCommand = try #require(commands.first { $0.first == "mdoc-reader" }, "\(commands)")
        let folder = try Self.freshCheckout()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try IsolatedRun()
        defer { run.remove() }

        // Terminal 1, answering the consent prompt with "a" (all).
        let holder = try run.start("mdoc-holder", Array(holderCommand.dropFirst()), directory: folder)
        holder.send("a\n")
        holder.closeInput()
        let uri = try #require(await holder.line(startingWith: "mdoc:", number: 1, timeout: LiveSession.waitTimeout),
                               "\(holder.standardError)")
        // Terminal 2, with the URI pasted in place of the README's.
        let arguments = readerCommand.dropFirst().map { $0.hasPrefix("mdoc:") ? uri : $0 }
        let reader = try await run.run("mdoc-reader", Array(arguments), directory: folder)
        let holderResult = await holder.wait(timeout: LiveSession.waitTimeout)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holderResult.status == 0, "\(holderResult.standardError)")
        #expect(reader.standardOutput.contains("Verified at ") && reader.standardOutput.contains(": VERIFIED\n"))
        for credential in ["Certs/demo/mdl.mdoc", "Certs/demo/pid.mdoc"] {
            #expect(holderResult.standardError.contains(
                "mdoc-holder: note: \(credential) may be read by others; it is used because its device key is published test material"),
                    "\(holderResult.standardError)")
        }
        #expect(holderResult.standardOutput.contains("Reader: trusted: C=US, CN=swift-mdoc Demo Reader"))
        let portrait = try #require(FileManager.default.contents(atPath: folder + "/portrait.jpg"))
        #expect(portrait == FileManager.default.contents(atPath: Vectors.repositoryRoot + "/Samples/portrait.jpg"))
        #expect(try FileManager.default.attributesOfItem(atPath: folder + "/portrait.jpg")[.posixPermissions] as? Int == 0o600)
    }

    @Test func thePublishedKeysAreTheCommittedDemoCredentials() throws {
        var fingerprints: Set<String> = []
        for path in LiveSession.demoCredentials {
            let credential = try CredentialFiles.load(Vectors.repositoryRoot + "/" + path).credential
            fingerprints.insert(PublishedDeviceKeys.keyHash(of: credential.deviceKey.publicKey))
        }
        #expect(fingerprints == PublishedDeviceKeys.fingerprints)
        #expect(!PublishedDeviceKeys.contains(try PrivateKey(generating: .p256).publicKey))
    }

    /// A credential issued now (its device key a secret) in a new folder, with `mode`.
    static func issuedCredential(mode: Int, in run: IsolatedRun) async throws -> String {
        let path = run.home + "/mdl.mdoc"
        let issue = try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", "mdl", "--data", "Samples/mdl.json",
                                                      "--out", path])
        try #require(issue.status == 0, "\(issue.standardError)")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test(arguments: [(0o644, "group and others"), (0o640, "group"), (0o604, "others"), (0o660, "group")])
    func aCredentialWithASecretKeyThatOthersCanAccessIsRefused(mode: Int, who: String) async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let path = try await Self.issuedCredential(mode: mode, in: run)
        let result = try await run.run("mdoc-holder", ["present", "--credential", path, "--yes", "--no-qr", "--timeout", "1"])

        #expect(result.status == 7, "\(result.standardError)")
        let octal = "0" + String(mode, radix: 8)
        #expect(result.standardError == """
            mdoc-holder: error: --credential \(path): holds a private key but its mode \(octal) lets \(who) access it; run: chmod 600 \(path)

            """)
        #expect(!result.standardOutput.contains("mdoc:"), "no engagement may be shown")
    }

    @Test(arguments: [0o600, 0o400])
    func aPrivateCredentialIsAccepted(mode: Int) async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let path = try await Self.issuedCredential(mode: mode, in: run)
        let result = try await run.run("mdoc-holder", ["present", "--credential", path, "--yes", "--no-qr", "--timeout", "1"])
        #expect(result.standardOutput.hasPrefix("mdoc:"), "\(result.standardOutput)\(result.standardError)")
        #expect(result.status == 8, "\(result.standardError)")
        #expect(!result.standardError.contains("note:"))
    }

    /// Files that are not credentials, and the one line the holder says about each.
    static let notCredentials: [(path: String, says: String)] = [
        ("Samples/mdl.json",
         "--credential Samples/mdl.json: is JSON issuer data (the --data of `mdoc-issuer issue`), not a credential; make one from it with `mdoc-issuer issue --pki DIR --doctype T --data Samples/mdl.json --out FILE.mdoc`"),
        ("Certs/demo/reader.pem",
         "--credential Certs/demo/reader.pem: is a PEM certificate, not a credential; expected a credential, the CBOR file `mdoc-issuer issue` writes"),
        ("Certs/demo/reader-key.pem",
         "--credential Certs/demo/reader-key.pem: is a PEM private key, not a credential; expected a credential, the CBOR file `mdoc-issuer issue` writes"),
        ("Vectors/iso18013-5-annex-d/device_response.hex",
         "--credential Vectors/iso18013-5-annex-d/device_response.hex: is a DeviceResponse (18013-5 8.3.2.1.2.2), not a credential; expected a credential, the CBOR file `mdoc-issuer issue` writes"),
        ("Certs/demo",
         "--credential Certs/demo: is a folder, not a credential file"),
        ("Certs/demo/missing.mdoc",
         "--credential Certs/demo/missing.mdoc: no such file"),
        ("Certs/demo/mdl.mdoc/inside",
         "--credential Certs/demo/mdl.mdoc/inside: cannot open it: Not a directory"),
    ]

    @Test(arguments: notCredentials)
    func aFileThatIsNoCredentialIsCalledWhatItIs(path: String, says: String) async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let result = try await run.run("mdoc-holder", ["present", "--credential", path, "--yes", "--no-qr", "--timeout", "1"])
        #expect(result.status == 7)
        #expect(result.standardError == "mdoc-holder: error: \(says)\n")
        #expect(!result.standardError.contains("holds a private key"))
    }
}
