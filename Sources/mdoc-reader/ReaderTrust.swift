import MdocCrypto
import MdocTerminal

/// The IACA trust anchors of `--trust`, shared by `verify` and `request`.
enum ReaderTrust {
    /// The self-signed IACA certificates in `paths` (`CertificateFiles.loadTrustAnchors`),
    /// a note on standard error for what a directory held besides.
    static func anchors(_ paths: [String]) throws(ProgramFailure) -> [Certificate] {
        do {
            return try CertificateFiles.loadTrustAnchors(paths, for: .documentSigner) { note in
                ProgramOutput.standardError.write("mdoc-reader: note: --trust \(note)\n")
            }
        } catch {
            throw ProgramFailure(.badTrustInput, "--trust \(error)")
        }
    }
}
