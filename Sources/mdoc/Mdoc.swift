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
        version: ToolVersion.current,
        subcommands: [Inspect.self, Encode.self, Demo.self]
    )

    static func main() {
        ProgramEntry.main(Self.self)
    }
}
