import MdocText

/// Where a report's trust anchor came from, when the reader's trust store gave it: the store's
/// identifier of the root, the document types it may anchor, and its sources (a file added, an
/// entry of a VICAL, ISO/IEC 18013-5 Annex C.1.7, or a file put into the store's folder).
package struct TrustEntry: Sendable {
    /// The SHA-256 of the root's DER, hexadecimal.
    package let id: String
    /// The document types it may anchor; `nil` for any.
    package let docTypes: [String]?
    /// Each source as the `trustList` JSON gives it (docs/json-report.md).
    package let sources: [JSONValue]
    /// The sources in words, for the text report, such as "the VICAL of P, vicalIssueID 5".
    package let summary: String

    /// An entry from its parts.
    package init(id: String, docTypes: [String]?, sources: [JSONValue], summary: String) {
        self.id = id
        self.docTypes = docTypes
        self.sources = sources
        self.summary = summary
    }

    /// The `trustEntry` object of a report's document.
    var json: JSONValue {
        .object([
            ("id", .string(id)),
            ("docTypes", docTypes.map { .array($0.map(JSONValue.string)) } ?? .null),
            ("sources", .array(sources)),
        ])
    }
}
