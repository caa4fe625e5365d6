import MdocErrors

/// Why bytes are not an NDEF message this toolkit reads, and where (NFC Forum NDEF 1.0).
public struct NDEFError: CodedError {
    /// What was wrong. New codes may be added without breaking callers.
    public typealias Code = ErrorKind<NDEFError>

    /// What was wrong.
    public var code: Code
    /// The reason, for people.
    public var reason: String
    /// The offset in the bytes where the problem was found.
    public var offset: Int

    /// A failure of `code` at `offset`.
    public init(_ code: Code, _ reason: String, offset: Int) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    /// The reason and the offset.
    public var description: String { "\(reason) (byte \(offset))" }
}

extension ErrorKind where Domain == NDEFError {
    /// A record header, type, ID or payload runs past the end of the bytes.
    public static let truncated = Self("truncated")
    /// The MB and ME flags do not mark exactly the first and the last record (NDEF 3.2.1).
    public static let badMessageBoundary = Self("badMessageBoundary")
    /// A chunked record (CF flag, NDEF 3.2.3): ISO/IEC 18013-5 uses none.
    public static let chunkedRecord = Self("chunkedRecord")
    /// More records than ``NDEFMessage/maximumRecordCount``.
    public static let tooManyRecords = Self("tooManyRecords")
    /// An empty message, or bytes left after the record with ME set.
    public static let notOneMessage = Self("notOneMessage")
}
