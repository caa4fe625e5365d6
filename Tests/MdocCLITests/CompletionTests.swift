import Foundation
import Testing

/// Bash completion, as bash runs it: each program's `--generate-completion-script bash` is
/// sourced and its completion function called for a partly typed command line in the
/// repository root; an option or argument that takes a path offers the files there, and one
/// that takes a name from a list (`--doctype`, `--transport`) offers the names.
@Suite struct CompletionTests {
    /// Sources the script (`$1`), sets the words that follow as the command line being typed,
    /// calls the program's completion function as `complete -F` would, and prints COMPREPLY.
    static let driver = """
        shopt -s extglob
        source "$1"
        shift
        COMP_WORDS=("$@")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMP_LINE="${COMP_WORDS[*]}"
        COMP_POINT=${#COMP_LINE}
        "_${COMP_WORDS[0]}" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "${COMPREPLY[@]}"
        """

    /// A command line typed up to its last word, and what completion must offer for it (and,
    /// where an extension is asked for, must not).
    struct Case: Sendable, CustomTestStringConvertible {
        let words: [String]
        let offers: [String]
        var omits: [String] = []
        var testDescription: String { words.joined(separator: " ") }
    }

    static let cases = [
        Case(words: ["mdoc-holder", "present", "--credential", "Certs/demo/"], offers: ["Certs/demo/mdl.mdoc", "Certs/demo/pid.mdoc"],
             omits: ["Certs/demo/README.md", "Certs/demo/iaca.pem"]),
        Case(words: ["mdoc-holder", "present", "--trust-readers", "Certs/demo/reader-r"],
             offers: ["Certs/demo/reader-root.pem", "Certs/demo/reader-root-key.pem"]),
        Case(words: ["mdoc-holder", "present", "--policy", "Samples/"], offers: ["Samples/mdl.json", "Samples/pid.json"],
             omits: ["Samples/portrait.jpg"]),
        Case(words: ["mdoc-holder", "present", "--btsnoop", "Certs/demo/R"], offers: ["Certs/demo/README.md"]),
        Case(words: ["mdoc-holder", "show", "Certs/demo/p"], offers: ["Certs/demo/pid.mdoc"]),
        Case(words: ["mdoc-holder", "import", "Certs/demo/m"], offers: ["Certs/demo/mdl.mdoc"]),
        Case(words: ["mdoc-reader", "request", "--trust", "Certs/demo/iaca"], offers: ["Certs/demo/iaca.pem", "Certs/demo/iaca-key.pem"]),
        Case(words: ["mdoc-reader", "request", "--reader-cert", "Certs/demo/reader."], offers: ["Certs/demo/reader.pem"]),
        Case(words: ["mdoc-reader", "request", "--reader-key", "Certs/demo/reader-k"], offers: ["Certs/demo/reader-key.pem"]),
        Case(words: ["mdoc-reader", "request", "--portrait-out", "Samples/po"], offers: ["Samples/portrait.jpg"]),
        Case(words: ["mdoc-reader", "request", "--qr-image", "Samples/po"], offers: ["Samples/portrait.jpg"]),
        Case(words: ["mdoc-reader", "verify", "Vectors/iso18013-5-annex-d/device_res"],
             offers: ["Vectors/iso18013-5-annex-d/device_response.hex"]),
        Case(words: ["mdoc-reader", "verify", "x", "--transcript", "Vectors/iso18013-5-annex-d/session_transcript_b"],
             offers: ["Vectors/iso18013-5-annex-d/session_transcript_bytes.hex"]),
        Case(words: ["mdoc-reader", "request", "--save-session", "Certs/d"], offers: ["Certs/demo"], omits: ["Certs/demo/iaca.pem"]),
        Case(words: ["mdoc-reader", "verify", "--session", "Certs/d"], offers: ["Certs/demo"]),
        Case(words: ["mdoc-reader", "verify", "x", "--online-state", "Samples/p"], offers: ["Samples/pid.json"], omits: ["Samples/portrait.jpg"]),
        Case(words: ["mdoc-reader", "online-request", "--reader-cert", "Certs/demo/reader."], offers: ["Certs/demo/reader.pem"]),
        Case(words: ["mdoc-reader", "online-request", "--doctype", "p"], offers: ["pid"], omits: ["mdl"]),
        Case(words: ["mdoc-holder", "respond", "--credential", "Certs/demo/"], offers: ["Certs/demo/mdl.mdoc"], omits: ["Certs/demo/iaca.pem"]),
        Case(words: ["mdoc-holder", "respond", "--request", "Samples/p"], offers: ["Samples/pid.json"], omits: ["Samples/portrait.jpg"]),
        Case(words: ["mdoc-reader", "verify-request", "--session", "Certs/d"], offers: ["Certs/demo"]),
        Case(words: ["mdoc-reader", "test-holder", "--case", "mDL_Session_R"], offers: ["mDL_Session_ReplayedCiphertext"]),
        Case(words: ["mdoc-reader", "test-holder", "--captures", "Certs/d"], offers: ["Certs/demo"], omits: ["Certs/demo/iaca.pem"]),
        Case(words: ["mdoc-reader", "test-holder", "--engagements", "Certs/demo/R"], offers: ["Certs/demo/README.md"]),
        Case(words: ["mdoc-holder", "test-reader", "--case", "mDLR_Session_A"], offers: ["mDLR_Session_AlteredCiphertext"]),
        Case(words: ["mdoc-holder", "test-reader", "--credential", "Certs/demo/"], offers: ["Certs/demo/mdl.mdoc"], omits: ["Certs/demo/iaca.pem"]),
        Case(words: ["mdoc-holder", "present", "--save-session", "Cert"], offers: ["Certs"]),
        Case(words: ["mdoc-issuer", "pki", "Cert"], offers: ["Certs"]),
        Case(words: ["mdoc-issuer", "issue", "--pki", "Certs/d"], offers: ["Certs/demo"]),
        Case(words: ["mdoc-issuer", "issue", "--data", "Samples/p"], offers: ["Samples/pid.json"], omits: ["Samples/portrait.jpg"]),
        Case(words: ["mdoc-issuer", "issue", "--device-key", "Certs/annex-d/sD"], offers: ["Certs/annex-d/sDeviceKey.pem"]),
        Case(words: ["mdoc-issuer", "vical", "--pki", "Certs/d"], offers: ["Certs/demo"]),
        Case(words: ["mdoc-issuer", "vical", "--entry", "Certs/demo/iaca"], offers: ["Certs/demo/iaca.pem"]),
        Case(words: ["mdoc-issuer", "vical", "--out", "Certs/demo/R"], offers: ["Certs/demo/README.md"]),
        Case(words: ["mdoc", "inspect", "Vectors/iso18013-5-annex-d/device_e"], offers: ["Vectors/iso18013-5-annex-d/device_engagement.hex"]),
        Case(words: ["mdoc", "encode", "Vectors/iso18013-5-annex-d/device_r"], offers: ["Vectors/iso18013-5-annex-d/device_request.hex"]),
        Case(words: ["mdoc", "encode", "x", "--out", "Certs/demo/R"], offers: ["Certs/demo/README.md"]),
        Case(words: ["mdoc-reader", "request", "--request", "Vectors/iso18013-5-annex-d/device_r"],
             offers: ["Vectors/iso18013-5-annex-d/device_request.hex"]),
        Case(words: ["mdoc", "demo", "--dir", "Certs/d"], offers: ["Certs/demo"]),
        // Values, not paths.
        Case(words: ["mdoc-reader", "request", "--doctype", ""], offers: ["mdl", "pid", "av", "org.iso.18013.5.1.mDL"]),
        Case(words: ["mdoc-reader", "request", "--doctype", "p"], offers: ["pid"], omits: ["mdl"]),
        Case(words: ["mdoc-issuer", "issue", "--doctype", "m"], offers: ["mdl"], omits: ["pid"]),
        Case(words: ["mdoc-reader", "request", "--transport", ""], offers: ["sim", "bluez"]),
        Case(words: ["mdoc-holder", "present", "--transport", "s"], offers: ["sim"], omits: ["bluez", "scripts"]),
    ]

    @Test(arguments: cases)
    func pathsComplete(_ testCase: Case) async throws {
        try await pathsComplete(testCase, environment: Self.programsOnPath)
    }

    /// Runs `testCase`'s completion with `environment`.
    func pathsComplete(_ testCase: Case, environment: [String: String]) async throws {
        let program = testCase.words[0]
        let script = try await ProgramRunner.run(program, ["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let scriptPath = try ProgramRunner.temporaryFile(Array(script.standardOutput.utf8), suffix: ".bash")
        let driverPath = try ProgramRunner.temporaryFile(Array(Self.driver.utf8), suffix: ".sh")
        defer {
            try? FileManager.default.removeItem(atPath: scriptPath)
            try? FileManager.default.removeItem(atPath: driverPath)
        }
        let completion = try await ProgramRunner.runTool("bash", [driverPath, scriptPath] + testCase.words, environment: environment)
        #expect(completion.status == 0, "\(completion.standardError)")
        let offered = Set(completion.standardOutput.split(separator: "\n").map(String.init))
        for path in testCase.offers {
            #expect(offered.contains(path), "\(path) not offered; offered: \(offered.sorted())")
        }
        for path in testCase.omits {
            #expect(!offered.contains(path), "\(path) offered")
        }
    }

    /// The programs on `PATH`, as an installation has them: the holder computes what completes
    /// a credential's name when bash asks it.
    static var programsOnPath: [String: String] {
        ["PATH": ProgramRunner.productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    @Test func theHolderOffersItsStoredCredentialsNames() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let imported = try await run.run("mdoc-holder", ["import", "Certs/demo/mdl.mdoc", "--name", "licence"])
        try #require(imported.status == 0, "\(imported.standardError)")
        let environment = run.environment.merging(Self.programsOnPath) { _, new in new }
        for testCase in [
            Case(words: ["mdoc-holder", "present", "--credential", "l"], offers: ["licence"]),
            Case(words: ["mdoc-holder", "present", "--credential", ""], offers: ["licence", "Certs"], omits: ["README.md"]),
            Case(words: ["mdoc-holder", "show", "Certs/demo/"], offers: ["Certs/demo/mdl.mdoc"], omits: ["licence", "Certs/demo/iaca.pem"]),
            Case(words: ["mdoc-holder", "key", "seal", "li"], offers: ["licence"]),
            Case(words: ["mdoc-holder", "remove", ""], offers: ["licence"], omits: ["Certs"]),
        ] {
            try await pathsComplete(testCase, environment: environment)
        }
    }
}
