import MdocCrypto
import MdocFiles
import MdocStores
import MdocTerminal
import MdocText

/// The reader roots a holder command trusts: `--trust-readers`, else `MDOC_TRUST_READERS`, else
/// ~/.config/swift-mdoc/trust/readers when it exists (``DefaultTrust``), for `present` and
/// `respond` alike.
enum ReaderRoots {
    /// The root certificates of `option` (or the default), for the reader authentication
    /// profile; a file of the wrong kind in a folder is skipped with a note, and where the
    /// default came from is said.
    static func load(_ option: [String], environment: [String: String]) throws(ProgramFailure) -> [Certificate] {
        let trust = DefaultTrust.readers(option, environment: environment)
        let anchors: [Certificate]
        do {
            anchors = try CertificateFiles.loadTrustAnchors(trust.paths, for: .readerAuthentication) { note in
                ProgramOutput.standardError.write("mdoc-holder: note: --trust-readers \(note)\n")
            }
        } catch {
            throw ProgramFailure(.badTrustInput, "--trust-readers \(error)")
        }
        if let origin = trust.origin {
            ProgramOutput.standardError.writeProgressLine("mdoc-holder: trusting the reader roots of \(origin)")
        }
        return anchors
    }
}
