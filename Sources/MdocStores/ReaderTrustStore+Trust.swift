import MdocCrypto
import MdocFiles
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReaderTrustStore {
    /// What a reader trusts from the store.
    public struct Trust: Sendable {
        /// Every anchor: the managed ones, then the certificate files of the folder.
        public let anchors: [Certificate]
        /// The document types each scoped anchor may anchor; an anchor not listed anchors any
        /// (a file of the folder, or one added without `--doc-type`).
        public let scopes: [Certificate: Set<String>]
        /// The VICALs whose next update was due at the time asked.
        public let staleVICALs: [TrustStoreIndex.VICALRecord]
        /// Where each managed anchor came from.
        public let origins: [Certificate: [TrustStoreIndex.Origin]]

        /// `policy` with every scope of ``scopes`` (`DocumentSignerPolicy.scope(_:to:)`).
        public func scoping(_ policy: DocumentSignerPolicy) -> DocumentSignerPolicy {
            var scoped = policy
            for (anchor, docTypes) in scopes { scoped.scope(anchor, to: docTypes) }
            return scoped
        }
    }

    /// The anchors a reader trusts at `time`: the managed ones with their scopes, and the
    /// self-signed certificates of the folder's files (``CertificateFiles/loadTrustAnchors(_:for:skipped:)``),
    /// which anchor any document type. `skipped` hears of the folder's files that hold no anchor.
    ///
    /// Throws `InputError` when the index or a managed certificate cannot be read, or when the
    /// store holds no anchor at all.
    public func trust(at time: Date, skipped: (String) -> Void) throws(InputError) -> Trust {
        let index = try self.index()
        var anchors: [Certificate] = []
        var scopes: [Certificate: Set<String>] = [:]
        var origins: [Certificate: [TrustStoreIndex.Origin]] = [:]
        for anchor in index.anchors {
            let certificate = try certificate(id: anchor.id)
            anchors.append(certificate)
            origins[certificate] = anchor.origins
            if let docTypes = anchor.docTypes { scopes[certificate] = docTypes }
        }
        let files = DirectoryListing.kind(of: folder) == .folder
            ? try DirectoryListing.files(in: folder, limit: Self.maximumAnchors) : []
        var loose: [Certificate] = []
        if !files.isEmpty {
            do {
                loose = try CertificateFiles.loadTrustAnchors([folder], for: .documentSigner, skipped: skipped)
            } catch {
                // Files beside a managed store that hold no root are only skipped.
                guard !anchors.isEmpty, error.code == .notATrustAnchor else { throw error }
                skipped("\(folder): skipped its files: \(error.reason)")
            }
        }
        for certificate in loose {
            // A file anchors any document type, whatever the managed part says.
            scopes[certificate] = nil
            if !anchors.contains(certificate) { anchors.append(certificate) }
        }
        guard !anchors.isEmpty else {
            throw InputError(.notATrustAnchor, source: folder, "the trust store holds no IACA root: add one with `mdoc-reader trust add` or `trust import-vical`")
        }
        let stale = index.vicals.filter { record in
            guard let nextUpdate = record.nextUpdate, let due = try? TDate(text: nextUpdate) else { return false }
            return time >= due.date
        }
        return Trust(anchors: anchors, scopes: scopes, staleVICALs: stale, origins: origins)
    }
}
