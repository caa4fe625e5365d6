import MdocErrors

/// A capture directory that cannot be read back: a file missing, too large or not what the
/// index says, or messages that do not decrypt to what was stored. A capture directory is
/// untrusted input like any message from a peer.
///
/// Equality compares the code only.
public struct SessionCaptureError: CodedError {
    /// The kind of failure. New codes may be added without breaking callers.
    public typealias Code = ErrorKind<SessionCaptureError>

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
}

extension ErrorKind where Domain == SessionCaptureError {
    /// A file of the capture is missing or cannot be read.
    public static let unreadable = Self("unreadable")
    /// A file is larger than ``SessionCapture/maximumFileSize``.
    public static let tooLarge = Self("tooLarge")
    /// The index holds more than ``SessionCapture/maximumMessageCount`` messages.
    public static let tooManyMessages = Self("tooManyMessages")
    /// The index is not a capture index this version reads, or names a file outside the
    /// directory.
    public static let badIndex = Self("badIndex")
    /// A file does not hold what the index says (not CBOR, not the message it names).
    public static let badContent = Self("badContent")
    /// The ephemeral key file lets group or others access it (docs/architecture.md rule 8).
    public static let insecurePermissions = Self("insecurePermissions")
    /// The files disagree: the transcript does not hold the engagement or the ephemeral
    /// key, the key does not derive the session keys, or a stored plaintext is not what
    /// its message decrypts to.
    public static let inconsistent = Self("inconsistent")
}
