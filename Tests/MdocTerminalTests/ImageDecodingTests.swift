import Foundation
@testable import MdocFiles
@testable import MdocQR
import MdocText
import Testing

@Suite struct ImageDecodingTests {
    @Test func jpegOfTheEngagementQRDecodes() throws {
        let uri = try QRTestSupport.annexDURI()
        let jpeg = try QRCode(text: uri).image(scale: 4).jpegData(quality: 85)
        #expect(GreyImage.Format(signatureOf: jpeg) == .jpeg)
        let path = try QRTestSupport.temporaryFile(jpeg, suffix: ".jpg")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try QRImageDecoder.decode(file: path) == [uri])
    }

    @Test func pngRoundTripKeepsEveryPixel() throws {
        let pixels = (0..<(37 * 11)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let image = try GreyImage(width: 37, height: 11, pixels: pixels)
        let png = try image.pngData()
        #expect(GreyImage.Format(signatureOf: png) == .png)
        #expect(try GreyImage(encoded: png) == image)
    }

    @Test func corruptPNGIsATypedErrorNamingTheFile() throws {
        var png = try QRCode(text: "mdoc:corrupt").pngData(scale: 2)
        for index in stride(from: 40, to: png.count - 12, by: 3) { png[index] ^= 0x5A }
        let path = try QRTestSupport.temporaryFile(png, suffix: ".png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: ImageError.self) { try QRImageDecoder.decode(file: path) }
        #expect(error.code == .malformedImage)
        #expect(error.source == path)
        #expect(error.description.hasPrefix(path + ": "))
    }

    @Test(arguments: [8, 20, 60])
    func truncatedPNGIsMalformed(length: Int) throws {
        let png = try QRCode(text: "mdoc:truncated").pngData(scale: 2)
        #expect(throws: ImageError(.malformedImage, source: "", "")) {
            try GreyImage(encoded: Array(png.prefix(length)))
        }
    }

    @Test(arguments: [4, 20, 200])
    func truncatedOrGarbageJPEGIsMalformed(length: Int) throws {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x00, count: max(0, length - 3))
        bytes[bytes.count - 1] = 0x17
        #expect(throws: ImageError(.malformedImage, source: "", "")) { try GreyImage(encoded: bytes) }
    }

    @Test func unknownSignatureIsUnsupported() throws {
        let path = try QRTestSupport.temporaryFile(Array("GIF89a not really".utf8), suffix: ".gif")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: ImageError.self) { try QRImageDecoder.decode(file: path) }
        #expect(error.code == .unsupportedFormat)
        #expect(error.source == path)
    }

    @Test func missingAndEmptyFilesAreUnreadable() throws {
        let missing = QRTestSupport.temporaryPath(".png")
        #expect(throws: ImageError(.unreadable, source: "", "")) { try QRImageDecoder.decode(file: missing) }
        let empty = try QRTestSupport.temporaryFile([], suffix: ".png")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: ImageError(.unreadable, source: "", "")) { try QRImageDecoder.decode(file: empty) }
    }

    @Test func imageWithoutQRCodeIsNoQRCode() throws {
        let blank = try GreyImage(width: 64, height: 64, pixels: [UInt8](repeating: 255, count: 64 * 64))
        let path = try QRTestSupport.temporaryFile(try blank.pngData(), suffix: ".png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: ImageError.self) { try QRImageDecoder.decode(file: path) }
        #expect(error.code == .noQRCode)
        #expect(error.source == path)
    }

    @Test(arguments: [GreyImage.Format.png, .jpeg])
    func pixelLimitIsCheckedBeforeDecoding(format: GreyImage.Format) throws {
        let image = try GreyImage(width: 10, height: 10, pixels: [UInt8](repeating: 128, count: 100))
        let bytes = format == .png ? try image.pngData() : try image.jpegData()
        #expect(try GreyImage(encoded: bytes, maximumPixelCount: 100).width == 10)
        let error = try #require(throws: ImageError.self) { try GreyImage(encoded: bytes, maximumPixelCount: 99) }
        #expect(error.code == .tooLarge)
        #expect(error.reason.contains("limit of 99"))
        #expect(GreyImage.maximumPixelCount == 40_000_000)
    }

    @Test func fileSizeLimitBoundary() throws {
        let path = try QRTestSupport.temporaryFile([UInt8](repeating: 1, count: 1000), suffix: ".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try BoundedFileReader.contents(of: path, maximumSize: 1000).count == 1000)
        #expect(throws: BoundedFileReader.Failure.self) { try BoundedFileReader.contents(of: path, maximumSize: 999) }
        #expect(QRImageDecoder.maximumFileSize == 64 * 1024 * 1024)
    }

    @Test func pixelCountMustMatchTheSize() throws {
        #expect(throws: ImageError(.invalidParameter, source: "", "")) {
            try GreyImage(width: 3, height: 3, pixels: [0, 0, 0])
        }
        #expect(throws: ImageError(.invalidParameter, source: "", "")) { try GreyImage(width: 0, height: 0, pixels: []) }
        let image = try GreyImage(width: 1, height: 1, pixels: [0])
        #expect(throws: ImageError(.invalidParameter, source: "", "")) { try image.jpegData(quality: 0) }
        #expect(throws: ImageError(.invalidParameter, source: "", "")) { try image.jpegData(quality: 101) }
        _ = try image.jpegData(quality: 1)
        _ = try image.jpegData(quality: 100)
    }
}
