import MdocErrors

/// A problem with an issuer data file (docs/issuer-data-format.md) or a file it names.
///
/// Equality compares the code only.
package typealias IssuerDataError = MdocError<IssuerDataErrorDomain>

/// The domain of ``IssuerDataError``: its errors name the data file and the place in it.
package enum IssuerDataErrorDomain: ErrorDomain {
    /// The data file's path and the place in it.
    package typealias Context = (source: String, location: String)

    /// `source: location: reason` (`source: reason` without a location), the one line the
    /// programs print.
    package static func description(of error: IssuerDataError) -> String {
        error.location.isEmpty ? "\(error.source): \(error.reason)" : "\(error.source): \(error.location): \(error.reason)"
    }
}

extension MdocError where Domain == IssuerDataErrorDomain {
    /// The data file's path.
    package var source: String { context.source }

    /// Where in the file: a JSON path such as `$["nameSpaces"]["org.iso.18013.5.1"]["birth_date"]`,
    /// `line 3, column 7` for malformed JSON, or empty when the whole file is concerned.
    package var location: String { context.location }

    /// A failure of kind `code` at `location` in `source`, made at `fileID`, `line` (the
    /// caller's place, unless given).
    package init(_ code: Code, source: String, location: String, _ reason: String, fileID: String = #fileID, line: Int = #line) {
        self.init(code, reason, context: (source, location), fileID: fileID, line: line)
    }
}

extension ErrorKind where Domain == IssuerDataError {
    /// The data file or a `bytes-file` cannot be read, or is too large.
    package static let unreadable = Self("unreadable")
    /// The text is not JSON (RFC 8259): the location is a line and column.
    package static let malformedJSON = Self("malformedJSON")
    /// Values nest deeper than ``IssuerData/maximumDepth``.
    package static let depthLimitExceeded = Self("depthLimitExceeded")
    /// An object has the same key twice (RFC 8259 section 4 leaves the meaning open).
    package static let duplicateKey = Self("duplicateKey")
    /// A value has the wrong JSON type for its place.
    package static let unexpectedType = Self("unexpectedType")
    /// A key the format does not define, or a required key that is missing.
    package static let unexpectedKey = Self("unexpectedKey")
    /// A value of the right type whose content is invalid (a date, hex, base64, an empty
    /// name space).
    package static let invalidValue = Self("invalidValue")
}
