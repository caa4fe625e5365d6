import MdocCrypto
import MdocTerminal

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The IACA trust anchors of `--trust`, shared by `verify` and `request`: the paths given, else
/// `MDOC_TRUST`, else the user's trust store (``DefaultTrust``).
enum ReaderTrust {
    /// The self-signed IACA certificates in `paths` or their default (`CertificateFiles.loadTrustAnchors`),
    /// a note on standard error for what a directory held besides and for where the default
    /// came from; a usage error when nothing names any anchor.
    static func anchors(_ paths: [String], command: String) throws(ProgramFailure) -> [Certificate] {
        let environment = ProcessInfo.processInfo.environment
        let trust = DefaultTrust.issuers(paths, environment: environment)
        guard !trust.paths.isEmpty else {
            throw ProgramFailure(
                .usage,
                "give --trust with the IACA root certificates to trust, set \(DefaultTrust.issuerVariable), or put them in \(UserDirectories(environment: environment).issuerTrust)",
                hint: "see 'mdoc-reader \(command) --help'")
        }
        if let origin = trust.origin {
            ProgramOutput.standardError.writeLine("mdoc-reader: trusting the IACA roots of \(origin)")
        }
        do {
            return try CertificateFiles.loadTrustAnchors(trust.paths, for: .documentSigner) { note in
                ProgramOutput.standardError.write("mdoc-reader: note: --trust \(note)\n")
            }
        } catch {
            throw ProgramFailure(.badTrustInput, "--trust \(error)")
        }
    }
}
