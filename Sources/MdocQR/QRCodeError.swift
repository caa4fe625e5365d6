import MdocErrors

/// A failure to encode a QR code or to draw it in a terminal.
///
/// Equality compares the code only.
public typealias QRCodeError = MdocError<QRCodeErrorDomain>

/// The domain of ``QRCodeError``.
public enum QRCodeErrorDomain: ErrorDomain {}

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
