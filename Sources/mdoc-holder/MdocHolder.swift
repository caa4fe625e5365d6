import ArgumentParser
import MdocCommandLine
import MdocTerminal

/// `mdoc-holder`: presents ISO/IEC 18013-5 mobile documents to a reader, and keeps them.
@main
struct MdocHolder: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc-holder",
        abstract: "Present ISO/IEC 18013-5 mobile documents to an mdoc reader.",
        version: ToolVersion.current,
        subcommands: [Present.self, List.self, Show.self, Import.self, Remove.self, Key.self]
    )

    static func main() async {
        await ProgramEntry.main(Self.self)
    }
}
