import ArgumentParser
import MdocCrypto
import MdocFiles
import MdocSession
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

    /// The IACA roots of `request` and `verify` and `policy` with the trust store's scopes:
    /// `--trust` (or `MDOC_TRUST`) as ``anchors(_:command:)`` reads them, anchoring any
    /// document type; else the trust store (`--trust-store`, else the user's), each root
    /// scoped to the document types its sources give (ISO/IEC 18013-5 Annex C.1.7). A VICAL
    /// of the store that is stale at `time` is reported; under ``StaleVICALPolicy/refuse`` the
    /// roots only it gives are not trusted.
    static func issuers(
        _ paths: [String], store option: TrustStoreChoice, policy: DocumentSignerPolicy, at time: Date, command: String
    ) throws(ProgramFailure) -> IssuerTrust {
        let environment = ProcessInfo.processInfo.environment
        if option.path != nil, !paths.isEmpty {
            throw ProgramFailure(.usage, "give --trust or --trust-store, not both", hint: "see 'mdoc-reader \(command) --help'")
        }
        let store: ReaderTrustStore
        if let path = option.path {
            store = ReaderTrustStore(folder: path)
        } else if !paths.isEmpty || !(environment[DefaultTrust.issuerVariable] ?? "").isEmpty {
            return IssuerTrust(anchors: try anchors(paths, command: command), policy: policy, entries: [:])
        } else {
            store = .standard(environment: environment)
            guard DirectoryListing.kind(of: store.folder) == .folder else {
                return IssuerTrust(anchors: try anchors(paths, command: command), policy: policy, entries: [:])
            }
        }
        ProgramOutput.standardError.writeProgressLine("mdoc-reader: trusting the IACA roots of the trust store \(store.folder)")
        let trust: ReaderTrustStore.Trust
        do {
            trust = try store.trust(at: time) { note in
                ProgramOutput.standardError.write("mdoc-reader: note: the trust store \(note)\n")
            }
        } catch {
            throw ProgramFailure(.badTrustInput, "the trust store \(error)")
        }
        var anchors = trust.anchors
        for record in trust.staleVICALs {
            let only = anchors.filter { anchor in
                guard let origins = trust.origins[anchor], !origins.isEmpty else { return false }
                return origins.allSatisfy { origin in
                    if case .vical(record.provider, _) = origin.source { return true }
                    return false
                }
            }
            switch option.stale {
            case .warn:
                ProgramOutput.standardError.writeLine(
                    "mdoc-reader: warning: the VICAL of \(record.provider) in the trust store is stale: its next update was due \(record.nextUpdate ?? "")")
            case .refuse:
                ProgramOutput.standardError.writeLine(
                    "mdoc-reader: not trusting the \(TerminalText(count: only.count, "IACA root")) only the stale VICAL of \(record.provider) gives (next update due \(record.nextUpdate ?? ""))")
                anchors.removeAll { only.contains($0) }
            }
        }
        guard !anchors.isEmpty else {
            throw ProgramFailure(.badTrustInput, "the trust store \(store.folder) leaves no IACA root to trust", hint: "import a newer VICAL, or give --stale-vical warn")
        }
        var entries: [Certificate: TrustEntry] = [:]
        for anchor in anchors {
            let origins = trust.origins[anchor] ?? []
            let summary = origins.isEmpty
                ? "a file in the trust store folder"
                : origins.map { origin in
                    switch origin.source {
                    case .file(let path): return "the file \(path)"
                    case .vical(let provider, let issueID): return "the VICAL of \(TrustStoreIndex.vicalName(provider: provider, issueID: issueID))"
                    }
                }.joined(separator: " and ")
            entries[anchor] = TrustEntry(
                id: ReaderTrustStore.id(of: anchor), docTypes: trust.scopes[anchor].map { $0.sorted() }, sources: origins.map(\.json),
                summary: summary)
        }
        return IssuerTrust(anchors: anchors, policy: trust.scoping(policy), entries: entries)
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
            ProgramOutput.standardError.writeProgressLine("mdoc-reader: trusting the \(anchorName) roots of \(origin)")
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

/// Which trust store `request` and `verify` read when no `--trust` is given, and what to do with
/// its stale VICALs.
struct TrustStoreChoice: ParsableArguments {
    @Option(name: .customLong("trust-store"),
            help: "The trust store folder to trust when no --trust is given (default: MDOC_TRUST, else ~/.config/swift-mdoc/trust/iaca; see 'mdoc-reader trust --help').",
            completion: .directory)
    var path: String?

    @Option(name: .customLong("stale-vical"), help: "What to do with the roots of a trust store VICAL past its nextUpdate: warn and trust them, or refuse them.")
    var stale: StaleVICALPolicy = .warn
}

/// The IACA roots `request` and `verify` trust, the document signer policy with their scopes,
/// and, for the roots of the trust store, where each came from (for the report).
struct IssuerTrust {
    let anchors: [Certificate]
    let policy: DocumentSignerPolicy
    let entries: [Certificate: TrustEntry]
}
