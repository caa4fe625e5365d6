import CQREncode

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A QR code (ISO/IEC 18004) made by libqrencode in byte mode, as used for the `mdoc:` device
/// engagement URI (ISO/IEC 18013-5 8.2.2.3), drawn in a terminal or as a PNG.
///
/// The module matrix is copied out of libqrencode's `QRcode` and the C structure freed at once,
/// so the value is plain data.
public struct QRCode: Sendable, Hashable {
    /// The error-correction levels offered (ISO/IEC 18004 Table 12). 18013-5 does not fix one;
    /// M is the default, L gives a smaller code for long engagements.
    public enum ErrorCorrection: String, Sendable, CaseIterable {
        /// Level L: about 7 % of the codewords can be restored.
        case low = "L"
        /// Level M: about 15 % of the codewords can be restored.
        case medium = "M"

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            }
        }
    }

    /// The light margin around the symbol, in modules (ISO/IEC 18004 6.3.8: four modules wide).
    public static let quietZoneModules = 4
    /// The widest terminal drawing accepted by default: the 80-column terminal a user can be
    /// assumed to have. Versions up to 13 (69 modules + 8 quiet) fit.
    public static let maximumTerminalColumns = 80
    /// The largest PNG scale, in pixels per module: a version-40 code (177 modules) at this scale
    /// is 5 920 pixels wide, more than any screen needs.
    public static let maximumScale = 32

    /// The symbol version, 1...40 (ISO/IEC 18004 5.3.1).
    public let version: Int
    /// Modules per side, `17 + 4 × version`.
    public let size: Int
    /// The error-correction level used.
    public let errorCorrection: ErrorCorrection
    /// `size` rows of `size` modules each, `true` for dark, top row first.
    public let modules: [[Bool]]

    /// Encodes `text`'s UTF-8 bytes in byte mode at the smallest version that holds them.
    public init(text: String, errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        try self.init(bytes: Array(text.utf8), errorCorrection: errorCorrection)
    }

    /// Encodes `bytes` in byte (8-bit) mode (ISO/IEC 18004 7.4.5) at the smallest version that
    /// holds them.
    public init(bytes: [UInt8], errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        guard !bytes.isEmpty else {
            throw QRCodeError(.invalidParameter, "a QR code needs at least one byte of data")
        }
        guard let count = Int32(exactly: bytes.count) else {
            throw QRCodeError(.dataTooLong, "\(bytes.count) bytes do not fit in a QR code")
        }
        errno = 0
        let encoded = bytes.withUnsafeBufferPointer {
            QRcode_encodeData(count, $0.baseAddress, 0, errorCorrection.level)
        }
        guard let encoded else {
            if errno == ERANGE {
                throw QRCodeError(.dataTooLong, "\(bytes.count) bytes do not fit in a version-40 QR code at error-correction level \(errorCorrection.rawValue)")
            }
            throw QRCodeError(.encodingFailed, "libqrencode failed: \(String(cString: strerror(errno)))")
        }
        defer { QRcode_free(encoded) }
        let width = Int(encoded.pointee.width)
        guard width > 0, let data = encoded.pointee.data else {
            throw QRCodeError(.encodingFailed, "libqrencode returned an empty symbol")
        }
        // Bit 0 of each byte is the module colour (1 dark); the other bits describe the module's role.
        modules = (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
        version = Int(encoded.pointee.version)
        size = width
        self.errorCorrection = errorCorrection
    }

    /// Whether the module at `row`, `column` is dark; positions outside the symbol (the quiet
    /// zone) are light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard row >= 0, row < size, column >= 0, column < size else { return false }
        return modules[row][column]
    }

    /// Columns (and pixel units) of the drawing with its quiet zone.
    public var sizeWithQuietZone: Int { size + 2 * Self.quietZoneModules }

    /// The code as greyscale pixels: `scale` pixels per module, dark modules black (0), light
    /// modules and the quiet zone white (255).
    public func image(scale: Int) throws(QRCodeError) -> GreyImage {
        guard (1...Self.maximumScale).contains(scale) else {
            throw QRCodeError(.invalidParameter, "scale \(scale) is outside 1...\(Self.maximumScale) pixels per module")
        }
        let side = sizeWithQuietZone * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        let quiet = Self.quietZoneModules
        for row in 0..<size {
            for column in 0..<size where modules[row][column] {
                for y in 0..<scale {
                    let start = ((row + quiet) * scale + y) * side + (column + quiet) * scale
                    for x in 0..<scale { pixels[start + x] = 0 }
                }
            }
        }
        do {
            return try GreyImage(width: side, height: side, pixels: pixels)
        } catch {
            throw QRCodeError(.invalidParameter, error.reason)
        }
    }

    /// The code as an 8-bit greyscale PNG, `scale` pixels per module, quiet zone included.
    public func pngData(scale: Int = 8) throws(QRCodeError) -> [UInt8] {
        let image = try image(scale: scale)
        do {
            return try image.pngData()
        } catch {
            throw QRCodeError(.encodingFailed, error.reason)
        }
    }
}
