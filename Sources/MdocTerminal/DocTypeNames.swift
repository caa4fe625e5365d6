import MdocModel

/// The short names every program accepts for the doc types the toolkit knows (`--doctype mdl`),
/// one list for `mdoc-reader request` and `mdoc-issuer issue`, so a name means the same
/// document everywhere.
package enum DocTypeNames {
    /// A doc type the toolkit knows: its short name, its docType (ISO/IEC 18013-5 7.1) and the
    /// name space of its data elements.
    package struct Entry: Sendable, Hashable {
        /// What `--doctype` accepts for it, such as `mdl`.
        package let shortName: String
        /// The docType, such as `org.iso.18013.5.1.mDL`.
        package let docType: String
        /// The name space its elements are in.
        package let nameSpace: String
    }

    /// The known doc types, in the order messages list them.
    package static let entries = [
        Entry(shortName: "mdl", docType: DocType.mDL, nameSpace: NameSpace.mDL),
        Entry(shortName: "pid", docType: DocType.eudiPID, nameSpace: NameSpace.eudiPID),
        Entry(shortName: "av", docType: DocType.euAgeVerification, nameSpace: NameSpace.euAgeVerification),
    ]

    /// What shell completion offers for `--doctype`: the short names, then the docTypes.
    package static var completions: [String] {
        entries.map(\.shortName) + entries.map(\.docType)
    }

    /// The docType a `--doctype` argument names: a short name (in any case) resolved, anything
    /// else as written.
    package static func docType(for argument: String) -> String {
        entry(shortName: argument)?.docType ?? argument
    }

    /// The entry of a short name, in any case.
    package static func entry(shortName: String) -> Entry? {
        let name = shortName.lowercased()
        return entries.first { $0.shortName == name }
    }

    /// The name space of the elements of `docType`, when the toolkit knows the doc type.
    package static func nameSpace(of docType: String) -> String? {
        entries.first { $0.docType == docType }?.nameSpace
    }

    /// `true` when `docType` looks like a docType: a reverse domain name with at least one dot,
    /// as every docType of 18013-5 and its ecosystems is. A bare word is a mistyped short name.
    package static func isQualified(_ docType: String) -> Bool {
        docType.contains(".") && !docType.hasPrefix(".") && !docType.hasSuffix(".")
    }

    /// The list for messages: `mdl (org.iso.18013.5.1.mDL), pid (eu.europa.ec.eudi.pid.1), …`.
    package static var listText: String {
        entries.map { "\($0.shortName) (\($0.docType))" }.joined(separator: ", ")
    }
}
