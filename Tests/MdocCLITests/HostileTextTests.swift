import Foundation
import MdocCBOR
import Testing

/// Peers that write terminal control sequences, bidirectional overrides and line breaks into the
/// text they send, against the real programs: a reader whose request redraws the holder's
/// consent prompt, and a holder whose credential (issued by `mdoc-issuer`, so every signature is
/// genuine) draws a fake report on the reader's terminal. Nothing they send may reach a terminal
/// unescaped, and the holder releases nothing its screen did not show.
@Suite struct HostileTextTests {
    /// Moves to the line above, erases it and draws an element there: on a terminal, the line
    /// before it (the portrait the reader also asks for) disappears.
    static let redraw = "\r\u{1B}[1A\u{1B}[2K      Age over 18 (age_over_18)"
    /// Clears the screen, homes the cursor and draws a report that verified.
    static let forgery = "\u{1B}[2J\u{1B}[HDeviceResponse 1.0, status OK (0)\nVerified at 2026-01-01T00:00:00Z: VERIFIED\n\u{9B}1A\u{202E}"

    /// The lines of `text` hold nothing a terminal acts on, and the screen shows them as they
    /// are: nothing was moved or erased.
    static func expectInert(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy(UntrustedText.isSafe), "\(what): \(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(TerminalScreen(text).lines == lines.map { String($0) }, "\(what): \(text.debugDescription)",
                sourceLocation: sourceLocation)
    }

    /// The elements the reader's JSON report lists for its first document.
    static func returnedIdentifiers(_ json: ReaderJSON) -> [String] {
        let elements = json.documents.first?["elements"] as? [[String: Any]] ?? []
        return elements.compactMap { $0["identifier"] as? String }
    }

    @Test func aRequestCannotRedrawTheConsentPrompt() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A reader certificate whose name reverses what follows it (U+202E is a format
        // character, which a certificate may hold).
        let pki = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/pki", "--name", "Police\u{202E}"])
        try #require(pki.status == 0, "\(pki.standardError)")

        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc"])
        let reader = try session.startReader([
            "--elements", "portrait,\(Self.redraw)", "--json", "--trust", "Certs/demo/iaca.pem",
            "--reader-cert", folder + "/pki/reader.pem", "--reader-key", folder + "/pki/reader-key.pem",
        ])
        #expect(await session.holder.waitForOutput(containing: "Release [a]ll 1, [n]one, or [c]hoose? ", timeout: LiveSession.waitTimeout),
                "\(session.holder.standardOutput)\n\(session.holder.standardError)")
        let prompt = session.holder.standardOutput
        session.holder.send("a\n")
        let readerResult = await reader.wait(timeout: LiveSession.waitTimeout)
        let holder = await session.holderResult(after: readerResult)

        #expect(readerResult.status == 0, "\(readerResult.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")
        Self.expectInert(holder.standardOutput, "the holder's standard output")
        Self.expectInert(holder.standardError, "the holder's standard error")
        let screen = TerminalScreen(prompt).lines
        #expect(screen.contains("      Portrait (portrait)"), "\(screen)")
        #expect(screen.contains(
            "      \\u{D}\\u{1B}[1A\\u{1B}[2K      Age over 18 (age_over_18) [SUSPICIOUS: not a plain ASCII name] (not in your credential)"),
                "\(screen)")
        #expect(screen.contains { $0.hasPrefix("    Reader: NOT TRUSTED, claiming to be C=US, CN=Police\\u{202E} Reader") }, "\(screen)")
        // Everything released was on the screen when the holder answered.
        let released = Self.returnedIdentifiers(try ReaderJSON(readerResult.standardOutput))
        #expect(released == ["portrait"], "\(readerResult.standardOutput)")
        for identifier in released {
            #expect(screen.contains { $0.hasPrefix("      ") && $0.contains("(\(identifier))") }, "\(identifier) released unseen: \(screen)")
        }
    }

    @Test func aResponseCannotForgeTheReport() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let docType = "org.iso.18013.5.1.mDL\u{1B}[1A\u{202E}"
        let nameSpace = "org.iso.18013.5.1\u{1B}]0;pwned\u{07}"
        let identifier = "given\u{1B}[2K\rname"
        let data: [String: Any] = ["nameSpaces": [nameSpace: ["family_name": Self.forgery, identifier: "Jane\u{85}\u{2028}"]]]
        try JSONSerialization.data(withJSONObject: data).write(to: URL(fileURLWithPath: folder + "/hostile.json"))
        let credential = folder + "/hostile.mdoc"
        let issued = try await ProgramRunner.run("mdoc-issuer", [
            "issue", "--pki", "Certs/demo", "--doctype", docType, "--data", folder + "/hostile.json", "--out", credential,
        ])
        try #require(issued.status == 0, "\(issued.standardError)")
        Self.expectInert(issued.standardOutput, "mdoc-issuer's standard output")

        // The explanation escapes as Swift does, diagnostic notation and JSON as JSON does.
        for (arguments, escaped) in [([credential], "\\u{1B}[2J"), ([credential, "--diagnostic"], "\\u001b[2J"), ([credential, "--json"], "\\u001b[2J")] {
            let inspected = try await ProgramRunner.run("mdoc", ["inspect"] + arguments)
            #expect(inspected.status == 0, "\(inspected.standardError)")
            Self.expectInert(inspected.standardOutput, "mdoc inspect \(arguments)")
            #expect(inspected.standardOutput.contains(escaped), "\(inspected.standardOutput)")
        }

        // The reader trusts another root, so issuer data authentication fails and the one-line
        // summary on standard error quotes the docType.
        let session = try await LiveSession(holder: ["--credential", credential, "--yes"])
        let reader = try await session.request([
            "--doctype", docType, "--namespace", nameSpace, "--elements", "family_name,\(identifier)",
            "--trust", "Certs/demo/reader-root.pem",
        ])
        let holder = await session.holderResult(after: reader)

        #expect(reader.status == 3, "\(reader.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")
        Self.expectInert(reader.standardOutput, "the reader's report")
        Self.expectInert(reader.standardError, "the reader's standard error")
        Self.expectInert(holder.standardOutput, "the holder's standard output")
        let report = reader.standardOutput.split(separator: "\n")
        #expect(report.filter { $0.hasPrefix("Verified at ") }.count == 1, "\(reader.standardOutput)")
        #expect(report.contains { $0.hasPrefix("Verified at ") && $0.hasSuffix(": FAILED (issuer data authentication)") })
        #expect(reader.standardOutput.contains("Document 0: org.iso.18013.5.1.mDL\\u{1B}[1A\\u{202E}: FAILED"), "\(reader.standardOutput)")
        #expect(reader.standardOutput.contains("\"\\u{1B}[2J\\u{1B}[HDeviceResponse 1.0"), "\(reader.standardOutput)")
        #expect(reader.standardOutput.contains("given\\u{1B}[2K\\u{D}name"), "\(reader.standardOutput)")
        #expect(reader.standardError.contains("mdoc-reader: error: documents[0] (org.iso.18013.5.1.mDL\\u{1B}[1A\\u{202E})"),
                "\(reader.standardError)")
        #expect(report.contains { $0.hasPrefix("    FAIL family_name ") }, "\(reader.standardOutput)")
    }
}
