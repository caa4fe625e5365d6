import MdocErrors

/// A failure to read, decode, encode or scan an image.
///
/// Equality compares the code only.
public typealias ImageError = MdocError<ImageErrorDomain>

/// The domain of ``ImageError``: its errors name the image, a file path or a description such
/// as "image" for data in memory, and print `source: reason`.
public enum ImageErrorDomain: SourcedErrorDomain {}

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
