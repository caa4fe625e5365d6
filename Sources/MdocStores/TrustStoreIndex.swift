import MdocCBOR
import MdocFiles
import MdocText

/// The index of a ``ReaderTrustStore``: every managed trust anchor with where it came from and the
/// document types it may anchor, and every VICAL imported (ISO/IEC 18013-5 Annex C.1.7).
///
/// Kept as `index.json` in the store's `.store` folder, written whole and renamed into place,
/// members in a fixed order so the file is diffable:
///
/// ```json
/// {"format": "swift-mdoc reader trust store 1",
///  "anchors": [{"id": "…", "subject": "…", "notBefore": "…", "notAfter": "…",
///               "sources": [{"kind": "file", "path": "…", "added": "…", "docTypes": null},
///                           {"kind": "vical", "provider": "…", "issueID": 5, "added": "…", "docTypes": ["…"]}]}],
///  "vicals": [{"provider": "…", "issueID": 5, "date": "…", "nextUpdate": "…", "imported": "…",
///              "file": "vicals/…", "anchor": "vical-anchors/…", "signer": "…", "entries": 45, "trusted": 43}]}
/// ```
public struct TrustStoreIndex: Sendable, Hashable {
    /// The `format` member this version writes and reads.
    public static let format = "swift-mdoc reader trust store 1"

    /// Where an anchor came from.
    public enum Source: Sendable, Hashable {
        /// A file the user added (`mdoc-reader trust add`), by its path then.
        case file(path: String)
        /// An entry of a VICAL, by its provider and issue.
        case vical(provider: String, issueID: UInt64?)
    }

    /// One source of an anchor, with the scope it gives.
    public struct Origin: Sendable, Hashable {
        /// Where it came from.
        public var source: Source
        /// When it was added (RFC 3339).
        public var added: String
        /// The document types it may anchor; `nil` for any.
        public var docTypes: [String]?

        /// An origin from its parts.
        public init(source: Source, added: String, docTypes: [String]?) {
            self.source = source
            self.added = added
            self.docTypes = docTypes
        }

        /// The origin as the index writes it (and `trust list --json` shows it).
        public var json: JSONValue {
            let scope: JSONValue = docTypes.map { .array($0.map(JSONValue.string)) } ?? .null
            switch source {
            case .file(let path):
                return .object([("kind", .string("file")), ("path", .string(path)), ("added", .string(added)), ("docTypes", scope)])
            case .vical(let provider, let issueID):
                return .object([
                    ("kind", .string("vical")), ("provider", .string(provider)), ("issueID", issueID.map { .int(Int64(clamping: $0)) } ?? .null),
                    ("added", .string(added)), ("docTypes", scope),
                ])
            }
        }
    }

    /// A managed trust anchor.
    public struct Anchor: Sendable, Hashable {
        /// Its identifier: the SHA-256 of its DER, hexadecimal; also its file name in `certs/`.
        public var id: String
        /// Its subject, for people.
        public var subject: String
        /// The start of its validity (RFC 3339).
        public var notBefore: String
        /// The end of its validity (RFC 3339).
        public var notAfter: String
        /// Every place it came from; an anchor with none is removed.
        public var origins: [Origin]

        /// An anchor from its parts.
        public init(id: String, subject: String, notBefore: String, notAfter: String, origins: [Origin]) {
            self.id = id
            self.subject = subject
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.origins = origins
        }

        /// The document types it may anchor: the union of its origins' scopes, `nil` (any) when
        /// one of them is unscoped.
        public var docTypes: Set<String>? {
            var union = Set<String>()
            for origin in origins {
                guard let docTypes = origin.docTypes else { return nil }
                union.formUnion(docTypes)
            }
            return union
        }
    }

    /// A VICAL whose entries were imported.
    public struct VICALRecord: Sendable, Hashable {
        /// Its `vicalProvider`.
        public var provider: String
        /// Its `vicalIssueID`.
        public var issueID: UInt64?
        /// Its `date` (RFC 3339).
        public var date: String
        /// Its `nextUpdate` (RFC 3339); past it, the list is stale.
        public var nextUpdate: String?
        /// When it was imported (RFC 3339).
        public var imported: String
        /// The signed VICAL as received, relative to the `.store` folder.
        public var file: String
        /// The VICAL anchor it was verified with, relative to the `.store` folder.
        public var anchorFile: String
        /// The VICAL signer's subject.
        public var signer: String
        /// How many entries the list has.
        public var entries: Int
        /// How many of them were trusted.
        public var trusted: Int

        /// A record from its parts.
        public init(
            provider: String, issueID: UInt64?, date: String, nextUpdate: String?, imported: String, file: String, anchorFile: String,
            signer: String, entries: Int, trusted: Int
        ) {
            self.provider = provider
            self.issueID = issueID
            self.date = date
            self.nextUpdate = nextUpdate
            self.imported = imported
            self.file = file
            self.anchorFile = anchorFile
            self.signer = signer
            self.entries = entries
            self.trusted = trusted
        }
    }

    /// A VICAL named for people: its provider and, when it has one, its vicalIssueID (ISO/IEC
    /// 18013-5 Annex C.1.7), such as `Test provider, vicalIssueID 5`.
    public static func vicalName(provider: String, issueID: UInt64?) -> String {
        provider + (issueID.map { ", vicalIssueID \($0)" } ?? "")
    }

    /// The managed anchors, in the order they were first added.
    public var anchors: [Anchor]
    /// The VICALs imported, one per provider.
    public var vicals: [VICALRecord]

    /// An index from its parts.
    public init(anchors: [Anchor] = [], vicals: [VICALRecord] = []) {
        self.anchors = anchors
        self.vicals = vicals
    }

    /// Reads the index from `json`; `source` names the file in errors.
    public init(json: JSONValue, source: String) throws(InputError) {
        let reader = Reader(source: source)
        let root = try reader.object(json, "the index")
        guard try reader.string(root, "format", "the index") == Self.format else {
            throw InputError(.unsupportedContent, source: source, "not a \(Self.format) index")
        }
        anchors = try reader.array(root, "anchors", "the index").enumerated().map { (index, value) throws(InputError) in
            let place = "anchor \(index)"
            let anchor = try reader.object(value, place)
            let origins = try reader.array(anchor, "sources", place).enumerated().map { (number, value) throws(InputError) in
                let place = "\(place), source \(number)"
                let origin = try reader.object(value, place)
                let from: Source
                switch try reader.string(origin, "kind", place) {
                case "file": from = .file(path: try reader.string(origin, "path", place))
                case "vical": from = .vical(provider: try reader.string(origin, "provider", place), issueID: try reader.optionalUInt(origin, "issueID", place))
                case let other: throw InputError(.unsupportedContent, source: source, "\(place): unknown kind \"\(UntrustedText.escaped(other))\"")
                }
                return Origin(source: from, added: try reader.string(origin, "added", place), docTypes: try reader.optionalStrings(origin, "docTypes", place))
            }
            let id = try reader.string(anchor, "id", place)
            guard id.count == 64, id.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                throw InputError(.unsupportedContent, source: source, "\(place): the id is not a SHA-256 in lower-case hexadecimal")
            }
            return Anchor(
                id: id, subject: try reader.string(anchor, "subject", place), notBefore: try reader.string(anchor, "notBefore", place),
                notAfter: try reader.string(anchor, "notAfter", place), origins: origins)
        }
        vicals = try reader.array(root, "vicals", "the index").enumerated().map { (index, value) throws(InputError) in
            let place = "VICAL \(index)"
            let record = try reader.object(value, place)
            return VICALRecord(
                provider: try reader.string(record, "provider", place), issueID: try reader.optionalUInt(record, "issueID", place),
                date: try reader.string(record, "date", place), nextUpdate: try reader.optionalString(record, "nextUpdate", place),
                imported: try reader.string(record, "imported", place), file: try reader.string(record, "file", place),
                anchorFile: try reader.string(record, "anchor", place), signer: try reader.string(record, "signer", place),
                entries: Int(try reader.uint(record, "entries", place)), trusted: Int(try reader.uint(record, "trusted", place)))
        }
    }

    /// The index as JSON, members in a fixed order.
    public var json: JSONValue {
        .object([
            ("format", .string(Self.format)),
            ("anchors", .array(anchors.map { anchor in
                .object([
                    ("id", .string(anchor.id)), ("subject", .string(anchor.subject)), ("notBefore", .string(anchor.notBefore)),
                    ("notAfter", .string(anchor.notAfter)),
                    ("sources", .array(anchor.origins.map(\.json))),
                ])
            })),
            ("vicals", .array(vicals.map { record in
                .object([
                    ("provider", .string(record.provider)), ("issueID", record.issueID.map { .int(Int64(clamping: $0)) } ?? .null),
                    ("date", .string(record.date)), ("nextUpdate", record.nextUpdate.map(JSONValue.string) ?? .null),
                    ("imported", .string(record.imported)), ("file", .string(record.file)), ("anchor", .string(record.anchorFile)),
                    ("signer", .string(record.signer)), ("entries", .int(Int64(record.entries))), ("trusted", .int(Int64(record.trusted))),
                ])
            })),
        ])
    }

    /// Reads members, naming the index file and the place in errors.
    private struct Reader {
        let source: String

        func object(_ value: JSONValue, _ place: String) throws(InputError) -> [(String, JSONValue)] {
            guard case .object(let members) = value else { throw wrong(place, "an object") }
            return members
        }

        func member(_ members: [(String, JSONValue)], _ key: String, _ place: String) throws(InputError) -> JSONValue {
            guard let value = members.first(where: { $0.0 == key })?.1 else {
                throw InputError(.unsupportedContent, source: source, "\(place): \"\(key)\" is missing")
            }
            return value
        }

        func string(_ members: [(String, JSONValue)], _ key: String, _ place: String) throws(InputError) -> String {
            guard case .string(let text) = try member(members, key, place) else { throw wrong("\(place), \"\(key)\"", "a string") }
            return text
        }

        func optionalString(_ members: [(String, JSONValue)], _ key: String, _ place: String) throws(InputError) -> String? {
            let value = try member(members, key, place)
            if case .null = value { return nil }
            guard case .string(let text) = value else { throw wrong("\(place), \"\(key)\"", "a string or null") }
            return text
        }

        func uint(_ members: [(String, JSONValue)], _ key: String, _ place: String) throws(InputError) -> UInt64 {
            guard case .int(let number) = try member(members, key, place), number >= 0 else {
                throw wrong("\(place), \"\(key)\"", "a non-negative integer")
            }
            return UInt64(number)
        }

        func optionalUInt(_ members: [(String, JSONValue)], _ key: String, _ place: String) throws(InputError) -> UInt64? {
            if case .null = try member(members, key, place) { return nil }
            return try uint(members, key, place)
        }

        func array(_ members: [(String, JSONValue)], _ key: String, _ place: String) throws(InputError) -> [JSONValue] {
            guard case .array(let items) = try member(members, key, place) else { throw wrong("\(place), \"\(key)\"", "an array") }
            return items
        }

        func optionalStrings(_ members: [(String, JSONValue)], _ key: String, _ place: String) throws(InputError) -> [String]? {
            let value = try member(members, key, place)
            if case .null = value { return nil }
            guard case .array(let items) = value else { throw wrong("\(place), \"\(key)\"", "an array of strings or null") }
            return try items.map { (item) throws(InputError) in
                guard case .string(let text) = item else { throw wrong("\(place), \"\(key)\"", "an array of strings or null") }
                return text
            }
        }

        private func wrong(_ place: String, _ expected: String) -> InputError {
            InputError(.unsupportedContent, source: source, "\(place): expected \(expected)")
        }
    }
}
