import CZBar
import MdocFiles

/// Reads QR codes from images with zbar: how `mdoc-reader` takes the holder's device engagement
/// (ISO/IEC 18013-5 8.2.2.3) from a photo or screenshot of the QR code.
public enum QRImageDecoder {
    /// The largest image file read: 64 MiB, above any phone photo or screenshot; reading stops
    /// one byte past it, so a huge file is rejected without being read whole.
    public static let maximumFileSize = 64 * 1024 * 1024

    /// The texts of the QR codes in the PNG or JPEG file at `path` (format recognised by its
    /// signature), in zbar's order. Throws ``ImageError`` naming the file when it cannot be
    /// read, is not PNG or JPEG, is corrupt, or holds no readable QR code.
    public static func decode(file path: String) throws(ImageError) -> [String] {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileReader.contents(of: path, maximumSize: maximumFileSize)
        } catch {
            switch error {
            case .cannotOpen(let reason): throw ImageError(.unreadable, source: path, "cannot open: \(reason)")
            case .readFailed(let reason): throw ImageError(.unreadable, source: path, "read failed: \(reason)")
            case .tooLarge: throw ImageError(.tooLarge, source: path, "larger than the \(maximumFileSize)-byte image file limit")
            }
        }
        guard !bytes.isEmpty else { throw ImageError(.unreadable, source: path, "the file is empty") }
        let image = try GreyImage(encoded: bytes, source: path)
        return try decode(image, source: path)
    }

    /// The texts of the QR codes in `image`; `source` names the image in errors.
    public static func decode(_ image: GreyImage, source: String = "image") throws(ImageError) -> [String] {
        // zbar is opened when an image is first scanned, not when the program starts.
        if let unavailable = mdoc_zbar_open() {
            throw ImageError(.libraryUnavailable, source: source, "cannot scan for QR codes: \(String(cString: unavailable))")
        }
        guard let scanner = zbar_image_scanner_create() else {
            throw ImageError(.invalidParameter, source: source, "zbar could not create a scanner")
        }
        defer { zbar_image_scanner_destroy(scanner) }
        // Only QR codes; the other symbologies would only add false positives. A failed
        // normal-polarity scan is retried on the inverted image, which reads a light-on-dark
        // terminal drawing photographed as it is.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_TEST_INVERTED, 1)

        guard let zbarImage = zbar_image_create() else {
            throw ImageError(.invalidParameter, source: source, "zbar could not create an image")
        }
        defer { zbar_image_destroy(zbarImage) }
        zbar_image_set_format(zbarImage, y800)
        zbar_image_set_size(zbarImage, UInt32(image.width), UInt32(image.height))

        var texts: [String] = []
        let found = image.pixels.withUnsafeBufferPointer { buffer -> Int32 in
            // zbar reads the buffer only during zbar_scan_image; no cleanup handler is needed.
            zbar_image_set_data(zbarImage, buffer.baseAddress, UInt(buffer.count), nil)
            let count = zbar_scan_image(scanner, zbarImage)
            var symbol = zbar_image_first_symbol(zbarImage)
            while let current = symbol {
                if zbar_symbol_get_type(current) == ZBAR_QRCODE, let data = zbar_symbol_get_data(current) {
                    let length = Int(zbar_symbol_get_data_length(current))
                    let bytes = UnsafeRawBufferPointer(start: data, count: length)
                    texts.append(String(decoding: bytes, as: UTF8.self))
                }
                symbol = zbar_symbol_next(current)
            }
            zbar_image_set_data(zbarImage, nil, 0, nil)
            return count
        }
        guard found >= 0 else {
            throw ImageError(.malformedImage, source: source, "zbar could not scan the \(image.width) x \(image.height) image")
        }
        guard !texts.isEmpty else {
            throw ImageError(.noQRCode, source: source, "no readable QR code in the \(image.width) x \(image.height) image")
        }
        return texts
    }

    /// The fourcc of zbar's 8-bit greyscale format: zbar_fourcc('Y', '8', '0', '0') in zbar.h,
    /// the four ASCII bytes little-endian.
    private static let y800: UInt = 0x3030_3859
}
