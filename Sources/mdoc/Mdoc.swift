import ArgumentParser
import MdocCBOR
import MdocCommandLine
import MdocTerminal

/// `mdoc`: general tools for ISO/IEC 18013-5 messages.
@main
struct Mdoc: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc",
        abstract: "Tools for ISO/IEC 18013-5 mobile document (mdoc) messages.",
        discussion: """
            ENVIRONMENT
              MDOC_SIM_NAMESPACE  Keeps the sim transport's sockets apart from other runs': a \
            holder and a reader meet only when both have the same value.
              NO_COLOR  Set and not empty: no colour in demo's report (no-color.org).
              CLICOLOR_FORCE  Set and neither empty nor 0: colour in output that is not a \
            terminal; NO_COLOR still wins.
              COLUMNS  The width demo's QR code must fit and help is wrapped to, instead of the \
            terminal's.

            FILES
              PREFIX/share/swift-mdoc/Samples/mdl.json  The demo mDL's data, which demo issues \
            when its --dir has no credential and the working directory no Samples/mdl.json.

            EXIT STATUS
              0  Decoded (inspect), encoded (encode), or verified (demo).
              2  The input is not readable or not what it should be.
              3, 4, 6, 8  demo: those of mdoc-reader request.
              7  An output cannot be written (encode --out), or an input of demo is unusable.
              64  Usage error.
              130  demo interrupted by Ctrl-C (SIGINT).
              143  demo ended by SIGTERM.
            """,
        version: ToolVersion.current,
        subcommands: [Inspect.self, Encode.self, Demo.self]
    )

    static func main() {
        ProgramEntry.main(Self.self)
    }
}
