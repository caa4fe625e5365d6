import ArgumentParser
import MdocCrypto
import MdocFiles
import MdocModel
import MdocStores
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-reader trust list`: what the trust store holds.
struct TrustList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the IACA roots the reader trusts, with their sources and document types.",
        discussion: """
            Each root with its identifier (for `trust remove`), subject, validity, the document \
            types it may anchor and where it came from: a file added, a VICAL (provider, issue, \
            and whether it is stale at --at), or a file put into the folder by hand. Then the \
            VICALs imported.

            Examples:
              mdoc-reader trust list
              mdoc-reader trust list --json --at 2027-01-01T00:00:00Z

            Exit codes: 0 listed (an empty store too); 7 the store cannot be read; 64 usage \
            error.
            """
    )

    @Flag(help: "Print the list as JSON (docs/json-report.md).")
    var json = false

    @Option(help: "The time to judge validity and staleness at, RFC 3339 (default: now).")
    var at: String?

    @OptionGroup var trustStore: TrustStoreOption

    func run() {
        ProgramFailure.reporting(program: "mdoc-reader") { () throws(ProgramFailure) in
            let time = try Trust.time(at)
            let store = trustStore.store
            let index: TrustStoreIndex
            var files: [(name: String, certificates: [Certificate])] = []
            do {
                index = try store.index()
                if DirectoryListing.kind(of: store.folder) == .folder {
                    for file in try DirectoryListing.files(in: store.folder, limit: ReaderTrustStore.maximumAnchors) {
                        let roots = (try? CertificateFiles.loadFile(file.path))?.filter(\.isSelfSigned) ?? []
                        if !roots.isEmpty { files.append((file.name, roots)) }
                    }
                }
            } catch {
                throw ProgramFailure(.badTrustInput, "the trust store \(error)")
            }
            if json {
                ProgramOutput.standardOutput.writeLine(TerminalText(lines: Self.json(index, files: files, store: store, at: time).serialized(pretty: true)))
                return
            }
            let out = ProgramOutput.standardOutput
            guard !index.anchors.isEmpty || !files.isEmpty else {
                out.writeLine("No IACA roots in \(store.folder); add some with `mdoc-reader trust add` or `trust import-vical`")
                return
            }
            out.writeLine("\(TerminalText(count: index.anchors.count + files.reduce(0) { $0 + $1.certificates.count }, "IACA root")) in \(store.folder):")
            for anchor in index.anchors {
                out.writeLine("  \(Self.shortID(anchor.id))  \(anchor.subject)  valid \(anchor.notBefore) to \(anchor.notAfter)\(Self.expiry(anchor.notAfter, at: time))")
                out.writeLine("            anchors \(Self.scope(anchor.docTypes.map { $0.sorted() }))")
                for origin in anchor.origins {
                    out.writeLine("            from \(Self.describe(origin, index: index, at: time))")
                }
            }
            for file in files {
                for certificate in file.certificates {
                    out.writeLine("  \(Self.shortID(ReaderTrustStore.id(of: certificate)))  \(certificate.subject)  valid \(TDate(certificate.notValidBefore).text) to \(TDate(certificate.notValidAfter).text)")
                    out.writeLine("            anchors any document type, from the file \(file.name) put into the folder")
                }
            }
            for record in index.vicals {
                out.writeLine("VICAL of \(TrustStoreIndex.vicalName(provider: record.provider, issueID: record.issueID)) of \(record.date): \(record.trusted) of \(record.entries) IACAs trusted, signed by \(record.signer), imported \(record.imported)\(Self.staleness(record, at: time))")
            }
        }
    }

    /// The first 16 hexadecimal digits of an identifier: enough to tell anchors apart.
    static func shortID(_ id: String) -> String { String(id.prefix(16)) }

    /// The document types an anchor may anchor, in words.
    static func scope(_ docTypes: [String]?) -> TerminalText {
        guard let docTypes else { return "any document type" }
        return "\(docTypes.joined(separator: ", "))"
    }

    static func scope(_ docTypes: Set<String>?) -> TerminalText {
        scope(docTypes.map { $0.sorted() })
    }

    private static func expiry(_ notAfter: String, at time: Date) -> String {
        guard let end = try? TDate(text: notAfter), end.date <= time else { return "" }
        return " (expired)"
    }

    private static func staleness(_ record: TrustStoreIndex.VICALRecord, at time: Date) -> TerminalText {
        guard let nextUpdate = record.nextUpdate else { return "; no next update given" }
        guard let due = try? TDate(text: nextUpdate), due.date <= time else { return "; next update due \(nextUpdate)" }
        return "; STALE: its next update was due \(nextUpdate)"
    }

    private static func describe(_ origin: TrustStoreIndex.Origin, index: TrustStoreIndex, at time: Date) -> TerminalText {
        switch origin.source {
        case .file(let path):
            return "the file \(path), added \(origin.added)"
        case .vical(let provider, let issueID):
            let record = index.vicals.first { $0.provider == provider }
            let stale: TerminalText = record.map { staleness($0, at: time) } ?? ""
            return "the VICAL of \(TrustStoreIndex.vicalName(provider: provider, issueID: issueID)), imported \(origin.added)\(stale)"
        }
    }

    /// The `trustList` object of docs/json-report.md.
    static func json(_ index: TrustStoreIndex, files: [(name: String, certificates: [Certificate])], store: ReaderTrustStore, at time: Date) -> JSONValue {
        var anchors: [JSONValue] = index.anchors.map { anchor in
            .object([
                ("id", .string(anchor.id)), ("subject", .string(anchor.subject)), ("notBefore", .string(anchor.notBefore)),
                ("notAfter", .string(anchor.notAfter)),
                ("docTypes", anchor.docTypes.map { .array($0.sorted().map(JSONValue.string)) } ?? .null),
                ("sources", .array(anchor.origins.map(\.json))),
            ])
        }
        for file in files {
            for certificate in file.certificates {
                anchors.append(.object([
                    ("id", .string(ReaderTrustStore.id(of: certificate))), ("subject", .string(certificate.subject)),
                    ("notBefore", .string(TDate(certificate.notValidBefore).text)), ("notAfter", .string(TDate(certificate.notValidAfter).text)),
                    ("docTypes", .null),
                    ("sources", .array([.object([("kind", .string("folder")), ("path", .string(store.folder + "/" + file.name))])])),
                ]))
            }
        }
        return JSONReport.object(.trustList, [
            ("store", .string(store.folder)),
            ("time", .string(TDate(time).text)),
            ("anchors", .array(anchors)),
            ("vicals", .array(index.vicals.map { record in
                let stale = record.nextUpdate.flatMap { try? TDate(text: $0) }.map { time >= $0.date } ?? false
                return .object([
                    ("provider", .string(record.provider)), ("issueID", record.issueID.map { .int(Int64(clamping: $0)) } ?? .null),
                    ("date", .string(record.date)), ("nextUpdate", record.nextUpdate.map(JSONValue.string) ?? .null),
                    ("stale", .bool(stale)), ("imported", .string(record.imported)), ("signer", .string(record.signer)),
                    ("entries", .int(Int64(record.entries))), ("trusted", .int(Int64(record.trusted))),
                ])
            })),
        ])
    }
}
