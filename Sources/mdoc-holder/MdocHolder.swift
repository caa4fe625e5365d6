import ArgumentParser
import MdocTerminal

/// `mdoc-holder`: presents ISO/IEC 18013-5 mobile documents to a reader.
@main
struct MdocHolder: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc-holder",
        abstract: "Present ISO/IEC 18013-5 mobile documents to an mdoc reader.",
        version: ToolVersion.current,
        subcommands: [Present.self]
    )
}
