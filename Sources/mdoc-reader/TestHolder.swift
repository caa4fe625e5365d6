import ArgumentParser
import MdocBLE
import MdocCBOR
import MdocCapture
import MdocCommandLine
import MdocConformance
import MdocCrypto
import MdocFiles
import MdocModel
import MdocPresentation
import MdocSession
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-reader test-holder`: the conformance suite for an mdoc under test (docs/conformance.md).
struct TestHolder: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-holder",
        abstract: "Run conformance test cases against an mdoc under test, one session per case.",
        discussion: """
            Each case of the suite is a session of its own with the mdoc under test: a request, \
            well-formed or malformed on purpose, or a session whose encryption or BLE link \
            departs on purpose from ISO/IEC 18013-5, and the one behaviour 18013-5 requires of \
            the mdoc in it (a verified response, a DeviceResponse status of 8.3.2.1.2.3, the \
            session ended with a status of 9.1.1.4, no element disclosed to a reader whose \
            authentication fails, 9.1.4, the channel closed by the mdoc after the reader \
            ended the session with status 20 or State 0x02 alone, 9.1.1.4, or no session \
            started with a reader whose Ident is wrong, 8.3.3.1.1.4). --list prints the \
            cases with the clause each checks; docs/conformance.md describes them. mDL_BLE_WrongIdent runs in mdoc central \
            client mode whatever --ble-mode prefers, and lasts --timeout.

            Every session needs a fresh engagement of the mdoc. The engagements are read from \
            --engagements (standard input by default), one a line: each line that holds an mdoc: \
            URI gives the next case its engagement, other lines are skipped, so the output of \
            `mdoc-holder present --keep-running --no-qr` or `--json` can be piped in, or each \
            URI pasted. A case whose engagement does not come within --timeout, and every case \
            after it, is inconclusive. Cases marked "person" expect a disclosure, which a person \
            at the device approves (or a holder that approves on its own).

            --reader-cert and --reader-key sign every request the runner builds as a reader \
            (9.1.4). The cases of reader authentication (mDL_ReaderAuth_...) need them, with a \
            reader certificate the mdoc trusts and an mdoc that releases the mDL's elements to \
            trusted readers only; without them those cases are inconclusive. \
            mDL_ReaderAuth_ExpiredReaderCertificate also needs --expired-reader-cert and \
            --expired-reader-key: a reader certificate that has expired, of a root the mdoc \
            trusts (`mdoc-issuer pki DIR --reader-not-after` makes one).

            --captures DIR keeps each case's session in DIR/NN-NAME as --save-session does for \
            `request` (docs/session-capture.md); DIR must not exist or be empty. --report-json \
            writes the results as JSON (docs/json-report.md, conformanceRun), --report-junit as \
            JUnit XML, --report-html as one self-contained HTML page listing the cases, with a \
            timeline of each session drawn from its capture (so with --captures). The outcome of \
            each case goes to standard output as it is known.

            Examples:
              mdoc-holder present --credential Certs/demo/mdl.mdoc --yes --keep-running \\
                --no-qr --transport sim | mdoc-reader test-holder --transport sim \\
                --trust Certs/demo/iaca.pem --report-junit results.xml
              mdoc-holder present --credential Certs/demo/mdl.mdoc --policy Samples/trusted-readers-policy.json \\
                --trust-readers Certs/demo/reader-root.pem --keep-running --no-qr --transport sim \\
                | mdoc-reader test-holder --transport sim --trust Certs/demo/iaca.pem \\
                --reader-cert Certs/demo/reader.pem --reader-key Certs/demo/reader-key.pem
              mdoc-reader test-holder --list

            Exit codes: 0 every case passed (or --list); 7 a --trust, --engagements, \
            --report-json, --report-junit, --report-html or --captures path that cannot be used, \
            or a --reader-cert, --reader-key, --expired-reader-cert or --expired-reader-key that \
            cannot sign; 8 no case \
            failed but one or more were inconclusive (no engagement, no link, no session, no \
            reader key for a case of reader authentication); 10 \
            one or more cases failed; 64 usage error (an unknown --suite or --case included).
            """
    )

    @Option(help: "The suite to run.", completion: .list(ConformanceSuite.holderSuites.map(\.name)))
    var suite = ConformanceSuite.holder.name

    @Option(name: .customLong("case"), parsing: .singleValue,
            help: "Run only this case of the suite; repeat for several.",
            completion: .list(ConformanceSuite.holderSuites.flatMap { $0.cases.map(\.name) }))
    var cases: [String] = []

    @Flag(help: "List the suite's cases with the clause each checks, and run nothing.")
    var list = false

    @Option(help: "Read the engagements, one mdoc: URI a line, from this file (default: standard input).",
            completion: .file())
    var engagements: String?

    @Option(name: .customLong("trust"), parsing: .upToNextOption,
            help: "Trust anchor (IACA root) certificates: PEM, DER or hex files, or directories of them (default: MDOC_TRUST, else ~/.config/swift-mdoc/trust/iaca).",
            completion: .file())
    var trust: [String] = []

    @OptionGroup var trustStore: TrustStoreChoice

    @OptionGroup var documentSigner: DocumentSignerOptions

    @OptionGroup var live: LiveTransportOptions

    @OptionGroup var readerAuthentication: ReaderAuthenticationOptions

    @Option(name: .customLong("expired-reader-cert"),
            help: "For mDL_ReaderAuth_ExpiredReaderCertificate: an expired reader authentication certificate of a root the mdoc trusts (PEM or DER).",
            completion: .file())
    var expiredReaderCert: String?

    @Option(name: .customLong("expired-reader-key"), help: "The private key of --expired-reader-cert (PEM or COSE_Key).", completion: .file())
    var expiredReaderKey: String?

    @Option(name: .customLong("ble-mode"),
            help: "The BLE mode to use: peripheral (the mdoc is the GATT server) or central (we are); default: what the mdoc offers, peripheral first.")
    var bleMode: MdocBLEMode?

    @Option(help: "Seconds to wait for each engagement and for the mdoc, and for each message to make progress.")
    var timeout: Double = 30

    @Option(name: .customLong("consent-timeout"),
            help: "Seconds to wait for each response once the mdoc has the request: its holder reads the request and decides.")
    var consentTimeout: Double = 120

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
        guard consentTimeout > 0 else {
            throw ValidationError("--consent-timeout must be more than 0 seconds")
        }
        guard (expiredReaderCert == nil) == (expiredReaderKey == nil) else {
            throw ValidationError("--expired-reader-cert and --expired-reader-key go together")
        }
        _ = try selectedCases()
    }

    /// The suite `--suite` names.
    private func selectedSuite() throws(ValidationError) -> ConformanceSuite {
        guard let found = ConformanceSuite.holderSuites.first(where: { $0.name == suite }) else {
            throw ValidationError(
                "there is no suite \(UntrustedText.escaped(suite)); the suites are \(ConformanceSuite.holderSuites.map(\.name).joined(separator: ", "))")
        }
        return found
    }

    /// The cases to run: those of `--case`, else the whole suite.
    private func selectedCases() throws(ValidationError) -> [ConformanceCase] {
        let found = try selectedSuite()
        guard !cases.isEmpty else { return found.cases }
        do {
            return try found.cases(named: cases)
        } catch {
            throw ValidationError("\(UntrustedText.escaped(error.reason)); see 'mdoc-reader test-holder --list'")
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
        let policy = try documentSigner.policy()
        live.bootstrapLogging()
        await ProgramFailure.reporting(program: "mdoc-reader") { () async throws(ProgramFailure) in
            try await runCases(selected, policy: policy)
        }
    }

    /// Runs `selected`, shows each outcome, writes the reports, and ends with the status of the
    /// outcomes.
    private func runCases(_ selected: [ConformanceCase], policy: DocumentSignerPolicy) async throws(ProgramFailure) {
        let issuers = try ReaderTrust.issuers(trust, store: trustStore, policy: policy, at: Date(), command: "test-holder")
        for (path, option) in [(reportJSON, "--report-json"), (reportJUnit, "--report-junit"), (reportHTML, "--report-html")] {
            if let path { try OutputFile.checkWritable(path, option: option) }
        }
        if let captures {
            try SessionCapture.checkWritable(directory: captures, option: "--captures")
            if !OutputFile.exists(captures) { try OutputFile.makeDirectory(captures) }
        }
        let authentication = try readerAuthentication.load()
        var expired: (key: PrivateKey, chain: [Certificate])?
        if let expiredReaderCert, let expiredReaderKey {
            expired = try ReaderAuthenticationFiles.load(
                readerCert: expiredReaderCert, readerKey: expiredReaderKey, module: nil, keyFile: nil, token: readerAuthentication.token,
                certOption: "--expired-reader-cert", keyOption: "--expired-reader-key")
        }
        let source = try EngagementLines(path: engagements)
        let seconds = Duration.milliseconds(Int64(timeout * 1000))
        let transport = await live.resolvedTransport()
        let runner = ConformanceRunner(
            trustAnchors: issuers.anchors, documentSignerPolicy: issuers.policy,
            timeouts: SessionTimeouts(connection: seconds, idle: seconds, response: .milliseconds(Int64(consentTimeout * 1000))),
            preferredMode: bleMode, capturesDirectory: captures, program: "mdoc-reader \(ToolVersion.current)", transport: "\(transport)",
            readerAuthentication: authentication, expiredReaderAuthentication: expired)
        let radio = try await live.openRadio()
        let suiteName = suite
        let results = await ProgramSignals.cancellingOnSignals {
            await runner.run(selected, over: radio, engagement: {
                ProgramOutput.standardError.writeLine("mdoc-reader: waiting for the mdoc's next engagement")
                return await source.next(within: seconds)
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

    /// One line per case on standard output: the outcome, the name and clause, then the reason
    /// (escaped: it quotes what the mdoc sent) and where the capture is.
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
