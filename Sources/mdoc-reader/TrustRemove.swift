import ArgumentParser
import MdocFiles
import MdocStores
import MdocTerminal
import MdocText

/// `mdoc-reader trust remove`: anchors, or a provider's VICAL, out of the trust store.
struct TrustRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove IACA roots, or a provider's VICAL and the roots it gave, from the trust store.",
        discussion: """
            ID is an identifier `trust list` shows (at least 8 of its hexadecimal digits): the \
            root goes, with all its sources. --vical PROVIDER removes that provider's VICAL; \
            the roots it gave stay only as far as another source gives them. Files put into \
            the folder by hand are not touched: delete them.

            Examples:
              mdoc-reader trust remove 3f9a0c12
              mdoc-reader trust remove --vical "Test provider"

            Exit codes: 0 removed; 7 the store cannot be written; 64 no such root or VICAL, or \
            usage error.
            """
    )

    @Argument(help: ArgumentHelp("Identifiers of roots, as `trust list` shows them.", valueName: "id"))
    var ids: [String] = []

    @Option(name: .customLong("vical"), help: "The provider whose VICAL to remove.")
    var provider: String?

    @OptionGroup var trustStore: TrustStoreOption

    func validate() throws {
        guard ids.isEmpty != (provider == nil) else { throw ValidationError("give identifiers or --vical PROVIDER, not both") }
    }

    func run() {
        ProgramFailure.reporting(program: "mdoc-reader") { () throws(ProgramFailure) in
            let store = trustStore.store
            if let provider {
                let record = try store.removeVICAL(provider: provider)
                ProgramOutput.standardOutput.writeLine(
                    "Removed the VICAL of \(TrustStoreIndex.vicalName(provider: record.provider, issueID: record.issueID)) and the roots only it gave")
                return
            }
            for anchor in try store.remove(ids: ids) {
                ProgramOutput.standardOutput.writeLine("Removed \(anchor.subject) (\(TrustList.shortID(anchor.id)))")
            }
        }
    }
}
