import Foundation
import MdocCrypto
import MdocTestSupport
import Testing

/// `mdoc-holder test-reader` (docs/conformance.md) against the real `mdoc-reader request` over
/// `sim`: each engagement the holder prints is handed to a reader of its own, and for a case
/// marked "person" the test answers as a person watching the reader would, from what the
/// reader reported (its exit status).
@Suite struct TestReaderCommandTests {
    /// Runs `mdoc-holder test-reader HOLDER --transport sim`, and for each of its first `cases`
    /// engagements `mdoc-reader request URI READER --transport sim` to its end; after the
    /// reader of engagement N, `answer(N, reader's result)` gives the line to send to the
    /// holder's standard input, if any.
    static func run(
        _ run: IsolatedRun, holder holderArguments: [String], reader readerArguments: [String], cases: Int,
        answer: (Int, ProgramRunner.Result) -> String? = { _, _ in nil }
    ) async throws -> (holder: ProgramRunner.Result, readers: [ProgramRunner.Result]) {
        let holder = try run.start("mdoc-holder", [
            "test-reader", "--transport", "sim", "--no-qr", "--timeout", "\(LiveSession.programTimeout)",
        ] + holderArguments)
        defer { holder.stop() }
        var readers: [ProgramRunner.Result] = []
        for number in 1...cases {
            guard let uri = await holder.line(startingWith: "mdoc:", number: number, timeout: LiveSession.waitTimeout) else { break }
            let reader = try await run.run("mdoc-reader", ["request", uri, "--transport", "sim", "--timeout", "\(LiveSession.programTimeout)"] + readerArguments)
            readers.append(reader)
            if let line = answer(number, reader) { holder.send(line + "\n") }
        }
        holder.closeInput()
        return (await holder.wait(timeout: LiveSession.waitTimeout), readers)
    }

    static let readerRequest = ["--doctype", "mdl", "--elements", "family_name,age_over_18", "--trust", "Certs/demo/iaca.pem"]

    /// The demo mDL issued into the home of `run` under the demo IACA with a document signer
    /// certificate valid for one hour after the IACA's start and long expired, its MSO valid
    /// (`mdoc-issuer issue --ds-not-before --ds-not-after`); its path.
    static func expiredSignerCredential(_ run: IsolatedRun) async throws -> String {
        let iaca = try Certificate(pemEncoded: String(contentsOfFile: "Certs/demo/iaca.pem", encoding: .utf8))
        let start = iaca.notValidBefore.addingTimeInterval(60)
        try #require(start.addingTimeInterval(3600) < Date(), "the demo IACA is too new for an expired document signer under it")
        let time: (TimeInterval) -> String = { ISO8601DateFormatter().string(from: start.addingTimeInterval($0)) }
        let path = run.home + "/expired-signer.mdoc"
        let issued = try await run.run("mdoc-issuer", [
            "issue", "--pki", "Certs/demo", "--doctype", "mdl", "--data", "Samples/mdl.json", "--out", path,
            "--ds-not-before", time(0), "--ds-not-after", time(3600), "--valid-from", time(1800), "--valid-until", "2030-01-01T00:00:00Z",
        ])
        try #require(issued.status == 0, "\(issued.standardError)")
        return path
    }

    @Test func theReaderSuitePassesAgainstOurReaderWithReportsAndCaptures() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let json = run.home + "/report.json", junit = run.home + "/report.xml", captures = run.home + "/captures"
        let listed = try await run.run("mdoc-holder", ["test-reader", "--list"])
        let names = listed.standardOutput.split(separator: "\n").filter { $0.hasPrefix("mDLR_") }.map { String($0.split(separator: " ")[0]) }
        #expect(names.count == 27, "\(listed.standardOutput)")
        // Each case's capture, in the directory the runner names after its number and name.
        func captured(_ name: String) throws -> String {
            let number = try #require(names.firstIndex(of: name)) + 1
            return "\(captures)/\(number < 10 ? "0" : "")\(number)-\(name)"
        }
        // The person's answer, from what the reader reported: for the malformed responses, a
        // session that failed (8) on what the response lacks; for the digests and the expired
        // document signer, issuer data authentication failed (3); for a status, a response of it
        // without documents (6).
        let answers: [String: (ProgramRunner.Result) -> Bool] = [
            "mDLR_Response_MissingStatus": { $0.status == 8 && $0.standardError.contains(#"missing "status""#) },
            "mDLR_Response_IssuerSignedItemUntagged": { $0.status == 8 && $0.standardError.contains("tag 24") },
            "mDLR_Response_DigestMismatch": { $0.status == 3 },
            "mDLR_Response_ExpiredDocumentSigner": { $0.status == 3 && $0.standardError.contains("validity: expired on") },
            "mDLR_Response_StatusGeneralError": { $0.status == 6 && $0.standardError.contains("(status general error (10))") },
            "mDLR_Response_StatusCBORDecodingError": { $0.status == 6 && $0.standardError.contains("(status CBOR decoding error (11))") },
            "mDLR_Response_StatusCBORValidationError": { $0.status == 6 && $0.standardError.contains("(status CBOR validation error (12))") },
            // For the response of an unknown minor version and the holder's own ends of the
            // session: the reader showed the response verified.
            "mDLR_Response_UnknownMinorVersion": { $0.status == 0 && $0.standardOutput.contains(": VERIFIED") },
            "mDLR_Termination_MdocStatus": { $0.status == 0 && $0.standardOutput.contains(": VERIFIED") },
            "mDLR_Termination_StatusBesideResponse": { $0.status == 0 && $0.standardOutput.contains(": VERIFIED") },
            "mDLR_Termination_MdocState": { $0.status == 0 && $0.standardOutput.contains(": VERIFIED") },
            "mDLR_Termination_MdocDropsLink": { $0.status == 0 && $0.standardOutput.contains(": VERIFIED") },
        ]
        let (result, readers) = try await Self.run(
            run, holder: [
                "--credential", "Certs/demo/mdl.mdoc", "--expired-signer-credential", try await Self.expiredSignerCredential(run),
                "--report-json", json, "--report-junit", junit, "--captures", captures,
            ],
            reader: Self.readerRequest, cases: names.count,
            answer: { number, reader in answers[names[number - 1]].map { $0(reader) ? "yes" : "no" } })
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("\n27 passed, 0 failed, 0 inconclusive\n"), "\(result.standardOutput)")
        for name in names {
            #expect(result.standardOutput.contains("PASSED  \(name) ("), "\(name)")
        }
        // What each reader reported: verified, seven sessions that failed (status 10 sent three
        // times, 11 four times), verified with an RFU key in the engagement, with an engagement of
        // version 1.9, over P-384 and with a response of version 1.9, three responses without
        // documents, issuer data authentication failed twice, and verified in the five
        // sessions the holder ended and over the five sized links.
        #expect(readers.map(\.status) == [0, 8, 8, 8, 8, 8, 8, 8, 0, 0, 0, 0, 6, 6, 6, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "\(readers.map(\.standardError))")
        #expect(result.standardError.contains(
            "mdoc-holder: mDLR_Response_DigestMismatch: did the reader refuse the response because its data elements do not match their digests? [yes/no] "),
            "\(result.standardError)")

        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect(report["type"] as? String == "conformanceRun")
        #expect(report["suite"] as? String == "reader")
        #expect(report["passed"] as? Int == 27)
        let cases = try #require(report["cases"] as? [[String: Any]])
        #expect(cases.map { $0["name"] as? String } == names)
        #expect(try FileManager.default.contentsOfDirectory(atPath: captures).count == 27)
        // The holder's capture of the altered ciphertext shows the reader's status 10.
        let altered = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDLR_Session_AlteredCiphertext")])
        #expect(altered.status == 0, "\(altered.standardError)")
        #expect(altered.standardOutput.contains(#""status": 10"#), "\(altered.standardOutput)")
        // And of the response that is not CBOR, the reader's status 11.
        let notCBOR = try await run.run("mdoc", ["inspect", "--diagnostic", try captured("mDLR_Response_NotCBOR")])
        #expect(notCBOR.status == 0, "\(notCBOR.standardError)")
        #expect(notCBOR.standardOutput.contains(#""status": 11"#), "\(notCBOR.standardOutput)")
        // And of the ciphertext under tag 24 and the malformed responses, the reader's status 11
        // as well: none decoded.
        for name in ["mDLR_Session_DataTagged", "mDLR_Response_MissingStatus", "mDLR_Response_IssuerSignedItemUntagged"] {
            let malformed = try await run.run("mdoc", ["inspect", "--diagnostic", try captured(name)])
            #expect(malformed.status == 0, "\(malformed.standardError)")
            #expect(malformed.standardOutput.contains(#""status": 11"#), "\(name): \(malformed.standardOutput)")
        }

        // The sized cases' captures keep the ATT_MTU each session agreed with our reader, the
        // GATT client here: 23 or 515 (what it offers) where the holder took 23 or up to 517,
        // 515 else.
        for (name, mtu) in [("mDLR_BLE_MTU23", 23), ("mDLR_BLE_MTU517", 515), ("mDLR_BLE_ShortChunks", 515)] {
            let index = try #require(JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(try captured(name))/index.json"))) as? [String: Any])
            #expect(index["mtu"] as? Int == mtu, "\(name): \(index)")
        }

        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="reader" tests="27" failures="0" errors="0" skipped="0""#), "\(xml)")
        #expect(xml.contains(#"<testcase name="mDLR_Engagement_EDeviceKeyP384" classname="ISO/IEC 18013-5 9.1.5.2, 9.1.1.4""#), "\(xml)")
    }

    /// 9.1.1.4 lets a reader end a session with status 20 or with the transport's own
    /// termination: a reader ending with BLE State 0x02 alone passes the well-formed case.
    @Test func aReaderEndingWithStateEndPassesTheWellFormedCaseAndTheTestersNoFailsTheDigestCase() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let engagements = run.home + "/engagements.txt"
        let holder = try run.start("mdoc-holder", [
            "test-reader", "--transport", "sim", "--no-qr", "--timeout", "\(LiveSession.programTimeout)", "--credential", "Certs/demo/mdl.mdoc",
            "--case", "mDLR_Response_WellFormed", "--case", "mDLR_Response_DigestMismatch", "--engagements-out", engagements,
        ])
        defer { holder.stop() }
        // --engagements-out takes the URIs off standard output, which keeps the outcomes.
        for number in 1...2 {
            let uri = try #require(await Self.engagement(number, in: engagements))
            // --termination state: BLE State end only, no SessionData status 20.
            let reader = try await run.run("mdoc-reader", [
                "request", uri, "--transport", "sim", "--timeout", "\(LiveSession.programTimeout)", "--termination", "state",
            ] + Self.readerRequest)
            if number == 2 {
                #expect(reader.status == 3, "\(reader.standardError)")
                holder.send("maybe\nno\n")
            }
        }
        holder.closeInput()
        let result = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(result.status == 10, "\(result.standardOutput)\(result.standardError)")
        #expect(!result.standardOutput.contains("mdoc:"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("PASSED  mDLR_Response_WellFormed (8.3.2.1.2.2, 9.1.1.4)\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("""
            FAILED  mDLR_Response_DigestMismatch (9.1.2.4, 9.3.1)
                expected the tester's yes to: did the reader refuse the response because its data elements do not match their digests?, \
            but the tester answered no (the reader ended the session with BLE State 0x02 (end) and no status)
            """), "\(result.standardOutput)")
        #expect(result.standardError.contains("mdoc-holder: answer yes or no: no\nmdoc-holder: error: 1 of 2 cases failed"), "\(result.standardError)")
    }

    @Test(.enabled(if: HeadlessBrowser.path != nil, HeadlessBrowser.missing))
    func theHTMLReportListsTheCasesAndDrawsEachSessionsTimelineInABrowser() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let html = run.home + "/report.html", captures = run.home + "/captures"
        let (result, _) = try await Self.run(
            run, holder: [
                "--credential", "Certs/demo/mdl.mdoc", "--case", "mDLR_Response_WellFormed", "--case", "mDLR_Session_AlteredCiphertext",
                "--report-html", html, "--captures", captures,
            ],
            reader: Self.readerRequest, cases: 2)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        // Self-contained: nothing to fetch.
        #expect(!page.contains("src=") && !page.contains("href=\"http") && !page.contains("@import"), "\(page)")

        let dom = try await HeadlessBrowser.dumpDOM(of: html)
        #expect(dom.status == 0, "\(dom.standardError)")
        let drawn = dom.standardOutput
        // The table lists the cases; the script drew a timeline per session from its capture:
        // SessionEstablishment, the response, and the reader's status.
        #expect(drawn.contains("<td class=\"outcome\">passed</td>"), "\(drawn)")
        #expect(drawn.contains(#"data-timelines="drawn""#), "\(drawn)")
        for name in ["mDLR_Response_WellFormed", "mDLR_Session_AlteredCiphertext"] {
            #expect(drawn.contains(">\(name)</a>"), "\(name)")
        }
        #expect(drawn.components(separatedBy: #"<ol class="timeline">"#).count - 1 == 2, "\(drawn)")
        #expect(drawn.components(separatedBy: #"<li class="message from-reader">"#).count - 1 == 4, "\(drawn)")
        #expect(drawn.components(separatedBy: #"<li class="message from-mdoc">"#).count - 1 == 2, "\(drawn)")
        #expect(drawn.contains(#"<span class="status">status 20</span>"#) && drawn.contains(#"<span class="status">status 10</span>"#),
                "\(drawn)")
        #expect(drawn.contains(#"<span class="structure">SessionEstablishment</span>"#), "\(drawn)")
    }

    @Test func aSealedCredentialIsOpenedWithThePassphraseFileAndThePINFileIsRead() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let issued = try await SealedDeviceKeyTests.issue(run)
        let imported = try await run.run(
            "mdoc-holder", ["import", issued, "--name", "mdl"], extra: ["MDOC_KEY_PASSPHRASE": SealedDeviceKeyTests.passphrase])
        try #require(imported.status == 0, "\(imported.standardError)")
        let passphrase = run.home + "/passphrase"
        try Data((SealedDeviceKeyTests.passphrase + "\n").utf8).write(to: URL(fileURLWithPath: passphrase))
        let holder = ["--credential", "mdl", "--case", "mDLR_Response_WellFormed"]

        let without = try await run.run("mdoc-holder", ["test-reader", "--transport", "sim", "--no-qr"] + holder)
        #expect(without.status == 7)
        #expect(without.standardError == """
            mdoc-holder: error: --credential \(run.credentialStore)/mdl.mdoc: its device key is sealed with a passphrase and none was given (--passphrase-file FILE or MDOC_KEY_PASSPHRASE)

            """, "\(without.standardError)")
        #expect(!without.standardOutput.contains("mdoc:"), "no engagement may be shown")

        let noPIN = try await run.run("mdoc-holder", ["test-reader", "--transport", "sim", "--no-qr", "--pin-file", run.home + "/no-pin"] + holder)
        #expect(noPIN.status == 7)
        #expect(noPIN.standardError.hasPrefix("mdoc-holder: error: --pin-file \(run.home)/no-pin"), "\(noPIN.standardError)")

        let (result, readers) = try await Self.run(
            run, holder: holder + ["--passphrase-file", passphrase], reader: Self.readerRequest, cases: 1)
        #expect(readers.map(\.status) == [0], "\(readers.map(\.standardError))")
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("PASSED  mDLR_Response_WellFormed ("), "\(result.standardOutput)")
    }

    @Test func withoutAReaderTheCaseIsInconclusive() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let result = try await run.run("mdoc-holder", [
            "test-reader", "--transport", "sim", "--no-qr", "--timeout", "1", "--credential", "Certs/demo/mdl.mdoc",
            "--case", "mDLR_Response_WellFormed",
        ])
        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardOutput.contains("INCONCLUSIVE  mDLR_Response_WellFormed (8.3.2.1.2.2, 9.1.1.4)\n    no response reached the reader: "),
                "\(result.standardOutput)")
        #expect(result.standardOutput.hasSuffix("0 passed, 0 failed, 1 inconclusive\n"), "\(result.standardOutput)")
    }

    @Test func anUnknownCaseIsAUsageError() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let result = try await run.run("mdoc-holder", ["test-reader", "--case", "mDLR_No\u{1b}[31mSuch"])
        #expect(result.status == 64)
        #expect(result.standardError.contains(#"the suite reader has no case mDLR_No\u{1B}[31mSuch; see 'mdoc-holder test-reader --list'"#),
                "\(result.standardError)")
    }

    /// The `number`th line of `path` that starts with `mdoc:`, once it is there.
    static func engagement(_ number: Int, in path: String) async -> String? {
        let deadline = Date().addingTimeInterval(LiveSession.waitTimeout)
        while Date() < deadline {
            let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("mdoc:") }
            if lines.count >= number { return String(lines[number - 1]) }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }
}
