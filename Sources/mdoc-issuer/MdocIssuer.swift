import ArgumentParser
import MdocCommandLine
import MdocTerminal

/// `mdoc-issuer`: a test issuing authority for ISO/IEC 18013-5 documents.
@main
struct MdocIssuer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc-issuer",
        abstract: "Make a test PKI (ISO/IEC 18013-5 Annex B), issue mobile documents with it, and sign VICALs (Annex C.1.7).",
        version: ToolVersion.current,
        subcommands: [PKI.self, Issue.self, VICALCommand.self, StatusListCommand.self, IdentifierListCommand.self]
    )

    static func main() {
        ProgramEntry.main(Self.self)
    }
}
