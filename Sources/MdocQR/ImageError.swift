import MdocErrors

/// A failure to read, decode, encode or scan an image.
///
/// Equality compares the code only.
public struct ImageError: CodedError {
    /// The kind of failure. New codes may be added without breaking callers.
    public typealias Code = ErrorKind<ImageError>

    /// What kind of failure this is.
    public var code: Code
    /// The image: a file path, or a description such as "image" for data in memory.
    public var source: String
    /// What was wrong.
    public var reason: String

    /// A failure of kind `code` with the image `source`.
    public init(_ code: Code, source: String, _ reason: String) {
        self.code = code
        self.source = source
        self.reason = reason
    }

    /// `source: reason`, the one line the programs print.
    public var description: String { "\(source): \(reason)" }
}

extension ErrorKind where Domain == ImageError {
    /// The file does not exist or cannot be read.
    public static let unreadable = Self("unreadable")
    /// The file or the image is larger than the decoder's limit.
    public static let tooLarge = Self("tooLarge")
    /// The bytes are neither PNG nor JPEG (judged by their signature).
    public static let unsupportedFormat = Self("unsupportedFormat")
    /// libpng or libjpeg rejected the data (corrupt or truncated).
    public static let malformedImage = Self("malformedImage")
    /// The image was decoded but holds no readable QR code.
    public static let noQRCode = Self("noQRCode")
    /// libpng or libjpeg failed to encode the image.
    public static let encodingFailed = Self("encodingFailed")
    /// A parameter is out of its documented range (size, pixel count, quality).
    public static let invalidParameter = Self("invalidParameter")
    /// libpng, libjpeg or zbar cannot be opened: the programs open them when an image is
    /// first read or written, so a machine without them still verifies and inspects.
    public static let libraryUnavailable = Self("libraryUnavailable")
}
