import ArgumentParser
import MdocCommandLine
import MdocTerminal

/// `mdoc-issuer`: a test issuing authority for ISO/IEC 18013-5 documents.
@main
struct MdocIssuer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc-issuer",
        abstract: "Make a test PKI (ISO/IEC 18013-5 Annex B) and issue mobile documents with it.",
        version: ToolVersion.current,
        subcommands: [PKI.self, Issue.self]
    )

    static func main() {
        ProgramEntry.main(Self.self)
    }
}
