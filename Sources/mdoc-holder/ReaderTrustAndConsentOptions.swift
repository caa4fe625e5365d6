import ArgumentParser
import MdocCrypto
import MdocFiles
import MdocStores
import MdocTerminal
import MdocText

/// Whose requests a holder command trusts and who decides what is released: `--trust-readers`
/// (else `MDOC_TRUST_READERS`, else ~/.config/swift-mdoc/trust/readers when it exists,
/// ``DefaultTrust``), and `--yes` or `--policy` (else the consent prompt); for `present` and
/// `respond` alike.
struct ReaderTrustAndConsentOptions: ParsableArguments {
    @Option(name: .customLong("trust-readers"), parsing: .upToNextOption,
            help: ArgumentHelp(
                "Reader root certificates (PEM, DER or hex files, or directories, where private keys and certificates that are not self-signed roots are skipped) that make a reader trusted (default: MDOC_TRUST_READERS, else ~/.config/swift-mdoc/trust/readers).",
                valueName: "path"),
            completion: .file())
    var trustReaders: [String] = []

    @Flag(help: "Approve every requested element this holder has, without asking.")
    var yes = false

    @Option(help: "A consent policy file (JSON, see docs/consent-policy.md) that decides instead of asking.",
            completion: .file(extensions: ["json"]))
    var policy: String?

    func validate() throws {
        if yes && policy != nil {
            throw ValidationError("--yes and --policy both decide consent; give one of them")
        }
    }

    /// The reader root certificates, for the reader authentication profile; a file of the wrong
    /// kind in a folder is skipped with a note, and where the default came from is said.
    func readerRoots(environment: [String: String]) throws(ProgramFailure) -> [Certificate] {
        let trust = DefaultTrust.readers(trustReaders, environment: environment)
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

    /// Who decides: ``ConsentSource/kind(yes:policy:output:)`` of these options, the prompt on
    /// `output` when neither `--yes` nor `--policy` is given.
    func consentKind(output: ProgramOutput) throws(ProgramFailure) -> ConsentSource.Kind {
        try ConsentSource.kind(yes: yes, policy: policy, output: output)
    }
}
