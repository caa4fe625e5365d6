import ArgumentParser
import MdocCommandLine
import MdocTerminal

/// `mdoc-issuer`: a test issuing authority for ISO/IEC 18013-5 documents.
@main
struct MdocIssuer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc-issuer",
        abstract: "Make a test PKI (ISO/IEC 18013-5 Annex B), issue mobile documents with it, and sign VICALs (Annex C.1.7).",
        discussion: """
            ENVIRONMENT
              COLUMNS  The width help is wrapped to, instead of the terminal's.

            FILES
              DIR/iaca.pem, DIR/ds.pem, DIR/reader-root.pem, DIR/reader.pem  The PKI pki \
            writes and issue, vical, status-list and identifier-list read (--pki DIR), each \
            with its key, *-key.pem (mode 0600).

            EXIT STATUS
              0  Written.
              2  The data file is not valid issuer data (issue).
              7  An input is unusable (--pki, --device-key, --entry), or an output exists \
            (without --force) or cannot be written.
              64  Usage error.
            """,
        version: ToolVersion.current,
        subcommands: [PKI.self, Issue.self, VICALCommand.self, StatusListCommand.self, IdentifierListCommand.self]
    )

    static func main() {
        ProgramEntry.main(Self.self)
    }
}
