import ArgumentParser
import MdocCrypto
import MdocFiles
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-reader trust add`: IACA roots from files into the trust store.
struct TrustAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add IACA root certificates to the trust store.",
        discussion: """
            Each FILE holds certificates (PEM, DER or hex DER), each a self-signed IACA root. \
            With --doc-type the roots anchor only those document types; without, any. A root \
            already in the store keeps its other sources: the document types it may anchor \
            are those of all of them.

            Examples:
              mdoc-reader trust add Certs/demo/iaca.pem
              mdoc-reader trust add pid-provider.pem --doc-type eu.europa.ec.eudi.pid.1

            Exit codes: 0 added; 7 a file holds no root, or the store cannot be written; 64 \
            usage error.
            """
    )

    @Argument(help: ArgumentHelp("Certificate files.", valueName: "file"), completion: .file(extensions: ["pem", "der", "crt", "cer"]))
    var files: [String]

    @Option(name: .customLong("doc-type"), parsing: .singleValue, help: "A document type the roots may anchor; repeat for several (default: any).")
    var docTypes: [String] = []

    @OptionGroup var trustStore: TrustStoreOption

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one certificate file") }
        if let empty = docTypes.first(where: { $0.isEmpty || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
            throw ValidationError("--doc-type \"\(empty)\": a document type is non-empty text without control characters")
        }
    }

    func run() {
        ProgramFailure.reporting(program: "mdoc-reader") { () throws(ProgramFailure) in
            let store = trustStore.store
            for file in files {
                let certificates: [Certificate]
                do {
                    certificates = try CertificateFiles.loadFile(file)
                } catch {
                    throw ProgramFailure(.badTrustInput, "\(error)")
                }
                let anchors = try store.add(certificates, from: Self.absolute(file), docTypes: docTypes.isEmpty ? nil : docTypes)
                for anchor in anchors {
                    ProgramOutput.standardOutput.writeLine(
                        "Added \(anchor.subject) (\(TrustList.shortID(anchor.id))) from \(file), anchoring \(TrustList.scope(anchor.docTypes))")
                }
            }
            ProgramOutput.standardOutput.writeLine("Trust store: \(store.folder)")
        }
    }

    /// `path` from the root, as the store keeps it.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
