import ArgumentParser
import MdocFiles
import MdocModel
import MdocStores
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-reader trust`: the reader's trust store, managed.
struct Trust: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the IACA roots the reader trusts: add files, import VICALs, list, remove.",
        discussion: """
            The trust store is the folder $XDG_CONFIG_HOME/swift-mdoc/trust/iaca \
            (~/.config/swift-mdoc/trust/iaca when XDG_CONFIG_HOME is not set), or the one \
            --trust-store names. `request` and `verify` trust it when neither --trust nor \
            MDOC_TRUST names roots. Certificate files put into the folder by hand anchor any \
            document type; these commands keep the rest in its .store folder, each root with \
            where it came from (a file, or a VICAL's provider and vicalIssueID) and the document types \
            it may anchor: an IACA imported from a VICAL (ISO/IEC 18013-5 Annex C.1.7) anchors \
            only the document types its entry lists.

            Examples:
              mdoc-reader trust add Certs/demo/iaca.pem
              mdoc-reader trust import-vical provider.vical --vical-anchor vical-root.pem
              mdoc-reader trust list
              mdoc-reader trust remove 3f9a0c12
            """,
        subcommands: [TrustAdd.self, TrustImportVICAL.self, TrustList.self, TrustRemove.self]
    )

    /// The time an `--at` option names (RFC 3339), or now without one.
    static func time(_ at: String?) throws(ProgramFailure) -> Date {
        guard let at else { return Date() }
        do {
            return try TDate(text: at).date
        } catch {
            throw ProgramFailure(.usage, "--at \(at): \(error)")
        }
    }
}

/// The `--trust-store` option of the commands that read or change the store.
struct TrustStoreOption: ParsableArguments {
    @Option(name: .customLong("trust-store"), help: "The trust store folder (default: the user's, see 'mdoc-reader trust --help').",
            completion: .directory)
    var path: String?

    /// The store named, or the user's.
    var store: ReaderTrustStore {
        path.map { ReaderTrustStore(folder: $0) } ?? .standard(environment: ProcessInfo.processInfo.environment)
    }
}
