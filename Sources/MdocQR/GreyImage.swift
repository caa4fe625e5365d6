import CImageIO

/// An 8-bit greyscale image (0 black, 255 white), rows top to bottom without padding: what a QR
/// code is drawn into and what a photographed QR code is decoded from.
///
/// Encoding and decoding go through libpng (PNG, ISO/IEC 15948) and libjpeg (JPEG,
/// ISO/IEC 10918-1) in the `CImageIO` C target, which turns the libraries' longjmp errors into
/// ``ImageError`` values.
public struct GreyImage: Sendable, Hashable {
    /// The format of encoded image bytes, recognised by signature.
    public enum Format: String, Sendable, CaseIterable {
        /// PNG: the 8-byte signature 89 50 4E 47 0D 0A 1A 0A (ISO/IEC 15948 5.2).
        case png = "PNG"
        /// JPEG: SOI marker FF D8 followed by another marker's FF (ISO/IEC 10918-1 B.1.1.3).
        case jpeg = "JPEG"

        /// The format whose signature `bytes` start with, or `nil`.
        public init?(signatureOf bytes: [UInt8]) {
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                self = .png
            } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
                self = .jpeg
            } else {
                return nil
            }
        }
    }

    /// The largest image decoded, in pixels: 40 million, above a 12-megapixel phone photo with
    /// room to spare, while bounding the greyscale buffer (one byte per pixel) to 40 MB. The
    /// libraries check it against the header before any pixel memory is allocated.
    public static let maximumPixelCount = 40_000_000

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` grey values, row by row.
    public let pixels: [UInt8]

    /// An image of `width` × `height` with the given pixels; the count must match and neither
    /// side may be zero.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(ImageError) {
        guard width > 0, height > 0, width <= Int(UInt32.max), height <= Int(UInt32.max),
              width.multipliedReportingOverflow(by: height) == (pixels.count, false) else {
            throw ImageError(.invalidParameter, source: "image",
                             "\(pixels.count) pixels do not make a \(width) x \(height) image")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Decodes PNG or JPEG bytes, recognised by their signature, into greyscale (colour is
    /// converted, transparency composited over white). `source` names the bytes in errors.
    public init(encoded bytes: [UInt8], source: String = "image",
                maximumPixelCount: Int = GreyImage.maximumPixelCount) throws(ImageError) {
        guard let format = Format(signatureOf: bytes) else {
            throw ImageError(.unsupportedFormat, source: source, "not a PNG or JPEG image (unrecognised signature)")
        }
        var data: UnsafeMutablePointer<UInt8>? = nil
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: Int(MDOC_IMAGE_MESSAGE_CAPACITY))
        let limit = UInt64(max(0, maximumPixelCount))
        let status = bytes.withUnsafeBufferPointer { buffer in
            message.withUnsafeMutableBufferPointer { text in
                switch format {
                case .png:
                    mdoc_png_read_grey8(buffer.baseAddress, buffer.count, limit, &data, &width, &height, text.baseAddress)
                case .jpeg:
                    mdoc_jpeg_read_grey8(buffer.baseAddress, buffer.count, limit, &data, &width, &height, text.baseAddress)
                }
            }
        }
        defer { mdoc_image_free(data) }
        guard status == Int32(MDOC_IMAGE_OK), let data else {
            throw Self.error(status, message: message, source: source, action: "decode \(format.rawValue)")
        }
        let count = Int(width) * Int(height)
        try self.init(width: Int(width), height: Int(height),
                      pixels: Array(UnsafeBufferPointer(start: data, count: count)))
    }

    /// The image as an 8-bit greyscale PNG.
    public func pngData() throws(ImageError) -> [UInt8] {
        try encode(action: "encode PNG") { pixels, width, height, out, length, message in
            mdoc_png_write_grey8(pixels, width, height, out, length, message)
        }
    }

    /// The image as a baseline greyscale JPEG at `quality` 1...100.
    public func jpegData(quality: Int = 90) throws(ImageError) -> [UInt8] {
        guard (1...100).contains(quality) else {
            throw ImageError(.invalidParameter, source: "image", "JPEG quality \(quality) is outside 1...100")
        }
        return try encode(action: "encode JPEG") { pixels, width, height, out, length, message in
            mdoc_jpeg_write_grey8(pixels, width, height, Int32(quality), out, length, message)
        }
    }

    private typealias Encoder = (
        UnsafePointer<UInt8>?, UInt32, UInt32, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>?
    ) -> Int32

    private func encode(action: String, _ encoder: Encoder) throws(ImageError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        var message = [CChar](repeating: 0, count: Int(MDOC_IMAGE_MESSAGE_CAPACITY))
        let status = pixels.withUnsafeBufferPointer { buffer in
            message.withUnsafeMutableBufferPointer { text in
                encoder(buffer.baseAddress, UInt32(width), UInt32(height), &out, &length, text.baseAddress)
            }
        }
        defer { mdoc_image_free(out) }
        guard status == Int32(MDOC_IMAGE_OK), let out else {
            throw Self.error(status, message: message, source: "image", action: action)
        }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    /// Maps a CImageIO status and message to an ``ImageError``.
    private static func error(_ status: Int32, message: [CChar], source: String, action: String) -> ImageError {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let reason = text.isEmpty ? "cannot \(action)" : "cannot \(action): \(text)"
        switch status {
        case Int32(MDOC_IMAGE_ERROR_TOO_LARGE): return ImageError(.tooLarge, source: source, text)
        case Int32(MDOC_IMAGE_ERROR_DECODE): return ImageError(.malformedImage, source: source, reason)
        case Int32(MDOC_IMAGE_ERROR_MEMORY): return ImageError(.tooLarge, source: source, reason)
        case Int32(MDOC_IMAGE_ERROR_PARAMETER): return ImageError(.invalidParameter, source: source, reason)
        case Int32(MDOC_IMAGE_ERROR_LIBRARY): return ImageError(.libraryUnavailable, source: source, reason)
        default: return ImageError(.encodingFailed, source: source, reason)
        }
    }
}
