import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocModel
import MdocPosix
import MdocText

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A reader's trust store: the IACA roots it trusts (ISO/IEC 18013-5 9.3.3), each with where it
/// came from and the document types it may anchor.
///
/// The store is a folder, ``UserDirectories/issuerTrust`` unless another is named
/// (`--trust-store`). Certificate files put there by hand (`*.pem`) are still read, and anchor
/// any document type. `mdoc-reader trust` manages the rest in its `.store` folder:
///
/// ```
/// .store/index.json             TrustStoreIndex: the anchors, their sources and scopes, the VICALs
/// .store/certs/SHA256.der       each managed anchor, named by the SHA-256 of its DER
/// .store/vicals/PROVIDER.vical  each imported VICAL as received (Annex C.1.7)
/// .store/vical-anchors/PROVIDER.pem  the VICAL anchor it was verified with
/// .store/lock                   held (flock) while the store changes
/// ```
/// Folders are made mode 0700. The index is written whole to a new file and renamed into place,
/// so a reader never sees half of it; changes hold an exclusive lock, so two of them never
/// interleave.
public struct ReaderTrustStore: Sendable {
    /// The most managed anchors: the entries of the largest VICAL this toolkit reads
    /// (`VICAL.maximumCertificateInfos`).
    public static let maximumAnchors = VICAL.maximumCertificateInfos

    /// The store's folder.
    public let folder: String

    /// The store in `folder`.
    public init(folder: String) {
        self.folder = folder
    }

    /// The store of a process with `environment` (``UserDirectories/issuerTrust``).
    public static func standard(environment: [String: String]) -> ReaderTrustStore {
        ReaderTrustStore(folder: UserDirectories(environment: environment).issuerTrust)
    }

    /// The managed part.
    var managedFolder: String { folder + "/.store" }
    /// The index file.
    public var indexPath: String { managedFolder + "/index.json" }

    /// Whether the store has a managed part (an index).
    public var isManaged: Bool { DirectoryListing.kind(of: indexPath) == .file }

    /// The index; empty when the store has none.
    public func index() throws(InputError) -> TrustStoreIndex {
        guard isManaged else { return TrustStoreIndex() }
        let bytes = try InputSource.load(indexPath).bytes
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes, maximumDepth: 8)
        } catch {
            throw InputError(.unsupportedContent, source: indexPath, "not JSON: line \(error.line), column \(error.column): \(error.reason)")
        }
        let index = try TrustStoreIndex(json: json, source: indexPath)
        guard index.anchors.count <= Self.maximumAnchors else {
            throw InputError(.tooLarge, source: indexPath, "\(index.anchors.count) anchors, more than the maximum \(Self.maximumAnchors)")
        }
        return index
    }

    /// The managed anchor `id`, checked against its identifier.
    public func certificate(id: String) throws(InputError) -> Certificate {
        let path = certificatePath(id: id)
        let der = try InputSource.load(path).bytes
        guard Hex.encode(DigestAlgorithm.sha256.hash(der)) == id else {
            throw InputError(.unsupportedContent, source: path, "its SHA-256 is not its name: the file was changed")
        }
        do {
            return try Certificate(derEncoded: der)
        } catch {
            throw InputError(.unsupportedContent, source: path, "not a certificate: \(error.reason)")
        }
    }

    /// The identifier of `certificate` in the store: the SHA-256 of its DER, hexadecimal.
    public static func id(of certificate: Certificate) -> String {
        Hex.encode(DigestAlgorithm.sha256.hash(certificate.derRepresentation))
    }

    func certificatePath(id: String) -> String { managedFolder + "/certs/" + id + ".der" }

    /// Adds `certificates`, read from `path`, as anchors of `docTypes` (any when `nil`): each must
    /// be a self-signed root (the IACA of Annex B). An anchor already stored gains the source.
    /// Returns the anchors as stored.
    public func add(_ certificates: [Certificate], from path: String, docTypes: [String]?) throws(ProgramFailure) -> [TrustStoreIndex.Anchor] {
        for certificate in certificates {
            if let problem = CertificateFiles.anchorProblem(certificate, for: .documentSigner) {
                throw ProgramFailure(.badTrustInput, "\(path): \(problem)")
            }
        }
        let added = Self.now()
        return try update { (index) throws(ProgramFailure) in
            try certificates.map { (certificate) throws(ProgramFailure) in
                try store(certificate, in: &index, origin: TrustStoreIndex.Origin(source: .file(path: path), added: added, docTypes: docTypes))
            }
        }
    }

    /// Removes the anchors whose identifiers start with one of `prefixes` (at least 8 hex
    /// digits each, naming one anchor), every source of them. Returns the anchors removed.
    public func remove(ids prefixes: [String]) throws(ProgramFailure) -> [TrustStoreIndex.Anchor] {
        try update { (index) throws(ProgramFailure) in
            var removed: [TrustStoreIndex.Anchor] = []
            for prefix in prefixes {
                let lowered = prefix.lowercased()
                guard lowered.count >= 8, lowered.allSatisfy(\.isHexDigit) else {
                    throw ProgramFailure(.usage, "\(prefix): not an anchor identifier (at least 8 hexadecimal digits, as `trust list` shows them)")
                }
                let matches = index.anchors.filter { $0.id.hasPrefix(lowered) }
                guard matches.count == 1, let anchor = matches.first else {
                    throw ProgramFailure(
                        .usage, matches.isEmpty ? "\(prefix): no anchor of the store has this identifier" : "\(prefix): names \(matches.count) anchors; give more digits")
                }
                index.anchors.removeAll { $0.id == anchor.id }
                removed.append(anchor)
            }
            return removed
        }
    }

    /// Adds `origin` to the anchor of `certificate`, storing the certificate when it is new.
    func store(_ certificate: Certificate, in index: inout TrustStoreIndex, origin: TrustStoreIndex.Origin) throws(ProgramFailure) -> TrustStoreIndex.Anchor {
        let id = Self.id(of: certificate)
        if let position = index.anchors.firstIndex(where: { $0.id == id }) {
            if !index.anchors[position].origins.contains(where: { $0.source == origin.source && $0.docTypes == origin.docTypes }) {
                index.anchors[position].origins.removeAll { $0.source == origin.source }
                index.anchors[position].origins.append(origin)
            }
            return index.anchors[position]
        }
        guard index.anchors.count < Self.maximumAnchors else {
            throw ProgramFailure(.badTrustInput, "the trust store holds \(Self.maximumAnchors) anchors, its maximum")
        }
        let path = certificatePath(id: id)
        if !OutputFile.exists(path) {
            try OutputFile.create(certificate.derRepresentation, at: path, mode: OutputFile.publicMode, replacing: false)
        }
        let anchor = TrustStoreIndex.Anchor(
            id: id, subject: certificate.subject, notBefore: TDate(certificate.notValidBefore).text,
            notAfter: TDate(certificate.notValidAfter).text, origins: [origin])
        index.anchors.append(anchor)
        return anchor
    }

    /// Runs `body` on the index under the store's lock, then writes the index back whole (to a
    /// new file renamed into place) and removes the certificate files no anchor names any more.
    func update<Result>(_ body: (inout TrustStoreIndex) throws(ProgramFailure) -> Result) throws(ProgramFailure) -> Result {
        try OutputFile.makeDirectory(folder, parents: true)
        for sub in ["", "/certs", "/vicals", "/vical-anchors"] {
            try OutputFile.makeDirectory(managedFolder + sub)
        }
        let lockPath = managedFolder + "/lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else {
            throw ProgramFailure(.badTrustInput, "\(lockPath): cannot open the store's lock: \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        guard case .success = SystemCall.make({ flock(lock, LOCK_EX) }) else {
            throw ProgramFailure(.badTrustInput, "\(lockPath): cannot lock the store: \(String(cString: strerror(errno)))")
        }
        var index: TrustStoreIndex
        do {
            index = try self.index()
        } catch {
            throw ProgramFailure(.badTrustInput, "\(error)")
        }
        let before = Set(index.anchors.map(\.id))
        let result = try body(&index)
        let staging = indexPath + ".new"
        try OutputFile.create(Array((index.json.serialized(pretty: true) + "\n").utf8), at: staging, mode: OutputFile.publicMode, replacing: true)
        guard rename(staging, indexPath) == 0 else {
            throw ProgramFailure(.badTrustInput, "\(indexPath): cannot replace the index: \(String(cString: strerror(errno)))")
        }
        for id in before.subtracting(index.anchors.map(\.id)) {
            unlink(certificatePath(id: id))
        }
        return result
    }

    /// Now, as an RFC 3339 date-time in whole seconds.
    static func now() -> String { TDate(Date()).text }
}
