/// A capture directory that cannot be read back: a file missing, too large or not what the
/// index says, or messages that do not decrypt to what was stored. A capture directory is
/// untrusted input like any message from a peer.
///
/// Equality compares the code only.
public struct SessionCaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// A file of the capture is missing or cannot be read.
        public static let unreadable = Code("unreadable")
        /// A file is larger than ``SessionCapture/maximumFileSize``.
        public static let tooLarge = Code("tooLarge")
        /// The index holds more than ``SessionCapture/maximumMessageCount`` messages.
        public static let tooManyMessages = Code("tooManyMessages")
        /// The index is not a capture index this version reads, or names a file outside the
        /// directory.
        public static let badIndex = Code("badIndex")
        /// A file does not hold what the index says (not CBOR, not the message it names).
        public static let badContent = Code("badContent")
        /// The ephemeral key file lets group or others access it (docs/architecture.md rule 8).
        public static let insecurePermissions = Code("insecurePermissions")
        /// The files disagree: the transcript does not hold the engagement or the ephemeral
        /// key, the key does not derive the session keys, or a stored plaintext is not what
        /// its message decrypts to.
        public static let inconsistent = Code("inconsistent")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The file of the capture (its name in the directory), or the directory itself.
    public var file: String
    /// What was wrong.
    public var reason: String

    /// A failure of kind `code` with `file`.
    public init(_ code: Code, file: String, _ reason: String) {
        self.code = code
        self.file = file
        self.reason = reason
    }

    /// `file: reason`, the one line the programs print.
    public var description: String { "\(file): \(reason)" }

    /// Compares the codes only.
    public static func == (lhs: SessionCaptureError, rhs: SessionCaptureError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
