import MdocErrors

/// Why bytes are not an NDEF message this toolkit reads, and where (NFC Forum NDEF 1.0).
public typealias NDEFError = MdocError<NDEFErrorDomain>

/// The domain of ``NDEFError``: its errors say at which byte the problem was found.
public enum NDEFErrorDomain: ErrorDomain {
    /// The offset in the bytes where the problem was found.
    public typealias Context = Int

    /// The reason and the offset.
    public static func description(of error: NDEFError) -> String {
        "\(error.reason) (byte \(error.offset))"
    }
}

extension MdocError where Domain == NDEFErrorDomain {
    /// The offset in the bytes where the problem was found.
    public var offset: Int { context }

    /// A failure of `code` at `offset`, made at `fileID`, `line` (the caller's place, unless
    /// given).
    public init(_ code: Code, _ reason: String, offset: Int, fileID: String = #fileID, line: Int = #line) {
        self.init(code, reason, context: offset, fileID: fileID, line: line)
    }
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
