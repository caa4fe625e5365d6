import MdocErrors

/// A failure to encode a QR code or to draw it in a terminal.
///
/// Equality compares the code only.
public struct QRCodeError: CodedError {
    /// The kind of failure. New codes may be added without breaking callers.
    public typealias Code = ErrorKind<QRCodeError>

    /// What kind of failure this is.
    public var code: Code
    /// What was wrong, with the numbers involved.
    public var reason: String

    /// A failure of kind `code`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}

extension ErrorKind where Domain == QRCodeError {
    /// The data does not fit the largest QR code (version 40, ISO/IEC 18004 Table 7) at the
    /// chosen error-correction level.
    public static let dataTooLong = Self("dataTooLong")
    /// The code, with its quiet zone, is wider than the terminal width allowed.
    public static let tooWideForTerminal = Self("tooWideForTerminal")
    /// A parameter is out of its documented range (for example an image scale).
    public static let invalidParameter = Self("invalidParameter")
    /// libqrencode failed for another reason (for example memory exhaustion).
    public static let encodingFailed = Self("encodingFailed")
}
