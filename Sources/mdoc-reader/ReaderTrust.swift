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

/// The trust anchors of the reader's commands: the IACA roots of `--trust` (`verify`, `request`)
/// and the reader roots of `--trust-readers` (`verify-request`), each the paths given, else its
/// environment variable, else the user's trust store (``DefaultTrust``).
enum ReaderTrust {
    /// The self-signed IACA certificates in `paths` or their default (`CertificateFiles.loadTrustAnchors`),
    /// a note on standard error for what a directory held besides and for where the default
    /// came from; a usage error when nothing names any anchor.
    static func anchors(_ paths: [String], command: String) throws(ProgramFailure) -> [Certificate] {
        let environment = ProcessInfo.processInfo.environment
        return try load(
            DefaultTrust.issuers(paths, environment: environment), option: "--trust", profile: .documentSigner, anchorName: "IACA",
            variable: DefaultTrust.issuerVariable, folder: UserDirectories(environment: environment).issuerTrust, command: command)
    }

    /// The self-signed reader root certificates in `paths` or their default, as a holder finds
    /// them (`mdoc-holder present --trust-readers`), with the same notes and usage error as
    /// ``anchors(_:command:)``.
    static func readerRoots(_ paths: [String], command: String) throws(ProgramFailure) -> [Certificate] {
        let environment = ProcessInfo.processInfo.environment
        return try load(
            DefaultTrust.readers(paths, environment: environment), option: "--trust-readers", profile: .readerAuthentication,
            anchorName: "reader",
            variable: DefaultTrust.readerVariable, folder: UserDirectories(environment: environment).readerTrust, command: command)
    }

    private static func load(
        _ trust: DefaultTrust, option: String, profile: CertificateProfile, anchorName: String, variable: String, folder: String,
        command: String
    ) throws(ProgramFailure) -> [Certificate] {
        guard !trust.paths.isEmpty else {
            throw ProgramFailure(
                .usage, "give \(option) with the \(anchorName) root certificates to trust, set \(variable), or put them in \(folder)",
                hint: "see 'mdoc-reader \(command) --help'")
        }
        if let origin = trust.origin {
            ProgramOutput.standardError.writeLine("mdoc-reader: trusting the \(anchorName) roots of \(origin)")
        }
        do {
            return try CertificateFiles.loadTrustAnchors(trust.paths, for: profile) { note in
                ProgramOutput.standardError.write("mdoc-reader: note: \(option) \(note)\n")
            }
        } catch {
            throw ProgramFailure(.badTrustInput, "\(option) \(error)")
        }
    }
}
