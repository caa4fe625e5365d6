import MdocErrors

/// A failure to decode or interpret CBOR, naming what was wrong and where.
///
/// The `code` says what kind of failure it is and is what callers and tests compare; the
/// `path` locates the item inside the message and `offset` the byte in the input, when known.
/// Equality compares the code only.
public typealias CBORError = MdocError<CBORErrorDomain>

/// The domain of ``CBORError``: its errors say where the failing item is.
public enum CBORErrorDomain: ErrorDomain {
    /// The failing item's path and byte offset, read as the error's `path` and `offset`.
    public typealias Context = (path: CBORPath, offset: Int?)

    /// `reason at path`, then ` (byte offset)` when the offset is known.
    public static func description(of error: CBORError) -> String {
        var text = "\(error.reason) at \(error.path)"
        if let offset = error.offset { text += " (byte \(offset))" }
        return text
    }
}

extension MdocError where Domain == CBORErrorDomain {
    /// Where in the message the failing item is (``CBORPath/root`` for the whole input).
    public var path: CBORPath { context.path }

    /// The byte offset in the input where the failure was found, when the decoder knows it.
    public var offset: Int? { context.offset }

    /// A failure of kind `code`, explained by `reason`, at `path` and byte `offset`, made at
    /// `fileID`, `line` (the caller's place, unless given).
    public init(
        _ code: Code, _ reason: String, path: CBORPath = .root, offset: Int? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.init(code, reason, context: (path, offset), fileID: fileID, line: line)
    }

    /// The same error located under `prefix` (used when an embedded item fails to decode).
    public func prefixed(by prefix: CBORPath) -> CBORError {
        var copy = self
        copy.context.path = prefix.appending(contentsOf: path)
        return copy
    }
}

extension ErrorKind where Domain == CBORError {
    /// The input ended inside an item.
    public static let truncated = Self("truncated")
    /// A length or count declared in a head exceeds the bytes that remain.
    public static let declaredLengthExceedsInput = Self("declaredLengthExceedsInput")
    /// Nesting deeper than ``CBORLimits/maximumDepth``.
    public static let depthLimitExceeded = Self("depthLimitExceeded")
    /// More items than ``CBORLimits/maximumItemCount``.
    public static let itemCountLimitExceeded = Self("itemCountLimitExceeded")
    /// Input larger than ``CBORLimits/maximumInputSize``.
    public static let inputTooLarge = Self("inputTooLarge")
    /// A text string that is not valid UTF-8.
    public static let invalidUTF8 = Self("invalidUTF8")
    /// Bytes follow the top-level item.
    public static let trailingBytes = Self("trailingBytes")
    /// A map holds the same key twice.
    public static let duplicateMapKey = Self("duplicateMapKey")
    /// The bytes are not well-formed CBOR (reserved additional information, a misplaced break,
    /// a chunk of the wrong type inside an indefinite-length string, ...).
    public static let malformed = Self("malformed")
    /// An item has a different type from the one the structure requires.
    public static let unexpectedType = Self("unexpectedType")
    /// A required map entry or array element is absent.
    public static let missingValue = Self("missingValue")
    /// An item has the right type but a value the structure does not allow.
    public static let invalidValue = Self("invalidValue")
}
