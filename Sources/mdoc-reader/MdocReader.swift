import ArgumentParser
import MdocCommandLine
import MdocTerminal

/// `mdoc-reader`: the ISO/IEC 18013-5 mdoc reader.
@main
struct MdocReader: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc-reader",
        abstract: "Read and verify ISO/IEC 18013-5 mobile documents.",
        version: ToolVersion.current,
        subcommands: [Request.self, Verify.self, VerifyRequest.self, Scan.self, TestHolder.self, Trust.self]
    )

    static func main() async {
        await ProgramEntry.main(Self.self)
    }
}
