import Foundation
import MdocCBOR
import MdocFiles
import MdocModel
import MdocTestSupport
import Testing

/// The exit codes as documented: the README's table is `ExitStatus`, every code a command's
/// `--help` lists has a case here, and every case runs the program and gets that code.
@Suite struct ExitCodeTests {
    /// One documented situation of one command and the code it must end with.
    struct Case: Sendable, CustomTestStringConvertible {
        /// The program and subcommand, as `--help` is asked of them: `mdoc-reader verify`.
        let command: String
        let status: Int32
        let situation: String
        let run: @Sendable (IsolatedRun) async throws -> ProgramRunner.Result

        var testDescription: String { "\(command) \(status): \(situation)" }
    }

    static let v = "Vectors/iso18013-5-annex-d"
    static let annexD = ["--trust", "\(v)/iaca_cert.hex", "--at", "2021-01-01T00:00:00Z"]
    static let binding = ["--transcript", "\(v)/session_transcript_bytes.hex", "--reader-key", "Certs/annex-d/eReaderKey.pem"]
    static let demoTrust = ["--trust", "Certs/demo/iaca.pem"]

    /// The Annex D engagement, whose holder is nowhere.
    static func annexDURI() throws -> String {
        MdocURI(deviceEngagementBytes: try EmbeddedCBOR(bytes: Vectors.annexD("device_engagement"))).description
    }

    /// A DeviceResponse with status 0 and no document.
    static func emptyResponse() throws -> String {
        // {"version": "1.0", "status": 0}
        try ProgramRunner.temporaryFile(Array("a26776657273696f6e63312e306673746174757300".utf8), suffix: ".hex")
    }

    /// A holder waiting for a reader, sent `signal` once its engagement is shown.
    static func interrupted(holderWith signal: Int32, run: IsolatedRun) async throws -> ProgramRunner.Result {
        let holder = try run.start("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--transport", "sim",
            "--timeout", "\(LiveSession.programTimeout)",
        ])
        holder.closeInput()
        _ = try #require(await holder.firstLine(startingWith: "mdoc:", timeout: LiveSession.waitTimeout), "\(holder.standardError)")
        holder.signal(signal)
        return await holder.wait(timeout: LiveSession.waitTimeout)
    }

    /// `mdoc-reader request` ended by `signal` while it waits for the holder's consent.
    static func interrupted(readerWith signal: Int32, run: IsolatedRun) async throws -> ProgramRunner.Result {
        let (holder, reader) = try await HolderDecisionCommandTests.holderAsking(run, reader: ["--timeout", "\(LiveSession.programTimeout)"])
        defer { holder.stop() }
        _ = await reader.waitForStandardError(containing: "waiting for the holder's consent", timeout: LiveSession.waitTimeout)
        reader.signal(signal)
        return await reader.wait(timeout: LiveSession.waitTimeout)
    }

    static let cases: [Case] = [
        Case(command: "mdoc inspect", status: 0, situation: "decoded") { run in
            try await run.run("mdoc", ["inspect", "\(v)/device_response.hex"])
        },
        Case(command: "mdoc inspect", status: 2, situation: "not CBOR") { run in
            try await run.run("mdoc", ["inspect", "Certs/demo/README.md"])
        },
        Case(command: "mdoc-reader verify", status: 0, situation: "verified") { run in
            try await run.run("mdoc-reader", ["verify", "\(v)/device_response.hex"] + annexD + binding)
        },
        Case(command: "mdoc-reader verify", status: 2, situation: "malformed input") { run in
            try await run.run("mdoc-reader", ["verify", "\(v)/device_request.hex"] + annexD)
        },
        Case(command: "mdoc-reader verify", status: 3, situation: "issuer not trusted") { run in
            try await run.run("mdoc-reader", ["verify", "\(v)/device_response.hex", "--trust", "Certs/demo/iaca.pem",
                                              "--at", "2021-01-01T00:00:00Z"] + binding)
        },
        Case(command: "mdoc-reader verify", status: 4, situation: "wrong reader key") { run in
            try await run.run("mdoc-reader", ["verify", "\(v)/device_response.hex"] + annexD
                + ["--transcript", "\(v)/session_transcript_bytes.hex", "--reader-key", "Certs/annex-d/eDeviceKey.pem"])
        },
        Case(command: "mdoc-reader verify", status: 5, situation: "no transcript") { run in
            try await run.run("mdoc-reader", ["verify", "\(v)/device_response.hex"] + annexD)
        },
        Case(command: "mdoc-reader verify", status: 6, situation: "no documents") { run in
            try await run.run("mdoc-reader", ["verify", try emptyResponse()] + annexD)
        },
        Case(command: "mdoc-reader verify", status: 7, situation: "a private key as --trust") { run in
            try await run.run("mdoc-reader", ["verify", "\(v)/device_response.hex", "--trust", "Certs/demo/iaca-key.pem"])
        },
        Case(command: "mdoc-reader verify", status: 8, situation: "a captured session without a response") { run in
            // The capture of a session that never found its mdoc: no message, the live run's 8.
            let capture = run.home + "/capture"
            let live = try await run.run(
                "mdoc-reader", ["request", try annexDURI(), "--timeout", "1", "--transport", "sim", "--save-session", capture] + demoTrust)
            #expect(live.status == 8, "\(live.standardError)")
            return try await run.run("mdoc-reader", ["verify", "--session", capture] + demoTrust)
        },
        Case(command: "mdoc-reader verify", status: 64, situation: "no --trust and no default") { run in
            try await run.run("mdoc-reader", ["verify", "\(v)/device_response.hex"])
        },
        Case(command: "mdoc-reader verify", status: 11, situation: "an online response for another origin") { run in
            let (state, request, response) = (run.home + "/state.json", run.home + "/request.json", run.home + "/response.json")
            _ = try await run.run("mdoc-reader", ["online-request", "--origin", "https://verifier.example", "--state", state, "--out", request])
            _ = try await run.run("mdoc-holder", [
                "respond", "--request", request, "--origin", "https://phish.example", "--credential", "Certs/demo/mdl.mdoc", "--yes",
                "--out", response,
            ])
            return try await run.run("mdoc-reader", ["verify", "--online-state", state, response] + demoTrust)
        },
        Case(command: "mdoc-reader online-request", status: 0, situation: "written") { run in
            try await run.run("mdoc-reader", [
                "online-request", "--origin", "https://verifier.example", "--state", run.home + "/state.json", "--out", run.home + "/request.json",
            ])
        },
        Case(command: "mdoc-reader online-request", status: 7, situation: "a --reader-key that is not the --reader-cert's") { run in
            try await run.run("mdoc-reader", [
                "online-request", "--origin", "https://verifier.example", "--state", run.home + "/state.json", "--out", run.home + "/request.json",
                "--reader-cert", "Certs/demo/reader.pem", "--reader-key", "Certs/demo/iaca-key.pem",
            ])
        },
        Case(command: "mdoc-reader online-request", status: 64, situation: "an origin with a path") { run in
            try await run.run("mdoc-reader", [
                "online-request", "--origin", "https://verifier.example/", "--state", run.home + "/state.json", "--out", run.home + "/request.json",
            ])
        },
        Case(command: "mdoc-holder respond", status: 0, situation: "answered") { run in
            _ = try await run.run("mdoc-reader", [
                "online-request", "--origin", "https://verifier.example", "--state", run.home + "/state.json", "--out", run.home + "/request.json",
            ])
            return try await run.run("mdoc-holder", [
                "respond", "--request", run.home + "/request.json", "--origin", "https://verifier.example", "--credential",
                "Certs/demo/mdl.mdoc", "--yes", "--out", run.home + "/response.json",
            ])
        },
        Case(command: "mdoc-holder respond", status: 2, situation: "a DeviceResponse as the request") { run in
            try await run.run("mdoc-holder", [
                "respond", "--request", "\(v)/device_response.hex", "--origin", "https://verifier.example", "--credential",
                "Certs/demo/mdl.mdoc", "--yes", "--out", run.home + "/response.json",
            ])
        },
        Case(command: "mdoc-holder respond", status: 7, situation: "a --request file that does not exist") { run in
            try await run.run("mdoc-holder", [
                "respond", "--request", run.home + "/none.json", "--origin", "https://verifier.example", "--credential",
                "Certs/demo/mdl.mdoc", "--yes", "--out", run.home + "/response.json",
            ])
        },
        Case(command: "mdoc-holder respond", status: 64, situation: "an origin without a scheme") { run in
            try await run.run("mdoc-holder", [
                "respond", "--request", run.home + "/request.json", "--origin", "verifier.example", "--credential",
                "Certs/demo/mdl.mdoc", "--yes", "--out", run.home + "/response.json",
            ])
        },
        Case(command: "mdoc-reader request", status: 130, situation: "Ctrl-C while waiting for the holder's consent") { run in
            try await interrupted(readerWith: SIGINT, run: run)
        },
        Case(command: "mdoc-reader request", status: 143, situation: "SIGTERM while waiting for the holder's consent") { run in
            try await interrupted(readerWith: SIGTERM, run: run)
        },
        Case(command: "mdoc-reader request", status: 0, situation: "verified") { run in
            try await run.session(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr"],
                                  reader: ["--preset", "age-over-18"] + demoTrust).reader
        },
        Case(command: "mdoc-reader request", status: 2, situation: "malformed engagement") { run in
            try await run.run("mdoc-reader", ["request", "mdoc:AAAA"] + demoTrust)
        },
        Case(command: "mdoc-reader request", status: 3, situation: "issuer not trusted") { run in
            try await run.session(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr"],
                                  reader: ["--preset", "age-over-18", "--trust", "\(v)/iaca_cert.hex"]).reader
        },
        Case(command: "mdoc-reader request", status: 4, situation: "a cloned credential") { _ in
            try await ClonedCredentialTests.request(from: try ClonedCredentialTests.clone(), json: false).0
        },
        Case(command: "mdoc-reader request", status: 6, situation: "the holder refused") { run in
            try await run.session(holder: ["--credential", "Certs/demo/mdl.mdoc", "--no-qr"],
                                  reader: ["--preset", "age-over-18"] + demoTrust, holderInput: "n\n").reader
        },
        Case(command: "mdoc-reader request", status: 7, situation: "--reader-key is not the key of --reader-cert") { run in
            try await run.run("mdoc-reader", ["request", try annexDURI(), "--reader-cert", "Certs/demo/reader.pem",
                                              "--reader-key", "Certs/demo/ds-key.pem"] + demoTrust)
        },
        Case(command: "mdoc-reader request", status: 7, situation: "missing --reader-key file") { run in
            try await run.run("mdoc-reader", ["request", try annexDURI(), "--reader-cert", "Certs/demo/reader.pem",
                                              "--reader-key", "Certs/demo/missing-key.pem"] + demoTrust)
        },
        Case(command: "mdoc-reader request", status: 7, situation: "--portrait-out in a missing folder") { run in
            try await run.run("mdoc-reader", ["request", try annexDURI(), "--portrait-out", "/nonexistent/p.jpg"] + demoTrust)
        },
        Case(command: "mdoc-reader request", status: 8, situation: "no mdoc within --timeout") { run in
            try await run.run("mdoc-reader", ["request", try annexDURI(), "--timeout", "1", "--transport", "sim"] + demoTrust)
        },
        Case(command: "mdoc-reader request", status: 64, situation: "an unknown --doctype") { run in
            try await run.run("mdoc-reader", ["request", try annexDURI(), "--doctype", "pdi"] + demoTrust)
        },
        Case(command: "mdoc-reader test-holder", status: 0, situation: "--list") { run in
            try await run.run("mdoc-reader", ["test-holder", "--list"])
        },
        Case(command: "mdoc-reader test-holder", status: 7, situation: "a --report-json file in a folder that does not exist") { run in
            try await run.run("mdoc-reader", ["test-holder", "--report-json", run.home + "/missing/report.json", "--transport", "sim"] + demoTrust)
        },
        Case(command: "mdoc-reader test-holder", status: 8, situation: "no engagement came: inconclusive") { run in
            try await run.run("mdoc-reader", ["test-holder", "--engagements", "/dev/null", "--transport", "sim"] + demoTrust)
        },
        Case(command: "mdoc-reader test-holder", status: 10, situation: "a case failed") { run in
            try await TestHolderCommandTests.run(
                run, holder: ["--credential", "Certs/demo/pid.mdoc", "--yes"],
                reader: ["--case", "mDL_Request_WellFormed"] + demoTrust, cases: 1)
        },
        Case(command: "mdoc-reader test-holder", status: 64, situation: "an unknown --case") { run in
            try await run.run("mdoc-reader", ["test-holder", "--case", "mDL_NoSuchCase"])
        },
        Case(command: "mdoc-holder test-reader", status: 0, situation: "--list") { run in
            try await run.run("mdoc-holder", ["test-reader", "--list"])
        },
        Case(command: "mdoc-holder test-reader", status: 7, situation: "a --report-json file in a folder that does not exist") { run in
            try await run.run("mdoc-holder", [
                "test-reader", "--report-json", run.home + "/missing/report.json", "--transport", "sim", "--credential", "Certs/demo/mdl.mdoc",
            ])
        },
        Case(command: "mdoc-holder test-reader", status: 8, situation: "no reader came: inconclusive") { run in
            try await run.run("mdoc-holder", [
                "test-reader", "--timeout", "1", "--no-qr", "--transport", "sim", "--credential", "Certs/demo/mdl.mdoc",
                "--case", "mDLR_Response_WellFormed",
            ])
        },
        Case(command: "mdoc-holder test-reader", status: 10, situation: "a case failed") { run in
            // The tester answers no to the case's question.
            try await TestReaderCommandTests.run(
                run, holder: ["--credential", "Certs/demo/mdl.mdoc", "--case", "mDLR_Response_DigestMismatch"],
                reader: TestReaderCommandTests.readerRequest, cases: 1, answer: { _, _ in "no" }).holder
        },
        Case(command: "mdoc-holder test-reader", status: 64, situation: "an unknown --case") { run in
            try await run.run("mdoc-holder", ["test-reader", "--case", "mDLR_NoSuchCase"])
        },
        Case(command: "mdoc-reader scan", status: 0, situation: "scanned, nothing found") { run in
            try await run.run("mdoc-reader", ["scan", "--transport", "sim", "--timeout", "1"])
        },
        Case(command: "mdoc-reader scan", status: 8, situation: "the transport cannot be opened") { run in
            try await run.run("mdoc-reader", ["scan", "--transport", "hci:tcp:127.0.0.1:1", "--timeout", "1"])
        },
        Case(command: "mdoc-reader scan", status: 64, situation: "--timeout 0") { run in
            try await run.run("mdoc-reader", ["scan", "--timeout", "0"])
        },
        Case(command: "mdoc-holder present", status: 0, situation: "the reader ended the session") { run in
            try await run.session(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr"],
                                  reader: ["--preset", "age-over-18"] + demoTrust).holder
        },
        Case(command: "mdoc-holder present", status: 7, situation: "issuer data given as --credential") { run in
            try await run.run("mdoc-holder", ["present", "--credential", "Samples/mdl.json", "--yes"])
        },
        Case(command: "mdoc-holder present", status: 8, situation: "no reader within --timeout") { run in
            try await run.run("mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr",
                                              "--transport", "sim", "--timeout", "1"])
        },
        Case(command: "mdoc-holder present", status: 130, situation: "Ctrl-C while waiting for a reader") { run in
            try await interrupted(holderWith: SIGINT, run: run)
        },
        Case(command: "mdoc-holder present", status: 143, situation: "SIGTERM while waiting for a reader") { run in
            try await interrupted(holderWith: SIGTERM, run: run)
        },
        Case(command: "mdoc-holder present", status: 64, situation: "no credential given or stored") { run in
            try await run.run("mdoc-holder", ["present", "--yes"])
        },
        Case(command: "mdoc-holder list", status: 0, situation: "an empty store") { run in
            try await run.run("mdoc-holder", ["list"])
        },
        Case(command: "mdoc-holder list", status: 7, situation: "a store of more than 256 files") { run in
            try CredentialStoreTests.fillStore(run, files: 257)
            return try await run.run("mdoc-holder", ["list"])
        },
        Case(command: "mdoc-holder list", status: 64, situation: "an unknown option") { run in
            try await run.run("mdoc-holder", ["list", "--all"])
        },
        Case(command: "mdoc-holder show", status: 0, situation: "a credential file") { run in
            try await run.run("mdoc-holder", ["show", "Certs/demo/pid.mdoc"])
        },
        Case(command: "mdoc-holder show", status: 7, situation: "no such credential") { run in
            try await run.run("mdoc-holder", ["show", "licence"])
        },
        Case(command: "mdoc-holder show", status: 64, situation: "no credential named") { run in
            try await run.run("mdoc-holder", ["show"])
        },
        Case(command: "mdoc-holder import", status: 0, situation: "imported") { run in
            try await run.run("mdoc-holder", ["import", "Certs/demo/mdl.mdoc"])
        },
        Case(command: "mdoc-holder import", status: 7, situation: "not a credential") { run in
            try await run.run("mdoc-holder", ["import", "Certs/demo/reader.pem"])
        },
        Case(command: "mdoc-holder import", status: 64, situation: "no file") { run in
            try await run.run("mdoc-holder", ["import"])
        },
        Case(command: "mdoc-holder remove", status: 0, situation: "removed") { run in
            _ = try await run.run("mdoc-holder", ["import", "Certs/demo/mdl.mdoc"])
            return try await run.run("mdoc-holder", ["remove", "mdl"])
        },
        Case(command: "mdoc-holder remove", status: 7, situation: "no such credential") { run in
            try await run.run("mdoc-holder", ["remove", "mdl"])
        },
        Case(command: "mdoc-holder remove", status: 64, situation: "no name") { run in
            try await run.run("mdoc-holder", ["remove"])
        },
        Case(command: "mdoc-holder key seal", status: 0, situation: "sealed") { run in
            _ = try await run.run("mdoc-holder", ["import", "Certs/demo/pid.mdoc"])
            return try await run.run("mdoc-holder", ["key", "seal", "pid"], extra: ["MDOC_KEY_PASSPHRASE": "passphrase"])
        },
        Case(command: "mdoc-holder key seal", status: 7, situation: "no such credential") { run in
            try await run.run("mdoc-holder", ["key", "seal", "pid"], extra: ["MDOC_KEY_PASSPHRASE": "passphrase"])
        },
        Case(command: "mdoc-holder key seal", status: 64, situation: "no passphrase") { run in
            _ = try await run.run("mdoc-holder", ["import", "Certs/demo/pid.mdoc"])
            return try await run.run("mdoc-holder", ["key", "seal", "pid"])
        },
        Case(command: "mdoc-holder key generate", status: 0, situation: "made in a TPM") { run in
            let tpm = try SoftwareTPM()
            defer { tpm.stop() }
            return try await run.run("mdoc-holder", ["key", "generate", "--in", "tpm2:" + tpm.tcti, "--key-file", run.home + "/device.tss2.pem"])
        },
        Case(command: "mdoc-holder key generate", status: 7, situation: "the PKCS#11 module does not exist") { run in
            try await run.run("mdoc-holder", ["key", "generate", "--in", "pkcs11:token=wallet;object=device", "--module", "/nonexistent/pkcs11.so"])
        },
        Case(command: "mdoc-holder key generate", status: 64, situation: "--in neither pkcs11: nor tpm2") { run in
            try await run.run("mdoc-holder", ["key", "generate", "--in", "device.pem"])
        },
        Case(command: "mdoc-issuer pki", status: 0, situation: "written") { run in
            try await run.run("mdoc-issuer", ["pki", run.home + "/pki"])
        },
        Case(command: "mdoc-issuer pki", status: 7, situation: "the files exist, no --force") { run in
            _ = try await run.run("mdoc-issuer", ["pki", run.home + "/pki"])
            return try await run.run("mdoc-issuer", ["pki", run.home + "/pki"])
        },
        Case(command: "mdoc-issuer pki", status: 64, situation: "--valid-days 0") { run in
            try await run.run("mdoc-issuer", ["pki", run.home + "/pki", "--valid-days", "0"])
        },
        Case(command: "mdoc-issuer issue", status: 0, situation: "issued") { run in
            try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", "pid", "--data", "Samples/pid.json",
                                              "--out", run.home + "/pid.mdoc"])
        },
        Case(command: "mdoc-issuer issue", status: 2, situation: "the data file is not JSON") { run in
            try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", "pid", "--data", "Certs/demo/README.md",
                                              "--out", run.home + "/pid.mdoc"])
        },
        Case(command: "mdoc-issuer issue", status: 7, situation: "no such PKI") { run in
            try await run.run("mdoc-issuer", ["issue", "--pki", run.home + "/none", "--doctype", "pid", "--data", "Samples/pid.json",
                                              "--out", run.home + "/pid.mdoc"])
        },
        Case(command: "mdoc-issuer issue", status: 64, situation: "a --doctype that is neither short name nor docType") { run in
            try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", "pdi", "--data", "Samples/pid.json",
                                              "--out", run.home + "/pid.mdoc"])
        },
        Case(command: "mdoc-issuer vical", status: 0, situation: "written") { run in
            _ = try await run.run("mdoc-issuer", ["pki", run.home + "/pki", "--vical"])
            return try await run.run("mdoc-issuer", ["vical", "--pki", run.home + "/pki", "--provider", "Test",
                                                     "--entry", "Certs/demo/iaca.pem", "--out", run.home + "/test.vical"])
        },
        Case(command: "mdoc-issuer vical", status: 7, situation: "a PKI without a VICAL signer") { run in
            try await run.run("mdoc-issuer", ["vical", "--pki", "Certs/demo", "--provider", "Test",
                                              "--entry", "Certs/demo/iaca.pem", "--out", run.home + "/test.vical"])
        },
        Case(command: "mdoc-issuer vical", status: 64, situation: "an --entry naming no doc type") { run in
            try await run.run("mdoc-issuer", ["vical", "--pki", "Certs/demo", "--provider", "Test",
                                              "--entry", "Certs/demo/iaca.pem=", "--out", run.home + "/test.vical"])
        },
    ]

    @Test(.serialized, arguments: cases)
    func documentedCase(_ testCase: Case) async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let result = try await testCase.run(run)
        if KnownTPMEncodingFailure.met(in: result) { return }
        #expect(result.status == testCase.status, "\(result.standardOutput)\n\(result.standardError)")
        if testCase.status != 0 && testCase.status < 128 {
            // Every failure ends with one line saying what failed (and, for usage, one hint);
            // a signal is no failure of the program's.
            let errorLines = result.standardError.split(separator: "\n").filter { $0.contains(": error: ") }
            #expect(errorLines.count == 1, "\(result.standardError)")
        }
    }

    /// The codes `command --help` lists after "Exit codes:".
    static func documentedCodes(_ command: String) async throws -> Set<Int32> {
        let words = command.split(separator: " ").map(String.init)
        let help = try await ProgramRunner.run(words[0], Array(words.dropFirst()) + ["--help"], environment: ["COLUMNS": "2000"])
        guard let start = help.standardOutput.range(of: "Exit codes:") else { return [] }
        let paragraph = help.standardOutput[start.upperBound...].prefix { $0 != "\n" }
        let pattern = try NSRegularExpression(pattern: "(?:^|; ) *([0-9]+) ")
        let text = String(paragraph)
        return Set(pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).flatMap { Int32(text[$0]) }
        })
    }

    static let commands = [
        "mdoc inspect", "mdoc-reader verify", "mdoc-reader request", "mdoc-reader online-request", "mdoc-reader scan",
        "mdoc-reader test-holder", "mdoc-holder test-reader", "mdoc-holder present", "mdoc-holder respond",
        "mdoc-holder list", "mdoc-holder show", "mdoc-holder import", "mdoc-holder remove", "mdoc-holder key seal",
        "mdoc-holder key generate", "mdoc-issuer pki", "mdoc-issuer issue",
        "mdoc-issuer vical",
    ]

    @Test(arguments: commands)
    func everyCodeTheHelpListsHasACase(command: String) async throws {
        let documented = try await Self.documentedCodes(command)
        let tested = Set(Self.cases.filter { $0.command == command }.map(\.status))
        #expect(!documented.isEmpty, "\(command) --help lists no exit codes")
        #expect(documented == tested, "\(command): documented \(documented.sorted()), tested \(tested.sorted())")
    }

    @Test func theReadmeTableIsExitStatus() throws {
        let readme = try String(contentsOfFile: Vectors.repositoryRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Exit codes").dropFirst().first)
        let rows = section.split(separator: "\n").drop { !$0.hasPrefix("| code") }.dropFirst(2).prefix { $0.hasPrefix("|") }
        let codes = rows.compactMap { Int32($0.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? "") }
        #expect(codes == ExitStatus.allCases.map(\.rawValue), "\(codes)")
    }
}
