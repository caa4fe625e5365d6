import MdocErrors

/// A consent policy file that cannot be used: unreadable, not JSON, or not the documented
/// format (docs/consent-policy.md).
///
/// Equality compares the code only.
package struct ConsentPolicyError: CodedError {
    /// The kind of failure. New codes may be added without breaking callers.
    package typealias Code = ErrorKind<ConsentPolicyError>

    /// What kind of failure this is.
    package var code: Code
    /// The policy file's path, or "policy" for text in memory.
    package var source: String
    /// What was wrong, and where in the JSON (for example `rules[1].allow`).
    package var reason: String

    /// A failure of kind `code` in `source`.
    package init(_ code: Code, source: String, _ reason: String) {
        self.code = code
        self.source = source
        self.reason = reason
    }

    /// `source: reason`, the one line the programs print.
    package var description: String { "\(source): \(reason)" }
}

extension ErrorKind where Domain == ConsentPolicyError {
    /// The file does not exist, cannot be read, or is larger than
    /// ``ConsentPolicy/maximumFileSize``.
    package static let unreadable = Self("unreadable")
    /// The file is not well-formed JSON.
    package static let malformedJSON = Self("malformedJSON")
    /// The JSON is not a policy: a member is missing, of the wrong type, unknown, or holds
    /// a value outside the format.
    package static let invalidPolicy = Self("invalidPolicy")
}
