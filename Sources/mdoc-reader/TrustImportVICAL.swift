import ArgumentParser
import MdocCrypto
import MdocFiles
import MdocModel
import MdocSession
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-reader trust import-vical`: a provider's VICAL into the trust store.
struct TrustImportVICAL: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-vical",
        abstract: "Verify a signed VICAL and trust its IACAs for the document types it lists.",
        discussion: """
            FILE is a signed VICAL (ISO/IEC 18013-5 Annex C.1.7: a COSE_Sign1 whose x5chain \
            holds the VICAL signer). It is verified with --vical-anchor, the provider's root \
            (the signer's chain must validate to it, extended key usage 1.0.18013.5.1.8) or \
            the signer certificate itself (pinned); without it, with the anchor stored when \
            the provider's last VICAL was imported. Each entry whose fields match its \
            certificate, a valid self-signed IACA, is trusted for the document types the entry \
            lists; the others are listed with why. The provider's IACAs from an earlier VICAL \
            are replaced. Refused: a VICAL that does not verify, an issue older than the one \
            imported, and, unless --stale-vical warn, a stale one (past its nextUpdate).

            Examples:
              mdoc-reader trust import-vical aamva.vical --vical-anchor aamva-vical-root.pem
              mdoc-reader trust import-vical test.vical --vical-anchor signer.pem --at 2025-06-01T00:00:00Z

            Exit codes: 0 imported; 2 not a signed VICAL; 7 it does not verify, is stale or \
            older, or the store cannot be written; 64 usage error.
            """
    )

    @Argument(help: ArgumentHelp("The signed VICAL.", valueName: "file"), completion: .file())
    var file: String

    @Option(name: .customLong("vical-anchor"), help: "The VICAL provider's root or VICAL signer certificate (PEM or DER).",
            completion: .file(extensions: ["pem", "der", "crt", "cer"]))
    var vicalAnchor: String?

    @Option(help: "The verification time, RFC 3339 (default: now).")
    var at: String?

    @Option(name: .customLong("stale-vical"), help: "What to do with a VICAL past its nextUpdate.")
    var stale: StaleVICALPolicy = .refuse

    @OptionGroup var trustStore: TrustStoreOption

    func run() {
        ProgramFailure.reporting(program: "mdoc-reader") { () throws(ProgramFailure) in
            let time = try Trust.time(at)
            var anchor: Certificate? = nil
            if let vicalAnchor {
                do {
                    let certificates = try CertificateFiles.loadFile(vicalAnchor)
                    guard certificates.count == 1, let only = certificates.first else {
                        throw ProgramFailure(.badTrustInput, "--vical-anchor \(vicalAnchor): holds \(certificates.count) certificates, expected one")
                    }
                    anchor = only
                } catch let error as InputError {
                    throw ProgramFailure(.badTrustInput, "--vical-anchor \(error)")
                } catch let failure as ProgramFailure {
                    throw failure
                } catch {
                    throw ProgramFailure(.badTrustInput, "--vical-anchor \(vicalAnchor): \(error)")
                }
            }
            let bytes: [UInt8]
            do {
                bytes = try InputSource.load(file).bytes
            } catch {
                throw ProgramFailure(.badTrustInput, "\(error)")
            }
            let store = trustStore.store
            let imported = try store.importVICAL(bytes, source: file, anchor: anchor, at: time, acceptingStale: stale == .warn)
            Self.show(imported, store: store)
        }
    }

    /// What was imported and what was not.
    static func show(_ imported: ReaderTrustStore.VICALImport, store: ReaderTrustStore) {
        let record = imported.record
        let verification = imported.verification
        let out = ProgramOutput.standardOutput
        let signer = verification.signerIsPinned ? "its pinned signer" : "\(verification.signer?.subject ?? "")"
        out.writeLine("Imported the VICAL of \(TrustStoreIndex.vicalName(provider: record.provider, issueID: record.issueID)) of \(record.date), signed by \(signer)")
        if let replaced = imported.replaced {
            out.writeLine("  in place of the one\(replaced.issueID.map { " of vicalIssueID \($0)" } ?? "") of \(replaced.date)")
        }
        if verification.isStale {
            ProgramOutput.standardError.writeLine("mdoc-reader: warning: the VICAL is stale: its next update was due \(record.nextUpdate ?? "")")
        } else if let nextUpdate = record.nextUpdate {
            out.writeLine("  next update due \(nextUpdate)")
        }
        out.writeLine("  trusted \(record.trusted) of \(TerminalText(count: record.entries, "IACA")):")
        for entry in verification.trustedEntries {
            out.writeLine("    \(entry.certificate?.subject ?? "")  for \(entry.docTypes.joined(separator: ", "))")
        }
        for entry in verification.entries where !entry.isUsable {
            let subject = entry.certificate?.subject ?? "entry \(entry.index)"
            out.writeLine("  not trusted: \(subject): \(entry.problems.map(\.description).joined(separator: "; "))")
        }
        out.writeLine("Trust store: \(store.folder)")
    }
}

/// What to do with a VICAL past its nextUpdate (ISO/IEC 18013-5 Annex C.1.7).
enum StaleVICALPolicy: String, ExpressibleByArgument, CaseIterable {
    /// Use it, with a warning.
    case warn
    /// Do not use it.
    case refuse
}
