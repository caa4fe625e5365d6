import MdocText

/// The top-level JSON objects the programs print with `--json`, documented member by member in
/// docs/json-report.md: each starts with ``schemaVersion`` and its ``Kind``, so a consumer can
/// tell what it reads and whether it knows that version.
///
/// Within one schema version members are only ever added, never removed, renamed or given
/// another type; anything else makes a new version.
package enum JSONReport {
    /// The version of the members docs/json-report.md describes.
    package static let schemaVersion = 1

    /// What a top-level object is: the value of its `type` member.
    package enum Kind: String, Sendable, CaseIterable {
        /// `mdoc-reader verify` and `request`: the verification of a DeviceResponse.
        case verificationReport
        /// `mdoc-reader request`: a session that ended without a report, and why.
        case readerSession
        /// `mdoc-reader verify-request`: the reader authentication of a DeviceRequest.
        case requestVerification
        /// `mdoc-reader scan`: the devices seen.
        case scan
        /// `mdoc-holder present`: the engagement shown (one per session).
        case engagement
        /// `mdoc-holder present`: how one session ended, what was asked and what was released.
        case holderSession
        /// `mdoc-holder list`: the credentials in the holder's store.
        case credentialList
        /// `mdoc-holder show`: one credential.
        case credential
        /// `mdoc-issuer issue`: the credential written.
        case issuedCredential
        /// `mdoc-issuer pki`: the certificates and keys written.
        case pki
        /// `mdoc-reader trust list`: the reader's trust store.
        case trustList
        /// `mdoc-issuer vical`: the signed VICAL written.
        case vical
        /// `mdoc-reader test-holder --report-json` and `mdoc-holder test-reader --report-json`: the
        /// outcome of each conformance case.
        case conformanceRun
    }

    /// An object of `kind`: `schemaVersion`, `type`, then `members`.
    package static func object(_ kind: Kind, _ members: [(String, JSONValue)]) -> JSONValue {
        .object([("schemaVersion", .int(Int64(schemaVersion))), ("type", .string(kind.rawValue))] + members)
    }
}
