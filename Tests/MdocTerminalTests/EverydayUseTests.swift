import MdocCBOR
import MdocFiles
import MdocModel
import MdocSession
import MdocStores
import MdocTerminal
import MdocText
import Testing

import Foundation

/// The pieces of MdocTerminal that make the programs pleasant to use day to day: colour for
/// verdicts, one list of doc-type short names, plurals, where things are kept and whether an
/// output file can be written.
@Suite struct EverydayUseTests {
    // MARK: Colour

    @Test(arguments: [
        (true, [String: String](), true),
        (false, [:], false),
        (true, ["NO_COLOR": "1"], false),
        (true, ["NO_COLOR": ""], true),
        (true, ["TERM": "dumb"], false),
        (false, ["CLICOLOR_FORCE": "1"], true),
        (false, ["CLICOLOR_FORCE": "0"], false),
        (false, ["CLICOLOR_FORCE": "1", "NO_COLOR": "yes"], false),
    ])
    func colourIsForTerminalsUnlessNoColor(isTerminal: Bool, environment: [String: String], wanted: Bool) {
        #expect(TerminalPalette.isColourWanted(isTerminal: isTerminal, environment: environment) == wanted)
    }

    @Test func verdictsAreColouredAndPeerTextStaysEscaped() {
        let forgery = "\u{1B}[32mok\u{1B}[0m"
        var document = DocumentReport(index: 0, docType: "org.iso.18013.5.1.mDL")
        document.checks = [
            VerificationCheck(.issuerSignature, subject: .issuerAuth, outcome: .passed),
            VerificationCheck(.deviceAuthentication, subject: .deviceAuth, outcome: .skipped("no transcript")),
            VerificationCheck(.validity, subject: .named(forgery), outcome: .failed(.expired, "expired")),
        ]
        document.elements = [
            DisclosedElement(nameSpace: "org.iso.18013.5.1", identifier: forgery, value: .textString(forgery), source: .issuerSigned,
                             digestID: 1, issuerAuthenticated: true, verified: false),
        ]
        let report = VerificationReport(version: "1.0", status: 0, time: Date(timeIntervalSince1970: 0), documents: [document],
                                        documentErrors: [])
        let plain = ReportRenderer.text(report).description
        let coloured = ReportRenderer.text(report, palette: .coloured).description
        #expect(!plain.contains("\u{1B}"))
        #expect(coloured.contains("    \u{1B}[32mok\u{1B}[0m   issuer signature"))
        #expect(coloured.contains("    \u{1B}[33m--\u{1B}[0m   device authentication"))
        #expect(coloured.contains("    \u{1B}[1;31mFAIL\u{1B}[0m validity"))
        #expect(coloured.contains("    \u{1B}[33miss\u{1B}[0m  \\u{1B}[32mok\\u{1B}[0m"))
        #expect(coloured.contains(": \u{1B}[1;31mFAILED (issuer data authentication)\u{1B}[0m\n"))
        // Without the escape sequences the coloured text is the plain text: same columns.
        let stripped = coloured.replacingOccurrences(of: "\u{1B}[32m", with: "").replacingOccurrences(of: "\u{1B}[33m", with: "")
            .replacingOccurrences(of: "\u{1B}[1;31m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(stripped == plain)
        // The only escape sequences are the palette's: the peer's ESC is shown as \u{1B}.
        #expect(coloured.components(separatedBy: "\u{1B}").count - 1 == 2 * 6)
    }

    // MARK: Doc type names

    @Test func shortNamesAreOneList() {
        #expect(DocTypeNames.docType(for: "mdl") == DocType.mDL)
        #expect(DocTypeNames.docType(for: "PID") == DocType.eudiPID)
        #expect(DocTypeNames.docType(for: "av") == DocType.euAgeVerification)
        #expect(DocTypeNames.docType(for: "org.example.membership.1") == "org.example.membership.1")
        #expect(DocTypeNames.nameSpace(of: DocType.eudiPID) == NameSpace.eudiPID)
        #expect(DocTypeNames.nameSpace(of: "org.example.membership.1") == nil)
        #expect(DocTypeNames.listText == "mdl (org.iso.18013.5.1.mDL), pid (eu.europa.ec.eudi.pid.1), av (eu.europa.ec.av.1)")
        #expect(DocTypeNames.isQualified("org.example.membership.1"))
        #expect(!DocTypeNames.isQualified("pdi") && !DocTypeNames.isQualified(".x") && !DocTypeNames.isQualified("x."))
    }

    @Test func countsAgreeWithTheirNouns() {
        #expect(TerminalText(count: 1, "data element").description == "1 data element")
        #expect(TerminalText(count: 0, "data element").description == "0 data elements")
        #expect(TerminalText(count: 26, "name space").description == "26 name spaces")
    }

    // MARK: Where things are kept

    @Test func directoriesFollowXDG() {
        let defaults = UserDirectories(environment: ["HOME": "/home/jane"])
        #expect(defaults.credentials == "/home/jane/.local/share/swift-mdoc/credentials")
        #expect(defaults.issuerTrust == "/home/jane/.config/swift-mdoc/trust/iaca")
        #expect(defaults.readerTrust == "/home/jane/.config/swift-mdoc/trust/readers")
        let set = UserDirectories(environment: ["HOME": "/home/jane", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/config"])
        #expect(set.credentials == "/data/swift-mdoc/credentials")
        #expect(set.issuerTrust == "/config/swift-mdoc/trust/iaca")
        // Relative or empty values are ignored, as the specification says.
        let relative = UserDirectories(environment: ["HOME": "/home/jane", "XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": ""])
        #expect(relative == defaults)
    }

    @Test func trustComesFromTheOptionThenTheVariableThenTheStore() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-trust-\(UUID().uuidString)").path
        let option = DefaultTrust(option: ["a.pem"], variable: "V", folder: store, environment: ["V": "b.pem"])
        #expect(option.paths == ["a.pem"] && option.origin == nil)
        let variable = DefaultTrust(option: [], variable: "V", folder: store, environment: ["V": "b.pem:c:"])
        #expect(variable.paths == ["b.pem", "c"] && variable.origin == "V")
        let none = DefaultTrust(option: [], variable: "V", folder: store, environment: ["V": ""])
        #expect(none.paths.isEmpty && none.origin == nil)
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: store) }
        let folder = DefaultTrust(option: [], variable: "V", folder: store, environment: [:])
        #expect(folder.paths == [store] && folder.origin == "the trust store \(store)")
    }

    @Test func credentialNames() {
        #expect(CredentialStore.isValidName("mdl"))
        #expect(CredentialStore.isValidName("my-licence_2.v1"))
        #expect(CredentialStore.isValidName(String(repeating: "a", count: CredentialStore.maximumNameLength)))
        #expect(!CredentialStore.isValidName(String(repeating: "a", count: CredentialStore.maximumNameLength + 1)))
        for name in ["", ".hidden", "a/b", "a b", "é", "..", "a\u{1B}"] {
            #expect(!CredentialStore.isValidName(name), "\(name)")
        }
        #expect(CredentialStore.defaultName(forFile: "Certs/demo/mdl.mdoc") == "mdl")
        #expect(CredentialStore.defaultName(forFile: "licence") == "licence")
        #expect(CredentialStore.defaultName(forFile: ".mdoc") == ".mdoc")
    }

    // MARK: Output files

    @Test func anOutputFileIsCheckedBeforeTheWork() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-out-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try OutputFile.checkWritable(folder + "/p.jpg", option: "--portrait-out")
        try OutputFile.checkWritable("p.jpg", option: "--portrait-out")

        let missing = try #require(throws: ProgramFailure.self) {
            try OutputFile.checkWritable("/nonexistent/p.jpg", option: "--portrait-out")
        }
        #expect(missing.status == .badTrustInput)
        #expect(missing.message.description == "--portrait-out /nonexistent/p.jpg: the folder /nonexistent does not exist")
        let aFolder = try #require(throws: ProgramFailure.self) { try OutputFile.checkWritable(folder, option: "--qr-png") }
        #expect(aFolder.message.description == "--qr-png \(folder): is a folder; give a file name")
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        let underAFile = try #require(throws: ProgramFailure.self) {
            try OutputFile.checkWritable(folder + "/file/p.jpg", option: "--portrait-out")
        }
        #expect(underAFile.message.description == "--portrait-out \(folder)/file/p.jpg: \(folder)/file is not a folder")
    }
}

