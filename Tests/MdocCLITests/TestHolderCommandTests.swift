import Foundation
import MdocTestSupport
import Testing

/// `mdoc-reader test-holder` (docs/conformance.md) against the real `mdoc-holder` over `sim`:
/// the holder serves reader after reader (`--keep-running`), and each engagement it prints is
/// handed to the runner's standard input as it comes.
@Suite struct TestHolderCommandTests {
    /// Runs `mdoc-reader test-holder READER --transport sim` against `mdoc-holder present HOLDER
    /// --keep-running --no-qr --transport sim`, handing it each engagement line the holder prints
    /// (its mdoc: URI, or with `--json` among HOLDER its JSON engagement object), for `cases`
    /// engagements; the holder is stopped once the runner ended.
    static func run(
        _ run: IsolatedRun, holder holderArguments: [String], reader readerArguments: [String], cases: Int
    ) async throws -> ProgramRunner.Result {
        let prefix = holderArguments.contains("--json") ? #"{"schemaVersion":1,"type":"engagement""# : "mdoc:"
        let holder = try run.start("mdoc-holder", [
            "present", "--keep-running", "--no-qr", "--transport", "sim", "--timeout", "\(LiveSession.programTimeout)",
        ] + holderArguments)
        holder.closeInput()
        defer { holder.stop() }
        let reader = try run.start("mdoc-reader", ["test-holder", "--transport", "sim", "--timeout", "\(LiveSession.programTimeout)"] + readerArguments)
        for number in 1...cases {
            guard let line = await holder.line(startingWith: prefix, number: number, timeout: LiveSession.waitTimeout) else { break }
            reader.send(line + "\n")
        }
        reader.closeInput()
        return await reader.wait(timeout: LiveSession.waitTimeout)
    }

    /// The runner signing as the demo reader, which the holder's reader root makes trusted.
    static let demoReader = ["--reader-cert", "Certs/demo/reader.pem", "--reader-key", "Certs/demo/reader-key.pem"]

    /// A test PKI in `run`'s home whose reader certificate expired a day ago while its reader
    /// root is still valid (`mdoc-issuer pki --reader-not-after`): the holder's options trusting
    /// its root beside the demo reader root, and the runner's options signing with the expired
    /// reader certificate.
    static func expiredReader(in run: IsolatedRun) async throws -> (holder: [String], reader: [String]) {
        let directory = run.home + "/expired-reader"
        let format = ISO8601DateFormatter()
        let made = try await run.run("mdoc-issuer", [
            "pki", directory, "--not-before", format.string(from: Date().addingTimeInterval(-2 * 86_400)), "--valid-days", "30",
            "--reader-not-after", format.string(from: Date().addingTimeInterval(-86_400)),
        ])
        #expect(made.status == 0, "\(made.standardError)")
        return (
            ["--trust-readers", "Certs/demo/reader-root.pem", directory + "/reader-root.pem"],
            ["--expired-reader-cert", directory + "/reader.pem", "--expired-reader-key", directory + "/reader-key.pem"]
        )
    }

    @Test func theHolderSuitePassesAgainstOurHolderWithReportsAndCaptures() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let json = run.home + "/report.json", junit = run.home + "/report.xml", captures = run.home + "/captures"
        let html = run.home + "/report.html"
        let expired = try await Self.expiredReader(in: run)
        let listed = try await run.run("mdoc-reader", ["test-holder", "--list"])
        let listedNames = listed.standardOutput.split(separator: "\n").filter { $0.hasPrefix("mDL_") }.map { String($0.split(separator: " ")[0]) }
        #expect(listedNames.count == 33, "\(listed.standardOutput)")
        // mDL_BLE_WrongIdent lasts the connection's bound, after which the holder still waits in
        // peripheral server mode: theWrongIdentCasePassesAgainstOurHolderInCentralClientMode
        // runs it with bounds of its own.
        let names = listedNames.filter { $0 != "mDL_BLE_WrongIdent" }
        // Each case's capture, in the directory the runner names after its number and name.
        func captured(_ name: String) throws -> String {
            let number = try #require(names.firstIndex(of: name)) + 1
            return "\(captures)/\(number < 10 ? "0" : "")\(number)-\(name)"
        }

        let result = try await Self.run(
            run, holder: ["--credential", "Certs/demo/mdl.mdoc", "--policy", "Samples/trusted-readers-policy.json"] + expired.holder,
            reader: [
                "--trust", "Certs/demo/iaca.pem", "--report-json", json, "--report-junit", junit, "--report-html", html, "--captures", captures,
            ] + names.flatMap { ["--case", $0] } + Self.demoReader + expired.reader,
            cases: names.count)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("\n32 passed, 0 failed, 0 inconclusive\n"), "\(result.standardOutput)")
        for name in names {
            #expect(result.standardOutput.contains("PASSED  \(name) ("), "\(name)")
        }

        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect(report["type"] as? String == "conformanceRun")
        #expect(report["passed"] as? Int == 32)
        let cases = try #require(report["cases"] as? [[String: Any]])
        #expect(cases.map { $0["name"] as? String } == names)
        #expect(cases.allSatisfy { $0["outcome"] as? String == "passed" && $0["clause"] is String && $0["durationSeconds"] is Double })
        let capture = try #require(cases.first?["capture"] as? String)
        #expect(try capture == captured("mDL_Request_WellFormed"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: captures).count == 32)
        let replayed = try await run.run("mdoc-reader", ["verify", "--session", capture, "--trust", "Certs/demo/iaca.pem"])
        #expect(replayed.status == 0, "\(replayed.standardError)")
        // The capture keeps the EReaderKey the mdoc was sent, on the other curve, and the
        // transcript it makes: it reads back, and shows the mdoc's status 10.
        let otherCurve = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDL_Session_EReaderKeyOtherCurve")])
        #expect(otherCurve.status == 0, "\(otherCurve.standardError)")
        #expect(otherCurve.standardOutput.contains(#""status": 10"#), "\(otherCurve.standardOutput)")
        // The SessionEstablishment without eReaderKey went out without it, which the inspector
        // names; our holder ended the session with status 11.
        let withoutKey = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDL_Session_EstablishmentWithoutEReaderKey")])
        #expect(withoutKey.status == 0, "\(withoutKey.standardError)")
        #expect(withoutKey.standardOutput.contains(#"Problem: not a SessionEstablishment: missing "eReaderKey" at top level"#), "\(withoutKey.standardOutput)")
        #expect(withoutKey.standardOutput.contains(#""status": 11"#), "\(withoutKey.standardOutput)")
        let withoutData = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDL_Session_EstablishmentWithoutData")])
        #expect(withoutData.status == 0, "\(withoutData.standardError)")
        #expect(withoutData.standardOutput.contains(#"Problem: not a SessionEstablishment: missing "data" at top level"#), "\(withoutData.standardOutput)")
        // EReaderKeyBytes went out without their tag and data under tag 24, which the inspector
        // names; the captures read back, the key's content still the transcript's.
        let untaggedKey = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDL_Session_EReaderKeyUntagged")])
        #expect(untaggedKey.status == 0, "\(untaggedKey.standardError)")
        #expect(untaggedKey.standardOutput.contains("Problem: not a SessionEstablishment: "), "\(untaggedKey.standardOutput)")
        #expect(untaggedKey.standardOutput.contains(#""status": 11"#), "\(untaggedKey.standardOutput)")
        let taggedData = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDL_Session_EstablishmentDataTagged")])
        #expect(taggedData.status == 0, "\(taggedData.standardError)")
        #expect(taggedData.standardOutput.contains("Problem: not a SessionEstablishment: "), "\(taggedData.standardOutput)")
        #expect(taggedData.standardOutput.contains("24(h'"), "\(taggedData.standardOutput)")
        // The request of an unknown minor version went out as "1.9" and was answered.
        let minorVersion = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDL_Request_UnknownMinorVersion")])
        #expect(minorVersion.status == 0, "\(minorVersion.standardError)")
        #expect(minorVersion.standardOutput.contains(#""version": "1.9""#), "\(minorVersion.standardOutput)")
        // The request signed over another session's transcript went out signed (the holder's
        // answer without the mDL is what the case passed on).
        let otherTranscript = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDL_ReaderAuth_OtherSessionTranscript")])
        #expect(otherTranscript.status == 0, "\(otherTranscript.standardError)")
        #expect(otherTranscript.standardOutput.contains(#""readerAuth": ["#), "\(otherTranscript.standardOutput)")
        // The request whose ItemsRequest carries requestInfo went out with it, signed, and was
        // answered with the elements: our holder authenticated the reader over those bytes.
        let requestInfo = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDL_ReaderAuth_RequestInfo")])
        #expect(requestInfo.status == 0, "\(requestInfo.standardError)")
        #expect(requestInfo.standardOutput.contains(#""conformanceRFU""#), "\(requestInfo.standardOutput)")
        // The session ended with the reader's status 20 alone, its last message, after which
        // our holder closed the channel.
        let statusOnly = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDL_Termination_ReaderStatusOnly")])
        #expect(statusOnly.status == 0, "\(statusOnly.standardError)")
        #expect(statusOnly.standardOutput.contains(#""status": 20"#), "\(statusOnly.standardOutput)")

        // The sized cases' captures keep the ATT_MTU each session agreed with our holder, the GATT
        // server here: 23 or 517 where the reader offered that, 515 (the usual offer) else.
        for (name, mtu) in [("mDL_BLE_MTU23", 23), ("mDL_BLE_MTU517", 517), ("mDL_BLE_ShortChunks", 515)] {
            let index = try #require(JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(try captured(name))/index.json"))) as? [String: Any])
            #expect(index["mtu"] as? Int == mtu, "\(name): \(index)")
        }

        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="holder" tests="32" failures="0" errors="0" skipped="0""#), "\(xml)")
        // The page lists every case, and carries each session's capture for its timeline.
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.components(separatedBy: #"<td class="outcome">passed</td>"#).count - 1 == 32, "\(page)")
        #expect(page.components(separatedBy: #""structure":"SessionEstablishment""#).count - 1 == 32, "\(page)")
        #expect(xml.contains(#"<testcase name="mDL_Session_ReplayedCiphertext" classname="ISO/IEC 18013-5 9.1.1.5, 9.1.1.4""#), "\(xml)")
    }

    /// `mDL_BLE_WrongIdent` runs in mdoc central client mode whatever `--ble-mode` prefers: our
    /// holder reads the wrong Ident, says so and leaves, and the case passes once the runner's
    /// `--timeout` ran out (ISO/IEC 18013-5 8.3.3.1.1.4).
    @Test func theWrongIdentCasePassesAgainstOurHolderInCentralClientMode() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        // The runner's bound, which the case lasts; the holder, which starts looking for the
        // runner before the runner has started, waits longer.
        let bound = "\(10 * TimeoutScale.factor)"
        let holder = try run.start("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--transport", "sim", "--ble-mode", "central",
            "--timeout", "\(LiveSession.programTimeout)",
        ])
        holder.closeInput()
        defer { holder.stop() }
        let uri = try #require(await holder.line(startingWith: "mdoc:", number: 1, timeout: LiveSession.waitTimeout))
        let reader = try run.start("mdoc-reader", [
            "test-holder", "--transport", "sim", "--trust", "Certs/demo/iaca.pem", "--case", "mDL_BLE_WrongIdent", "--ble-mode", "peripheral",
            "--timeout", bound,
        ])
        reader.send(uri + "\n")
        reader.closeInput()
        let result = await reader.wait(timeout: LiveSession.waitTimeout)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("PASSED  mDL_BLE_WrongIdent (8.3.3.1.1.4)\n"), "\(result.standardOutput)")
        let holderEnd = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(holderEnd.standardError.contains("Ident mismatch"), "\(holderEnd.standardError)")
    }

    /// The termination cases in mdoc central client mode, where the runner's GATT server
    /// notifies State 0x02 alone (ISO/IEC 18013-5 8.3.3.1.1.5) or sends status 20 alone: our
    /// holder, the GATT client, closes the channel after either (9.1.1.4).
    @Test func theTerminationCasesPassAgainstOurHolderInCentralClientMode() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let names = ["mDL_Termination_ReaderStatusOnly", "mDL_Termination_ReaderStateOnly"]
        let result = try await Self.run(
            run, holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--ble-mode", "central"],
            reader: ["--trust", "Certs/demo/iaca.pem", "--ble-mode", "central", "--log-level", "debug"] + names.flatMap { ["--case", $0] },
            cases: names.count)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("\n2 passed, 0 failed, 0 inconclusive\n"), "\(result.standardOutput)")
        #expect(result.standardError.contains("State: notifying 0x02 (end), the link kept"), "\(result.standardError)")
    }

    @Test func aHolderThatIgnoresReaderAuthenticationFailsItsCasesAndWithoutAReaderKeyTheyAreInconclusive() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let names = [
            "mDL_ReaderAuth_OtherSessionTranscript", "mDL_ReaderAuth_AlteredSignature", "mDL_ReaderAuth_UntrustedReader",
            "mDL_ReaderAuth_ExpiredReaderCertificate",
        ]
        let cases = names.flatMap { ["--case", $0] }
        let expired = try await Self.expiredReader(in: run)
        let ignoring = try await Self.run(
            run, holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes"],
            reader: ["--trust", "Certs/demo/iaca.pem"] + cases + Self.demoReader + expired.reader, cases: names.count)
        #expect(ignoring.status == 10, "\(ignoring.standardError)")
        for name in names {
            #expect(ignoring.standardOutput.contains("""
                FAILED  \(name) (9.1.4)
                    expected no data element of org.iso.18013.5.1.mDL disclosed, but 2 element(s) of it were returned
                """), "\(ignoring.standardOutput)")
        }

        let unsigned = try await run.run("mdoc-reader", ["test-holder", "--transport", "sim", "--trust", "Certs/demo/iaca.pem", "--engagements", "/dev/null"] + cases)
        #expect(unsigned.status == 8)
        #expect(unsigned.standardOutput.contains("""
            INCONCLUSIVE  mDL_ReaderAuth_AlteredSignature (9.1.4)
                the case needs the key and certificate of a reader the mdoc trusts (--reader-cert, --reader-key)
            """), "\(unsigned.standardOutput)")
    }

    @Test func aHolderWithoutAnMDLFailsTheWellFormedRequestNamingWhatItSentFromItsJSONEngagement() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let junit = run.home + "/report.xml"
        let result = try await Self.run(
            run, holder: ["--credential", "Certs/demo/pid.mdoc", "--yes", "--json"],
            reader: ["--trust", "Certs/demo/iaca.pem", "--case", "mDL_Request_WellFormed", "--report-junit", junit], cases: 1)
        #expect(result.status == 10, "\(result.standardError)")
        #expect(result.standardOutput.contains("""
            FAILED  mDL_Request_WellFormed (8.3.2.1.2.1)
                expected a verified response with org.iso.18013.5.1.mDL holding org.iso.18013.5.1/family_name, \
            org.iso.18013.5.1/age_over_18, but the mdoc sent a DeviceResponse with status OK (0) and 0 document(s)
            """), "\(result.standardOutput)")
        #expect(result.standardError.contains("mdoc-reader: error: 1 of 1 cases failed"), "\(result.standardError)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<failure message="expected a verified response with org.iso.18013.5.1.mDL holding"#), "\(xml)")
    }

    @Test func withoutEngagementsEveryCaseIsInconclusive() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let result = try await run.run("mdoc-reader", [
            "test-holder", "--transport", "sim", "--trust", "Certs/demo/iaca.pem", "--case", "mDL_Request_NotCBOR",
            "--case", "mDL_Request_WellFormed", "--engagements", "/dev/null",
        ])
        #expect(result.status == 8)
        #expect(result.standardOutput == """
            INCONCLUSIVE  mDL_Request_WellFormed (8.3.2.1.2.1)
                no engagement of the mdoc came for this case
            INCONCLUSIVE  mDL_Request_NotCBOR (8.3.2.1.2.3)
                no engagement of the mdoc came for this case
            0 passed, 0 failed, 2 inconclusive

            """, "\(result.standardOutput)")
    }
}
