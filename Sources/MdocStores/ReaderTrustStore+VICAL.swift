import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocModel
import MdocSession
import MdocText

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReaderTrustStore {
    /// What ``importVICAL(_:source:anchor:at:acceptingStale:)`` did.
    public struct VICALImport: Sendable {
        /// The verification of the list, every entry with its problems.
        public let verification: VICALVerification
        /// The record the index keeps of it.
        public let record: TrustStoreIndex.VICALRecord
        /// The issue of the same provider it replaced, if any.
        public let replaced: TrustStoreIndex.VICALRecord?
    }

    /// Verifies the signed VICAL `bytes` (ISO/IEC 18013-5 Annex C.1.7) at `time` with `anchor`
    /// (the provider's root, or its signer pinned), or, without one, with the anchor stored when
    /// this provider's list was last imported; then makes its trusted entries the anchors of this
    /// provider, each scoped to the document types its entry lists, in place of those of the
    /// provider's previous list.
    ///
    /// Refused, with the store unchanged: a list that does not decode or verify; a stale list
    /// (at or past `nextUpdate`) unless `acceptingStale`; an issue older than the one stored for
    /// the provider (a rollback).
    public func importVICAL(
        _ bytes: [UInt8], source: String, anchor: Certificate?, at time: Date, acceptingStale: Bool
    ) throws(ProgramFailure) -> VICALImport {
        let signed: SignedVICAL
        do {
            signed = try SignedVICAL(encoded: bytes)
        } catch {
            throw ProgramFailure(.malformedInput, "\(source): not a signed VICAL: \(error)")
        }
        let vical = signed.vical
        let provider = vical.vicalProvider
        let stored: TrustStoreIndex
        do {
            stored = try index()
        } catch {
            throw ProgramFailure(.badTrustInput, "\(error)")
        }
        let previous = stored.vicals.first { $0.provider == provider }
        let vicalAnchor: Certificate
        if let anchor {
            vicalAnchor = anchor
        } else if let previous {
            vicalAnchor = try storedAnchor(previous)
        } else {
            throw ProgramFailure(
                .usage, "\(source): no VICAL anchor is stored for the provider \"\(provider)\"; give --vical-anchor with its root or signer certificate")
        }
        let verification = VICALVerifier(anchors: [vicalAnchor]).verify(signed, at: time)
        guard verification.isVerified else {
            throw ProgramFailure(
                .badTrustInput, "\(source): the VICAL of \"\(provider)\" does not verify: \(verification.failures.map(\.description).joined(separator: "; "))")
        }
        if verification.isStale, !acceptingStale {
            throw ProgramFailure(
                .badTrustInput, "\(source): the VICAL of \"\(provider)\" is stale: its next update was due \(vical.nextUpdate?.text ?? "")",
                hint: "import it anyway with --stale-vical warn, or verify it at another time with --at")
        }
        if let previousID = previous?.issueID, let issueID = vical.vicalIssueID, issueID < previousID {
            throw ProgramFailure(
                .badTrustInput, "\(source): vicalIssueID \(issueID) of \"\(provider)\" is older than vicalIssueID \(previousID), already imported")
        }
        let imported = Self.now()
        let slug = Self.slug(provider)
        let file = "vicals/\(slug).vical"
        let anchorFile = "vical-anchors/\(slug).pem"
        let record = TrustStoreIndex.VICALRecord(
            provider: provider, issueID: vical.vicalIssueID, date: vical.date.text, nextUpdate: vical.nextUpdate?.text, imported: imported,
            file: file, anchorFile: anchorFile, signer: verification.signer?.subject ?? "", entries: vical.certificateInfos.count,
            trusted: verification.trustedEntries.count)
        try update { (index) throws(ProgramFailure) in
            // The list and its anchor are written before the index names them, each replacing
            // the provider's previous one.
            try OutputFile.create(bytes, at: managedFolder + "/" + file, mode: OutputFile.publicMode, replacing: true)
            try OutputFile.create(
                Array(vicalAnchor.pemRepresentation.utf8), at: managedFolder + "/" + anchorFile, mode: OutputFile.publicMode, replacing: true)
            for position in index.anchors.indices {
                index.anchors[position].origins.removeAll {
                    if case .vical(provider, _) = $0.source { return true }
                    return false
                }
            }
            index.anchors.removeAll { $0.origins.isEmpty }
            for entry in verification.trustedEntries {
                guard let certificate = entry.certificate else { continue }
                _ = try store(certificate, in: &index, origin: TrustStoreIndex.Origin(
                    source: .vical(provider: provider, issueID: vical.vicalIssueID), added: imported, docTypes: entry.docTypes))
            }
            index.vicals.removeAll { $0.provider == provider }
            index.vicals.append(record)
        }
        return VICALImport(verification: verification, record: record, replaced: previous)
    }

    /// Removes the VICAL of `provider` and every anchor source it gave. Returns its record.
    public func removeVICAL(provider: String) throws(ProgramFailure) -> TrustStoreIndex.VICALRecord {
        try update { (index) throws(ProgramFailure) in
            guard let record = index.vicals.first(where: { $0.provider == provider }) else {
                throw ProgramFailure(.usage, "no VICAL of the provider \"\(provider)\" is in the trust store")
            }
            for position in index.anchors.indices {
                index.anchors[position].origins.removeAll {
                    if case .vical(provider, _) = $0.source { return true }
                    return false
                }
            }
            index.anchors.removeAll { $0.origins.isEmpty }
            index.vicals.removeAll { $0.provider == provider }
            unlink(managedFolder + "/" + record.file)
            unlink(managedFolder + "/" + record.anchorFile)
            return record
        }
    }

    /// The VICAL anchor stored with `record`.
    func storedAnchor(_ record: TrustStoreIndex.VICALRecord) throws(ProgramFailure) -> Certificate {
        let path = managedFolder + "/" + record.anchorFile
        do {
            let source = try InputSource.load(path)
            return try Certificate(pemEncoded: String(decoding: source.bytes, as: UTF8.self))
        } catch {
            throw ProgramFailure(.badTrustInput, "\(path): the stored VICAL anchor cannot be read: \(error)")
        }
    }

    /// A file name for `provider` (untrusted text): its letters and digits, lower case, at most
    /// 32, then 8 hexadecimal digits of its SHA-256, so that two providers never share one.
    static func slug(_ provider: String) -> String {
        let letters = provider.lowercased().unicodeScalars.prefix(32).map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(scalar) : "-"
        }
        return String(letters) + "-" + Hex.encode(DigestAlgorithm.sha256.hash(Array(provider.utf8)).prefix(4))
    }
}
