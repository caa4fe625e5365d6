import Foundation
import MdocCBOR
import MdocModel
import MdocQR
import MdocTestPeers
import MdocTestSupport
import Testing

/// The programs as a person uses them at a terminal: what the holder says when nobody can be
/// asked, the engagement QR code in narrow and light terminals, a pasted engagement, failures in
/// words, output files checked before a session, doc-type short names, colour for verdicts,
/// one-line usage errors that name an unknown option first, help that fits 80 columns, plurals
/// and the issuer's validity note.
@Suite struct EverydayUseCommandTests {
    /// Runs `program ARGUMENTS` in a pseudo-terminal of `columns` columns (util-linux
    /// `script`), standard input the terminal too; carriage returns the terminal adds removed.
    static func inTerminal(
        _ program: String, _ arguments: [String], columns: Int, run: IsolatedRun
    ) async throws -> ProgramRunner.Result {
        let path = ProgramRunner.productsDirectory.appendingPathComponent(program).path
        let command = ([path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        var result = try await run.tool("script", ["-qec", "stty cols \(columns) rows 100; exec \(command)", "/dev/null"])
        result.standardOutput = result.standardOutput.replacingOccurrences(of: "\r", with: "")
        return result
    }

    // MARK: Consent without a terminal

    @Test func aHolderThatCannotAskSaysSoOnceAtStartUp() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let result = try await run.run("mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--no-qr", "--timeout", "1"])
        #expect(result.status == 8)
        let note = "mdoc-holder: note: no terminal to ask for consent on, and neither --yes nor --policy was given: "
            + "answers are read from standard input, and every request is refused once it ends\n"
        #expect(result.standardError.components(separatedBy: note).count == 2, "\(result.standardError)")

        let decided = try await run.run("mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--no-qr", "--timeout", "1", "--yes"])
        #expect(!decided.standardError.contains("no terminal to ask"), "\(decided.standardError)")
        let atATerminal = try await Self.inTerminal(
            "mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--no-qr", "--timeout", "1", "--transport", "sim"],
            columns: 80, run: run)
        #expect(atATerminal.standardOutput.contains("mdoc:"), "\(atATerminal.standardOutput)")
        #expect(!atATerminal.standardOutput.contains("no terminal to ask"), "\(atATerminal.standardOutput)")
    }

    // MARK: The engagement QR code

    /// The holder's first session, its QR code drawn (or not) for `environment` and `options`.
    static func engagement(_ options: [String], run: IsolatedRun, extra: [String: String] = [:]) async throws
        -> (result: ProgramRunner.Result, uri: String, code: QRCode)
    {
        let result = try await run.run(
            "mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--timeout", "1", "--transport", "sim"] + options,
            extra: extra)
        let uri = try #require(result.standardOutput.split(separator: "\n").first { $0.hasPrefix("mdoc:") }.map(String.init),
                               "\(result.standardOutput)\(result.standardError)")
        return (result, uri, try QRCode(text: uri))
    }

    @Test func aTerminalTooNarrowForTheQRCodeGetsANoteInstead() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (result, uri, code) = try await Self.engagement([], run: run, extra: ["COLUMNS": "40"])
        let full = code.terminalColumns(scale: .full)
        let compact = code.terminalColumns(scale: .compact)
        #expect(full > 40 && compact <= 40)
        #expect(result.standardOutput == uri + "\n", "no QR code is drawn")
        #expect(result.standardError.contains("""
            mdoc-holder: note: the QR code is \(full) columns wide but the terminal has 40, so it is not drawn (it would wrap into a \
            pattern no camera reads): widen the terminal, give --qr-compact (\(compact) columns), or give --qr-png FILE and show \
            the image; the mdoc: URI below is the same engagement
            """), "\(result.standardError)")

        // Compact fits, and is drawn.
        let (compactResult, compactURI, compactCode) = try await Self.engagement(["--qr-compact"], run: run, extra: ["COLUMNS": "40"])
        #expect(compactResult.standardOutput == (try compactCode.terminalText(scale: .compact)) + compactURI + "\n")

        // Narrower than even the compact drawing: no compact suggestion.
        let (tiny, _, tinyCode) = try await Self.engagement(["--qr-compact"], run: run, extra: ["COLUMNS": "20"])
        #expect(tiny.standardError.contains(
            "the QR code is \(tinyCode.terminalColumns(scale: .compact)) columns wide but the terminal has 20, so it is not drawn (it would wrap into a pattern no camera reads): widen the terminal, or give --qr-png FILE"),
                "\(tiny.standardError)")
    }

    @Test func theTerminalWidthComesFromTheTerminal() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let narrow = try await Self.inTerminal(
            "mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--timeout", "1", "--transport", "sim"],
            columns: 40, run: run)
        #expect(narrow.standardOutput.contains("but the terminal has 40, so it is not drawn"), "\(narrow.standardOutput)")
        #expect(!narrow.standardOutput.contains("█"))
        let wide = try await Self.inTerminal(
            "mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--timeout", "1", "--transport", "sim"],
            columns: 100, run: run)
        #expect(wide.standardOutput.contains("█") && !wide.standardOutput.contains("not drawn"), "\(wide.standardOutput)")
    }

    @Test func aLightThemeGetsTheInvertedDrawing() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (light, uri, code) = try await Self.engagement(["--qr-style", "dark-on-light"], run: run)
        #expect(light.standardOutput == (try code.terminalText(style: .darkOnLight)) + uri + "\n")
        let (dark, darkURI, darkCode) = try await Self.engagement([], run: run)
        #expect(dark.standardOutput == (try darkCode.terminalText(style: .lightOnDark)) + darkURI + "\n")
    }

    // MARK: Waiting for a reader

    @Test func aHolderNobodyCameToNamesEveryServiceItOffered() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let result = try await run.run("mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr",
                                                       "--transport", "sim", "--timeout", "1"])
        #expect(result.status == 8)
        let uri = try #require(result.standardOutput.split(separator: "\n").first { $0.hasPrefix("mdoc:") }, "\(result.standardOutput)")
        let options = try #require(try MdocURI(String(uri)).deviceEngagementBytes.value.bleOptions)
        let peripheral = try #require(options.peripheralServerModeUUID)
        let central = try #require(options.centralClientModeUUID)
        #expect(result.standardError.contains(
            "mdoc-holder: error: no reader on service \(peripheral) (peripheral mode) or service \(central) (central mode) within 1 s\n"),
            "\(result.standardError)")
    }

    // MARK: A pasted engagement

    @Test func anEngagementURIWrappedOverLinesIsReadAndAStrayCharacterIsPlaced() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (_, uri, _) = try await Self.engagement(["--no-qr"], run: run)
        let (head, tail) = (uri.prefix(50), uri.dropFirst(50))
        // The holder is gone: read, the engagement is looked for and not found.
        let wrapped = try await run.run("mdoc-reader", ["request", "\(head)\n  \(tail)", "--timeout", "1", "--trust", "Certs/demo/iaca.pem"])
        #expect(wrapped.status == 8, "\(wrapped.standardError)")
        #expect(wrapped.standardError.contains("mdoc-reader: error: no mdoc on service "), "\(wrapped.standardError)")
        let stray = try await run.run("mdoc-reader", ["request", "\(head)\u{00A0}\(tail)", "--timeout", "1", "--trust", "Certs/demo/iaca.pem"])
        #expect(stray.status == 2, "\(stray.standardError)")
        #expect(stray.standardError.contains(
            "mdoc-reader: error: the engagement: the text after \"mdoc:\" is not base64url: U+00A0 at character 51 is not a base64url character\n"),
            "\(stray.standardError)")
    }

    // MARK: Failures in words

    @Test func aHolderThatVanishesBeforeAnsweringIsReportedInWordsNotByAnErrorCode() async throws {
        let link = SimHostileLink()
        let holder = try HostileHolder(link: link)
        let reader = try BackgroundProgram("mdoc-reader", [
            "request", holder.uri, "--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--transport", link.transport,
            "--timeout", "\(HostileProgramTests.timeout)",
        ], environment: link.environment)
        try await holder.vanish(at: .requestReceived)
        let result = await reader.wait(timeout: LiveSession.waitTimeout)
        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains(
            "mdoc-reader: error: the session failed: the connection ended before the mdoc answered the request\n"),
            "\(result.standardError)")
        #expect(!result.standardError.contains("transportEndedEarly"), "\(result.standardError)")
    }

    // MARK: Output files, checked before the session

    @Test func anUnwritablePortraitFileEndsTheReaderBeforeItConnects() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let holder = try run.start("mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr",
                                                   "--timeout", "\(LiveSession.programTimeout)"])
        defer { holder.stop() }
        let uri = try #require(await holder.line(startingWith: "mdoc:", number: 1, timeout: LiveSession.waitTimeout),
                               "\(holder.standardError)")

        let reader = try await run.run("mdoc-reader", ["request", uri, "--trust", "Certs/demo/iaca.pem", "--portrait-out", "/nonexistent/p.jpg"])
        #expect(reader.status == 7)
        #expect(reader.standardError == "mdoc-reader: error: --portrait-out /nonexistent/p.jpg: the folder /nonexistent does not exist\n")
        #expect(!holder.standardError.contains("reader connected"), "the holder is still waiting: \(holder.standardError)")

        // The same holder then serves a reader that can write its portrait.
        let portrait = run.home + "/p.jpg"
        let good = try await run.run("mdoc-reader", ["request", uri, "--trust", "Certs/demo/iaca.pem", "--portrait-out", portrait,
                                                     "--timeout", "\(LiveSession.programTimeout)"])
        #expect(good.status == 0, "reader: \(good.standardError)\nholder: \(holder.standardError)")
        #expect(FileManager.default.contents(atPath: portrait) == FileManager.default.contents(atPath: Vectors.repositoryRoot + "/Samples/portrait.jpg"))
    }

    @Test func anUnwritableQRImageEndsTheHolderBeforeItShowsAnything() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let result = try await run.run("mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--qr-png", "/nonexistent/qr.png"])
        #expect(result.status == 7)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "mdoc-holder: error: --qr-png /nonexistent/qr.png: the folder /nonexistent does not exist\n")

        let written = try await run.run("mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr",
                                                        "--timeout", "1", "--transport", "sim", "--qr-png", run.home + "/qr.png"])
        let uri = try #require(written.standardOutput.split(separator: "\n").first.map(String.init))
        #expect(try QRImageDecoder.decode(file: run.home + "/qr.png") == [uri])
    }

    /// The Foundation calls whose errors would reach a user as `NSCocoaErrorDomain` text: the
    /// programs write and list files with POSIX calls and name `strerror`'s reason instead.
    static let foundationFileCalls = [
        ".write(to:", "contentsOfFile:", "contentsOf: URL", "createDirectory(", "removeItem(", "copyItem(", "moveItem(",
        "contentsOfDirectory(", "attributesOfItem(", "setAttributes(", "FileHandle(forWritingAtPath", "FileHandle(forReadingAtPath",
    ]

    @Test func noFoundationFileErrorCanReachAUser() throws {
        let root = Vectors.repositoryRoot
        var offences: [String] = []
        let folders = [
            "Sources/mdoc", "Sources/mdoc-holder", "Sources/mdoc-reader", "Sources/mdoc-issuer", "Sources/MdocTerminal",
            "Sources/MdocText", "Sources/MdocFiles", "Sources/MdocInspection", "Sources/MdocCapture", "Sources/MdocQR",
            "Sources/MdocStores", "Sources/MdocConsent", "Sources/MdocIssuerData",
        ]
        for folder in folders {
            let enumerator = try #require(FileManager.default.enumerator(atPath: root + "/" + folder))
            while let name = enumerator.nextObject() as? String {
                guard name.hasSuffix(".swift") else { continue }
                let text = try String(contentsOfFile: root + "/" + folder + "/" + name, encoding: .utf8)
                for call in Self.foundationFileCalls where text.contains(call) {
                    offences.append("\(folder)/\(name): \(call)")
                }
            }
        }
        #expect(offences.isEmpty, "\(offences)")
    }

    // MARK: Doc-type short names

    @Test func theIssuerAndTheReaderMeanTheSameByPid() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let out = run.home + "/pid.mdoc"
        let issue = try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", "pid", "--data", "Samples/pid.json",
                                                      "--out", out])
        #expect(issue.status == 0, "\(issue.standardError)")
        #expect(issue.standardOutput.hasPrefix("Issued eu.europa.ec.eudi.pid.1 with "), "\(issue.standardOutput)")
        let shown = try await run.run("mdoc-holder", ["show", out])
        #expect(shown.standardOutput.contains("  docType:     eu.europa.ec.eudi.pid.1\n"), "\(shown.standardOutput)")

        let session = try await run.session(holder: ["--credential", out, "--yes", "--no-qr"],
                                            reader: ["--doctype", "pid", "--elements", "family_name", "--trust", "Certs/demo/iaca.pem"])
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.reader.standardOutput.contains("Document 0: eu.europa.ec.eudi.pid.1: VERIFIED"), "\(session.reader.standardOutput)")
    }

    @Test(arguments: ["pdi", "MDL2"])
    func aMistypedShortNameIsRefusedWithTheList(name: String) async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let list = "mdl (org.iso.18013.5.1.mDL), pid (eu.europa.ec.eudi.pid.1), av (eu.europa.ec.av.1)"
        let issue = try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", name, "--data", "Samples/pid.json",
                                                      "--out", run.home + "/x.mdoc"])
        #expect(issue.status == 64)
        #expect(issue.standardError == """
            mdoc-issuer: error: --doctype \(name): neither a short name nor a docType (a reverse domain name such as \
            org.iso.18013.5.1.mDL); the short names are \(list)
            mdoc-issuer: see 'mdoc-issuer issue --help'

            """)
        #expect(!FileManager.default.fileExists(atPath: run.home + "/x.mdoc"))

        let request = try await run.run("mdoc-reader", ["request", try ExitCodeTests.annexDURI(), "--doctype", name, "--trust", "Certs/demo/iaca.pem"])
        #expect(request.status == 64)
        #expect(request.standardError == """
            mdoc-reader: error: --doctype \(name): not a doc type the toolkit knows; give its --namespace too, or one of \(list)
            mdoc-reader: see 'mdoc-reader request --help'

            """)
    }

    // MARK: Colour

    @Test func verdictsAreColouredOnATerminalAndPlainOtherwise() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let v = "Vectors/iso18013-5-annex-d"
        let arguments = ["verify", "\(v)/device_response.hex", "--trust", "\(v)/iaca_cert.hex", "--at", "2021-01-01T00:00:00Z"]
        let green = "\u{1B}[32mok\u{1B}[0m"

        let piped = try await run.run("mdoc-reader", arguments)
        #expect(piped.status == 5)
        #expect(!piped.standardOutput.contains("\u{1B}"))

        let terminal = try await Self.inTerminal("mdoc-reader", arguments, columns: 120, run: run)
        #expect(terminal.standardOutput.contains("    \(green)   issuer signature"), "\(terminal.standardOutput)")
        #expect(terminal.standardOutput.contains("\u{1B}[33mISSUER DATA VERIFIED, device authentication not checked\u{1B}[0m"))
        #expect(terminal.standardOutput.contains("    \u{1B}[33miss\u{1B}[0m  family_name"))

        let noColour = try await run.tool("script", ["-qec", "exec \(ProgramRunner.productsDirectory.path)/mdoc-reader "
            + arguments.joined(separator: " "), "/dev/null"], extra: ["NO_COLOR": "1"])
        #expect(noColour.standardOutput.contains("issuer signature") && !noColour.standardOutput.contains("\u{1B}["),
                "\(noColour.standardOutput)")

        let forced = try await run.run("mdoc-reader", arguments, extra: ["CLICOLOR_FORCE": "1"])
        #expect(forced.standardOutput.contains(green))
        let both = try await run.run("mdoc-reader", arguments, extra: ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
        #expect(!both.standardOutput.contains("\u{1B}"))
    }

    // MARK: Usage errors, help, plurals, notes

    @Test func aUsageErrorIsOneLineAndAHint() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let result = try await run.run("mdoc-holder", ["present", "--yes", "--policy", "p.json"])
        #expect(result.status == 64)
        #expect(result.standardError == """
            mdoc-holder: error: --yes and --policy both decide consent; give one of them
            mdoc-holder: see 'mdoc-holder present --help'

            """)
        let unknown = try await run.run("mdoc-issuer", ["pki", "x", "--colour", "red"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.split(separator: "\n").count == 2, "\(unknown.standardError)")
        #expect(unknown.standardError.hasPrefix("mdoc-issuer: error: Unknown option '--colour'"), "\(unknown.standardError)")
    }

    @Test func anUnknownOptionIsNamedBeforeWhatIsMissing() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        // No response and no --session either: the mistyped option is what to fix first.
        for arguments in [
            ["mdoc-reader", "verify", "--bogus", "--trust", "Certs/demo/iaca.pem"],
            ["mdoc-reader", "request", "--trust", "Certs/demo/iaca.pem", "--bogus"],
            ["mdoc-holder", "present", "--yes", "--policy", "p.json", "--bogus=1"],
        ] {
            let result = try await run.run(arguments[0], Array(arguments.dropFirst()))
            #expect(result.status == 64, "\(arguments)")
            #expect(result.standardError == """
                \(arguments[0]): error: Unknown option '--bogus'
                \(arguments[0]): see '\(arguments[0]) \(arguments[1]) --help'

                """, "\(arguments)")
        }
        // Without one, what is missing is said as before.
        let missing = try await run.run("mdoc-reader", ["verify", "--trust", "Certs/demo/iaca.pem"])
        #expect(missing.standardError.hasPrefix(
            "mdoc-reader: error: give a DeviceResponse file or --session DIR, not both and not neither\n"), "\(missing.standardError)")
    }

    static let helps = [
        ["mdoc", "inspect"], ["mdoc", "encode"], ["mdoc", "demo"], ["mdoc-reader", "request"], ["mdoc-reader", "verify"], ["mdoc-reader", "verify-request"],
        ["mdoc-reader", "scan"],
        ["mdoc-holder", "present"], ["mdoc-holder", "list"], ["mdoc-holder", "show"], ["mdoc-holder", "import"],
        ["mdoc-holder", "remove"], ["mdoc-issuer", "pki"], ["mdoc-issuer", "issue"],
        ["mdoc-issuer", "vical"],
    ]

    /// In an 80-column help, every line of the examples is a command or continues one whose line
    /// ended in a backslash: none was broken by wrapping.
    @Test(arguments: helps)
    func helpExamplesFitEightyColumns(command: [String]) async throws {
        let help = try await ProgramRunner.run(command[0], [command[1], "--help"], environment: ["COLUMNS": "80"])
        let lines = help.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Example") }, "\(help.standardOutput)")
        let examples = lines[(start + 1)...].prefix { !$0.isEmpty }
        #expect(!examples.isEmpty)
        var previous = ""
        for line in examples {
            #expect(line.count <= 80, "\(line)")
            #expect(line.hasPrefix("  mdoc") || previous.hasSuffix("\\"), "broken example line: \(line)")
            previous = line
        }
    }

    @Test func countsAreSingularForOne() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let data = run.home + "/one.json"
        try Data(#"{"nameSpaces": {"org.iso.18013.5.1": {"age_over_18": true}}}"#.utf8).write(to: URL(fileURLWithPath: data))
        let issue = try await run.run("mdoc-issuer", ["issue", "--pki", "Certs/demo", "--doctype", "mdl", "--data", data,
                                                      "--out", run.home + "/one.mdoc"])
        #expect(issue.status == 0, "\(issue.standardError)")
        #expect(issue.standardOutput.hasPrefix("Issued org.iso.18013.5.1.mDL with 1 data element in 1 name space, valid until "),
                "\(issue.standardOutput)")

        let session = try await run.session(holder: ["--credential", run.home + "/one.mdoc", "--no-qr"],
                                            reader: ["--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem"], holderInput: "a\n")
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        #expect(session.holder.standardOutput.contains("Releasing the 1 element."), "\(session.holder.standardOutput)")
        #expect(session.holder.standardError.contains("mdoc-holder: sending 1 approved element\n"), "\(session.holder.standardError)")
    }

    /// A PKI of 10 days, then credentials asking for 10 days (cut by the seconds between the two
    /// commands: no note) and 11 days (cut by a day: the note).
    @Test func theValidityNoteIsForACutOfADayOrMore() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let pki = run.home + "/pki"
        #expect(try await run.run("mdoc-issuer", ["pki", pki, "--valid-days", "10"]).status == 0)
        func issue(_ days: Int) async throws -> ProgramRunner.Result {
            try await run.run("mdoc-issuer", ["issue", "--pki", pki, "--doctype", "mdl", "--data", "Samples/mdl.json",
                                              "--out", run.home + "/\(days).mdoc", "--valid-days", "\(days)"])
        }
        let same = try await issue(10)
        #expect(same.status == 0)
        #expect(same.standardError.isEmpty, "\(same.standardError)")
        let longer = try await issue(11)
        #expect(longer.status == 0)
        #expect(longer.standardError.hasPrefix("mdoc-issuer: note: the MSO validity ends with the document signer certificate, "),
                "\(longer.standardError)")
        #expect(longer.standardError.hasSuffix(", not after --valid-days 11\n"))
    }
}
