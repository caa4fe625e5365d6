import MdocErrors

/// A failure to decode or interpret CBOR, naming what was wrong and where.
///
/// The ``code`` says what kind of failure it is and is what callers and tests compare; the
/// ``path`` locates the item inside the message and ``offset`` the byte in the input, when known.
/// Equality compares the code only.
public struct CBORError: CodedError {
    /// The kind of failure. New codes may be added without breaking callers.
    public typealias Code = ErrorKind<CBORError>

    /// What kind of failure this is.
    public var code: Code
    /// Where in the message the failing item is (``CBORPath/root`` for the whole input).
    public var path: CBORPath
    /// The byte offset in the input where the failure was found, when the decoder knows it.
    public var offset: Int?
    /// What was wrong, for people.
    public var reason: String

    /// A failure of kind `code`, explained by `reason`, at `path` and byte `offset`.
    public init(_ code: Code, _ reason: String, path: CBORPath = .root, offset: Int? = nil) {
        self.code = code
        self.reason = reason
        self.path = path
        self.offset = offset
    }

    public var description: String {
        var text = "\(reason) at \(path)"
        if let offset { text += " (byte \(offset))" }
        return text
    }

    /// The same error located under `prefix` (used when an embedded item fails to decode).
    public func prefixed(by prefix: CBORPath) -> CBORError {
        var copy = self
        copy.path = prefix.appending(contentsOf: path)
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
