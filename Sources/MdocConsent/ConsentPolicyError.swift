import MdocErrors

/// A consent policy file that cannot be used: unreadable, not JSON, or not the documented
/// format (docs/consent-policy.md).
///
/// Equality compares the code only.
package typealias ConsentPolicyError = MdocError<ConsentPolicyErrorDomain>

/// The domain of ``ConsentPolicyError``: its errors name the policy file's path, or "policy"
/// for text in memory, and print `source: reason`; the reason says where in the JSON (for
/// example `rules[1].allow`).
package enum ConsentPolicyErrorDomain: SourcedErrorDomain {}

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
