import ArgumentParser
import MdocBLE
import MdocCBOR
import MdocCapture
import MdocCommandLine
import MdocConformance
import MdocFiles
import MdocModel
import MdocPresentation
import MdocQR
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-holder test-reader`: the conformance suite for an mdoc reader under test
/// (docs/conformance.md).
struct TestReader: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-reader",
        abstract: "Run conformance test cases against an mdoc reader under test, one session per case.",
        discussion: """
            Each case of the suite is a session of its own between this holder and the reader \
            under test: a well-formed response, or one whose encryption, SessionData or \
            issuer data departs on purpose from ISO/IEC 18013-5, or an engagement the reader \
            must cope with, and the one behaviour 18013-5 requires of the reader in it (the \
            session ended with a status of 9.1.1.4, or, where the holder cannot see it, what \
            the reader showed). --list prints the cases with the clause each checks; \
            docs/conformance.md describes them.

            Every case shows a fresh engagement, as present does: the QR code on standard error \
            (unless --no-qr) and the mdoc: URI as a line of its own on standard output, or in \
            --engagements-out FILE, so that a reader can scan each code, or a script hand each \
            URI to a reader. The holder releases every element the reader asks for that its \
            credentials hold. A case whose reader does not come within --timeout is \
            inconclusive, and the next case's engagement is shown.

            mDLR_Response_ExpiredDocumentSigner presents the credential of \
            --expired-signer-credential instead: one whose document signer certificate has \
            expired, issued under a root the reader trusts (mdoc-issuer issue --ds-not-before \
            and --ds-not-after make one); without it, the case is inconclusive.

            The credentials are loaded once, before the first case, as present loads them: a \
            device key in a PKCS#11 token or a TPM with the PIN of --pin-file or \
            MDOC_TOKEN_PIN, a device key sealed with a passphrase with the passphrase of \
            --passphrase-file or MDOC_KEY_PASSPHRASE.

            Cases marked "person" need the tester's word: once the session ended, the question \
            (did the reader refuse the response?) is asked on standard error, and the answer, \
            yes or no, read from standard input within --answer-timeout; no answer leaves the \
            case inconclusive.

            --captures DIR keeps each case's session in DIR/NN-NAME as present --save-session \
            does (docs/session-capture.md); DIR must not exist or be empty. --report-json \
            writes the results as JSON (docs/json-report.md, conformanceRun), --report-junit as \
            JUnit XML, --report-html as one self-contained HTML page listing the cases, with a \
            timeline of each session drawn from its capture (so with --captures). The outcome of \
            each case goes to standard output as it is known.

            Examples:
              mdoc-holder test-reader --credential Certs/demo/mdl.mdoc --transport sim \\
                --no-qr --report-junit results.xml
              mdoc-holder test-reader --list

            Exit codes: 0 every case passed (or --list); 7 a --credential, --engagements-out, \
            --report-json, --report-junit, --report-html or --captures path that cannot be used, \
            a device key whose token or TPM is absent, refuses the PIN or is locked out, or a \
            sealed device key without its passphrase or with a wrong one; 8 no case \
            failed but one or more were inconclusive (no reader, no session, no answer); 10 one \
            or more cases failed; 64 usage error (an unknown --suite or --case included).
            """
    )

    @Option(help: "The suite to run.", completion: .list(ReaderConformanceSuite.readerSuites.map(\.name)))
    var suite = ReaderConformanceSuite.reader.name

    @Option(name: .customLong("case"), parsing: .singleValue,
            help: "Run only this case of the suite; repeat for several.",
            completion: .list(ReaderConformanceSuite.readerSuites.flatMap { $0.cases.map(\.name) }))
    var cases: [String] = []

    @Flag(help: "List the suite's cases with the clause each checks, and run nothing.")
    var list = false

    @Option(name: .customLong("credential"), parsing: .upToNextOption,
            help: ArgumentHelp(
                "Credential files made by `mdoc-issuer issue`, or names of stored credentials (default: every stored credential).",
                valueName: "file-or-name"),
            completion: CredentialCompletion.namesAndFiles)
    var credentials: [String] = []

    @Option(name: .customLong("expired-signer-credential"),
            help: ArgumentHelp(
                "A credential whose document signer certificate has expired, under a root the reader trusts, for mDLR_Response_ExpiredDocumentSigner.",
                valueName: "file-or-name"),
            completion: CredentialCompletion.namesAndFiles)
    var expiredSignerCredential: String?

    @OptionGroup var token: TokenPINOptions

    @OptionGroup var keyPassphrase: KeyPassphraseOptions

    @OptionGroup var live: LiveTransportOptions

    @Option(name: .customLong("ble-mode"),
            help: "Which 18013-5 BLE modes to offer: peripheral (we are the GATT server), central (the reader is), or both.")
    var bleMode: BLEModeChoice = .both

    @Option(help: "Seconds to wait for the reader of each case, and for each message of its session.")
    var timeout: Double = 120

    @Option(name: .customLong("answer-timeout"),
            help: "Seconds to wait for the tester's yes or no on standard input, for a case marked person.")
    var answerTimeout: Double = 120

    @Flag(name: .customLong("no-qr"), help: "Print only each engagement's mdoc: URI, not its QR code.")
    var noQR = false

    @Option(name: .customLong("engagements-out"),
            help: "Write each engagement's mdoc: URI, one a line, to this file instead of standard output.", completion: .file())
    var engagementsOut: String?

    @Option(name: .customLong("report-json"), help: "Write the results as JSON to this file.", completion: .file())
    var reportJSON: String?

    @Option(name: .customLong("report-junit"), help: "Write the results as JUnit XML to this file.", completion: .file())
    var reportJUnit: String?

    @Option(name: .customLong("report-html"),
            help: "Write the results as one self-contained HTML page, with a timeline of each captured session, to this file.",
            completion: .file(extensions: ["html"]))
    var reportHTML: String?

    @Option(help: "Capture each case's session into a directory of its own in this directory (new or empty).",
            completion: .directory)
    var captures: String?

    func validate() throws {
        guard timeout > 0 else {
            throw ValidationError("--timeout must be more than 0 seconds")
        }
        guard answerTimeout > 0 else {
            throw ValidationError("--answer-timeout must be more than 0 seconds")
        }
        _ = try selectedCases()
    }

    /// The suite `--suite` names.
    private func selectedSuite() throws(ValidationError) -> ReaderConformanceSuite {
        guard let found = ReaderConformanceSuite.readerSuites.first(where: { $0.name == suite }) else {
            throw ValidationError(
                "there is no suite \(UntrustedText.escaped(suite)); the suites are \(ReaderConformanceSuite.readerSuites.map(\.name).joined(separator: ", "))")
        }
        return found
    }

    /// The cases to run: those of `--case`, else the whole suite.
    private func selectedCases() throws(ValidationError) -> [ReaderConformanceCase] {
        let found = try selectedSuite()
        guard !cases.isEmpty else { return found.cases }
        do {
            return try found.cases(named: cases)
        } catch {
            throw ValidationError("\(UntrustedText.escaped(error.reason)); see 'mdoc-holder test-reader --list'")
        }
    }

    func run() async throws {
        let selected = try selectedCases()
        if list {
            for conformanceCase in selected {
                let person = conformanceCase.needsPerson ? "  person" : ""
                ProgramOutput.standardOutput.writeLine(
                    "\(conformanceCase.name)  ISO/IEC 18013-5 \(conformanceCase.clause)\(person)\n    \(conformanceCase.summary)")
            }
            return
        }
        live.bootstrapLogging()
        await ProgramFailure.reporting(program: "mdoc-holder") { () async throws(ProgramFailure) in
            try await runCases(selected)
        }
    }

    /// Runs `selected`, shows each engagement and outcome, writes the reports, and ends with the
    /// status of the outcomes.
    private func runCases(_ selected: [ReaderConformanceCase]) async throws(ProgramFailure) {
        let environment = ProcessInfo.processInfo.environment
        let loaded = try keyPassphrase.withPassphrase { (passphrase) throws(ProgramFailure) in
            let pin = try token.pin()
            let store = CredentialStore.standard(environment: environment)
            return (credentials: try HolderCredentials.load(credentials, store: store, pin: pin, passphrase: passphrase),
                    expiredSigner: try expiredSignerCredential.map { (file) throws(ProgramFailure) in
                        try HolderCredentials.load([file], store: store, pin: pin, passphrase: passphrase)
                    } ?? [])
        }
        for (path, option) in [(reportJSON, "--report-json"), (reportJUnit, "--report-junit"), (reportHTML, "--report-html")] {
            if let path { try OutputFile.checkWritable(path, option: option) }
        }
        if let captures {
            try SessionCapture.checkWritable(directory: captures, option: "--captures")
            if !OutputFile.exists(captures) { try OutputFile.makeDirectory(captures) }
        }
        let engagementFile = try engagementsFile()
        defer { if let engagementFile { close(engagementFile) } }
        let engagementLines = engagementFile.map { ProgramOutput(fileDescriptor: $0) } ?? .standardOutput
        let seconds = Duration.milliseconds(Int64(timeout * 1000))
        let answerBound = Duration.milliseconds(Int64(answerTimeout * 1000))
        let transport = await live.resolvedTransport()
        var configured = ReaderConformanceRunner(
            credentials: loaded.credentials, modes: bleMode.modes, timeouts: SessionTimeouts(connection: seconds, idle: seconds),
            capturesDirectory: captures, program: "mdoc-holder \(ToolVersion.current)", transport: "\(transport)")
        configured.expiredSignerCredentials = loaded.expiredSigner
        let runner = configured
        let radio = try await live.openRadio()
        let (drawQR, suiteName) = (!noQR, suite)
        let results = await ProgramSignals.cancellingOnSignals {
            await runner.run(selected, over: radio, engagement: { uri in
                Self.show(uri, drawing: drawQR, to: engagementLines, environment: environment)
            }, confirm: { conformanceCase in
                guard let question = conformanceCase.expectation.question else { return nil }
                return await TesterAnswer.ask(question, case: conformanceCase.name, within: answerBound)
            }, finished: { result in
                Self.show(result)
            })
        }
        await radio.close()
        let report = ConformanceReport(suite: suiteName, results: results)
        if let reportJSON {
            let json = JSONReport.object(.conformanceRun, report.jsonMembers).serialized(pretty: true) + "\n"
            try OutputFile.create(Array(json.utf8), at: reportJSON, mode: 0o644, replacing: true)
        }
        if let reportJUnit {
            try OutputFile.create(Array(report.junitXML.utf8), at: reportJUnit, mode: 0o644, replacing: true)
        }
        if let reportHTML {
            try OutputFile.create(Array(ConformanceHTMLReport(report: report).html.utf8), at: reportHTML, mode: 0o644, replacing: true)
        }
        let (passed, failed, inconclusive) = report.counts
        ProgramOutput.standardOutput.writeLine("\(passed) passed, \(failed) failed, \(inconclusive) inconclusive")
        if failed > 0 {
            throw ProgramFailure(.conformanceFailed, "\(failed) of \(results.count) cases failed")
        }
        if inconclusive > 0 {
            throw ProgramFailure(.sessionFailed, "\(inconclusive) of \(results.count) cases were inconclusive")
        }
    }

    /// The file of `--engagements-out`, made anew, for the engagements' URIs; `nil` without the
    /// option, when they go to standard output.
    private func engagementsFile() throws(ProgramFailure) -> Int32? {
        guard let engagementsOut else { return nil }
        try OutputFile.checkWritable(engagementsOut, option: "--engagements-out")
        let descriptor = open(engagementsOut, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ProgramFailure(.badTrustInput, "--engagements-out \(engagementsOut): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    /// The engagement of the next case: its QR code on standard error (unless `--no-qr`), its
    /// URI as a line of its own on `lines`.
    private static func show(_ uri: MdocURI, drawing: Bool, to lines: ProgramOutput, environment: [String: String]) {
        ProgramOutput.standardError.writeLine("mdoc-holder: waiting for the reader with the next case's engagement")
        if drawing {
            do {
                EngagementDrawing(code: try QRCode(text: "\(uri)"), style: .lightOnDark, scale: .full)
                    .show(on: .standardError, environment: environment)
            } catch {
                ProgramOutput.standardError.writeLine("mdoc-holder: note: the QR code is not drawn: \(error.reason); the mdoc: URI is the same engagement")
            }
        }
        lines.writeLine("\(uri)")
    }

    /// One line per case on standard output: the outcome, the name and clause, then the reason
    /// (escaped: it quotes what the reader sent) and where the capture is.
    private static func show(_ result: ConformanceResult) {
        let conformanceCase = result.conformanceCase
        var text: TerminalText = "\(result.outcome.name.uppercased())  \(conformanceCase.name) (\(conformanceCase.clause))"
        if let reason = result.outcome.reason {
            text += "\n    \(reason)"
        }
        if let capture = result.capturePath {
            text += "\n    capture: \(capture)"
        }
        ProgramOutput.standardOutput.writeLine(text)
    }
}
