import MdocErrors

/// A capture directory that cannot be read back: a file missing, too large or not what the
/// index says, or messages that do not decrypt to what was stored. A capture directory is
/// untrusted input like any message from a peer.
///
/// Equality compares the code only.
public typealias SessionCaptureError = MdocError<SessionCaptureErrorDomain>

/// The domain of ``SessionCaptureError``: its errors name the file of the capture (its name in
/// the directory), or the directory itself, and print `file: reason`.
public enum SessionCaptureErrorDomain: SourcedErrorDomain {}

extension MdocError where Domain == SessionCaptureErrorDomain {
    /// The file of the capture (its name in the directory), or the directory itself: the
    /// error's `source`.
    public var file: String { source }

    /// A failure of kind `code` with `file`, made at `fileID`, `line` (the caller's place,
    /// unless given).
    public init(_ code: Code, file: String, _ reason: String, fileID: String = #fileID, line: Int = #line) {
        self.init(code, source: file, reason, fileID: fileID, line: line)
    }
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
