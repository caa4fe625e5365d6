/// A consent policy file that cannot be used: unreadable, not JSON, or not the documented
/// format (docs/consent-policy.md).
///
/// Equality compares the code only.
public struct ConsentPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// The file does not exist, cannot be read, or is larger than
        /// ``ConsentPolicy/maximumFileSize``.
        public static let unreadable = Code("unreadable")
        /// The file is not well-formed JSON.
        public static let malformedJSON = Code("malformedJSON")
        /// The JSON is not a policy: a member is missing, of the wrong type, unknown, or holds
        /// a value outside the format.
        public static let invalidPolicy = Code("invalidPolicy")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The policy file's path, or "policy" for text in memory.
    public var source: String
    /// What was wrong, and where in the JSON (for example `rules[1].allow`).
    public var reason: String

    /// A failure of kind `code` in `source`.
    public init(_ code: Code, source: String, _ reason: String) {
        self.code = code
        self.source = source
        self.reason = reason
    }

    /// `source: reason`, the one line the programs print.
    public var description: String { "\(source): \(reason)" }

    /// Compares the codes only.
    public static func == (lhs: ConsentPolicyError, rhs: ConsentPolicyError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
