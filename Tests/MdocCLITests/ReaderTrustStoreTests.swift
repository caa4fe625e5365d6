import Foundation
import MdocCrypto
import MdocFiles
import MdocIssuance
import MdocModel
import MdocSession
import MdocStores
import MdocTestSupport
import Testing

/// The reader's trust store as a library: anchors added from files and imported from VICALs
/// (ISO/IEC 18013-5 Annex C.1.7), each with its sources and scope, in a folder of its own.
@Suite struct ReaderTrustStoreTests {
    /// A store in a fresh temporary folder, removed by `remove()`.
    struct Scratch {
        let folder: String
        let store: ReaderTrustStore

        init() throws {
            folder = NSTemporaryDirectory() + "mdoc-trust-store-" + UUID().uuidString
            store = ReaderTrustStore(folder: folder + "/iaca")
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    static let time = TestPKI.referenceTime

    /// A signed VICAL of `provider` listing each PKI's IACA for its doc types.
    static func vical(_ provider: TestPKI, issueID: UInt64 = 1, name: String = "Test provider", _ entries: [(TestPKI, [String])]) throws -> [UInt8] {
        let infos = try entries.map { pki, docTypes in try VICALSigner.certificateInfo(for: pki.iaca, docTypes: docTypes) }
        let vical = VICAL(
            vicalProvider: name, date: TDate(time), vicalIssueID: issueID, nextUpdate: TDate(time.addingTimeInterval(30 * 86_400)),
            certificateInfos: infos)
        return try VICALSigner(signerKey: provider.documentSignerKey, signerChain: [provider.documentSigner]).sign(vical).encoded
    }

    static func provider(_ name: String = "vical") throws -> TestPKI {
        try TestPKI(name: name, documentSignerExtensions: [
            ("keyUsage", "critical,digitalSignature"),
            ("extendedKeyUsage", "critical,\(CertificateProfile.vicalSignerOID)"),
            ("subjectKeyIdentifier", "hash"),
            ("authorityKeyIdentifier", "keyid:always"),
        ])
    }

    static func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    @Test("an added file anchors any doc type, or the doc types it was added for; adding it again unscoped widens it")
    func addedFiles() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (open, scoped) = (try TestPKI(name: "open"), try TestPKI(name: "scoped"))
        _ = try scratch.store.add([open.iaca], from: "/files/open.pem", docTypes: nil)
        _ = try scratch.store.add([scoped.iaca], from: "/files/scoped.pem", docTypes: [DocType.eudiPID])
        var trust = try scratch.store.trust(at: Self.time) { _ in }
        #expect(trust.anchors == [open.iaca, scoped.iaca])
        #expect(trust.scopes == [scoped.iaca: [DocType.eudiPID]])
        #expect(trust.origins[scoped.iaca]?.map(\.source) == [.file(path: "/files/scoped.pem")])
        #expect(try Self.mode(scratch.store.folder) == 0o700)
        #expect(try Self.mode(scratch.store.folder + "/.store/certs") == 0o700)
        let id = ReaderTrustStore.id(of: open.iaca)
        #expect(FileManager.default.contents(atPath: scratch.store.folder + "/.store/certs/\(id).der") == Data(open.iaca.derRepresentation))

        _ = try scratch.store.add([scoped.iaca], from: "/files/again.pem", docTypes: nil)
        trust = try scratch.store.trust(at: Self.time) { _ in }
        #expect(trust.scopes.isEmpty)
        #expect(try scratch.store.index().anchors.count == 2)
    }

    @Test("a document signer is not an anchor to add")
    func notAnAnchor() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pki = try TestPKI(name: "ds")
        #expect(throws: ProgramFailure.self) { try scratch.store.add([pki.documentSigner], from: "ds.pem", docTypes: nil) }
        #expect(!scratch.store.isManaged)
    }

    @Test("an imported VICAL gives its IACAs scoped to their doc types, with the provider as source; its anchor is kept for the next issue")
    func importedVICAL() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let provider = try Self.provider()
        let (mdl, pid) = (try TestPKI(name: "mdl"), try TestPKI(name: "pid"))
        let imported = try scratch.store.importVICAL(
            try Self.vical(provider, [(mdl, [DocType.mDL]), (pid, [DocType.eudiPID])]), source: "first.vical", anchor: provider.iaca,
            at: Self.time, acceptingStale: false)
        #expect(imported.record.trusted == 2 && imported.record.entries == 2 && imported.replaced == nil)
        var trust = try scratch.store.trust(at: Self.time) { _ in }
        #expect(trust.scopes == [mdl.iaca: [DocType.mDL], pid.iaca: [DocType.eudiPID]])
        #expect(trust.origins[mdl.iaca]?.map(\.source) == [.vical(provider: "Test provider", issueID: 1)])
        #expect(trust.staleVICALs.isEmpty)

        // vicalIssueID 2 drops the PID provider; no anchor given: the stored one verifies it.
        let second = try scratch.store.importVICAL(
            try Self.vical(provider, issueID: 2, [(mdl, [DocType.mDL, DocType.euAgeVerification])]), source: "second.vical", anchor: nil,
            at: Self.time, acceptingStale: false)
        #expect(second.replaced?.issueID == 1)
        trust = try scratch.store.trust(at: Self.time) { _ in }
        #expect(trust.anchors == [mdl.iaca])
        #expect(trust.scopes == [mdl.iaca: [DocType.mDL, DocType.euAgeVerification]])
        #expect(!FileManager.default.fileExists(atPath: scratch.store.folder + "/.store/certs/\(ReaderTrustStore.id(of: pid.iaca)).der"))
        // After nextUpdate the list is reported stale.
        #expect(try scratch.store.trust(at: Self.time.addingTimeInterval(31 * 86_400)) { _ in }.staleVICALs.map(\.provider) == ["Test provider"])
    }

    @Test("a list that does not verify, a stale one, an older issue: refused, the store unchanged")
    func refusedVICALs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (provider, stranger) = (try Self.provider(), try Self.provider("stranger"))
        let mdl = try TestPKI(name: "mdl")
        _ = try scratch.store.importVICAL(
            try Self.vical(provider, issueID: 5, [(mdl, [DocType.mDL])]), source: "five.vical", anchor: provider.iaca, at: Self.time,
            acceptingStale: false)
        let before = try scratch.store.index()

        let other = try TestPKI(name: "other")
        let forged = try Self.vical(stranger, issueID: 6, [(other, [DocType.mDL])])
        #expect(throws: ProgramFailure.self) {
            try scratch.store.importVICAL(forged, source: "forged.vical", anchor: nil, at: Self.time, acceptingStale: false)
        }
        #expect(throws: ProgramFailure.self) {
            try scratch.store.importVICAL(
                try Self.vical(provider, issueID: 4, [(other, [DocType.mDL])]), source: "four.vical", anchor: nil, at: Self.time,
                acceptingStale: false)
        }
        let late = Self.time.addingTimeInterval(30 * 86_400)
        let stale = try Self.vical(provider, issueID: 7, [(other, [DocType.mDL])])
        #expect(throws: ProgramFailure.self) {
            try scratch.store.importVICAL(stale, source: "seven.vical", anchor: nil, at: late, acceptingStale: false)
        }
        #expect(try scratch.store.index() == before)
        _ = try scratch.store.importVICAL(stale, source: "seven.vical", anchor: nil, at: late, acceptingStale: true)
        #expect(try scratch.store.trust(at: late) { _ in }.anchors == [other.iaca])
    }

    @Test("without a stored anchor for the provider, an anchor must be given")
    func anchorRequired() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let provider = try Self.provider()
        let failure = try #require(throws: ProgramFailure.self) {
            try scratch.store.importVICAL(
                try Self.vical(provider, [(try TestPKI(name: "x"), [DocType.mDL])]), source: "a.vical", anchor: nil, at: Self.time,
                acceptingStale: false)
        }
        #expect(failure.status == .usage && "\(failure.message)".contains("--vical-anchor"), "\(failure.message)")
    }

    @Test("an anchor both added and listed keeps both sources; removing the VICAL leaves the added one")
    func sourcesAndRemoval() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let provider = try Self.provider()
        let (both, listed) = (try TestPKI(name: "both"), try TestPKI(name: "listed"))
        _ = try scratch.store.add([both.iaca], from: "/files/both.pem", docTypes: [DocType.eudiPID])
        _ = try scratch.store.importVICAL(
            try Self.vical(provider, [(both, [DocType.mDL]), (listed, [DocType.mDL])]), source: "v.vical", anchor: provider.iaca,
            at: Self.time, acceptingStale: false)
        #expect(try scratch.store.trust(at: Self.time) { _ in }.scopes[both.iaca] == [DocType.eudiPID, DocType.mDL])
        #expect(try scratch.store.removeVICAL(provider: "Test provider").trusted == 2)
        let trust = try scratch.store.trust(at: Self.time) { _ in }
        #expect(trust.anchors == [both.iaca] && trust.scopes == [both.iaca: [DocType.eudiPID]])
        #expect(throws: ProgramFailure.self) { try scratch.store.removeVICAL(provider: "Test provider") }
        #expect(try scratch.store.index().vicals.isEmpty)
    }

    @Test("remove takes identifiers of at least 8 hexadecimal digits naming one anchor")
    func removeByIdentifier() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (a, b) = (try TestPKI(name: "a"), try TestPKI(name: "b"))
        _ = try scratch.store.add([a.iaca, b.iaca], from: "/files/ab.pem", docTypes: nil)
        let id = ReaderTrustStore.id(of: a.iaca)
        #expect(throws: ProgramFailure.self) { try scratch.store.remove(ids: [String(id.prefix(7))]) }
        #expect(throws: ProgramFailure.self) { try scratch.store.remove(ids: ["00000000"]) }
        #expect(try scratch.store.remove(ids: [String(id.prefix(8)).uppercased()]).map(\.id) == [id])
        #expect(try scratch.store.trust(at: Self.time) { _ in }.anchors == [b.iaca])
        #expect(!FileManager.default.fileExists(atPath: scratch.store.folder + "/.store/certs/\(id).der"))
    }

    @Test("a certificate file changed behind the store's back, or an index that is not one, is reported by name")
    func tampering() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (a, b) = (try TestPKI(name: "a"), try TestPKI(name: "b"))
        _ = try scratch.store.add([a.iaca], from: "/files/a.pem", docTypes: nil)
        let path = scratch.store.folder + "/.store/certs/\(ReaderTrustStore.id(of: a.iaca)).der"
        try FileManager.default.removeItem(atPath: path)
        try Data(b.iaca.derRepresentation).write(to: URL(fileURLWithPath: path))
        let changed = try #require(throws: InputError.self) { try scratch.store.trust(at: Self.time) { _ in } }
        #expect("\(changed)".contains(path), "\(changed)")
        try Data("{\"format\": \"something else\"}".utf8).write(to: URL(fileURLWithPath: scratch.store.indexPath))
        let index = try #require(throws: InputError.self) { try scratch.store.index() }
        #expect("\(index)".contains("index.json"), "\(index)")
    }

    @Test("files put in the folder by hand still anchor any doc type, beside the managed anchors")
    func looseFiles() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let provider = try Self.provider()
        let (loose, listed) = (try TestPKI(name: "loose"), try TestPKI(name: "listed"))
        _ = try scratch.store.importVICAL(
            try Self.vical(provider, [(loose, [DocType.eudiPID]), (listed, [DocType.mDL])]), source: "v.vical", anchor: provider.iaca,
            at: Self.time, acceptingStale: false)
        try Data(loose.iaca.pemRepresentation.utf8).write(to: URL(fileURLWithPath: scratch.store.folder + "/loose.pem"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: scratch.store.folder + "/README"))
        var notes: [String] = []
        let trust = try scratch.store.trust(at: Self.time) { notes.append($0) }
        #expect(Set(trust.anchors) == [loose.iaca, listed.iaca] && trust.anchors.count == 2)
        #expect(trust.scopes == [listed.iaca: [DocType.mDL]])
        #expect(notes.count == 1 && notes[0].contains("README"), "\(notes)")
    }

    @Test("changes from many tasks at once all land: the store's lock serialises them")
    func concurrentChanges() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pkis = try (0..<8).map { try TestPKI(name: "p\($0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, pki) in pkis.enumerated() {
                let store = scratch.store
                group.addTask { _ = try store.add([pki.iaca], from: "/files/\(index).pem", docTypes: nil) }
            }
            try await group.waitForAll()
        }
        #expect(Set(try scratch.store.index().anchors.map(\.id)) == Set(pkis.map { ReaderTrustStore.id(of: $0.iaca) }))
    }
}
