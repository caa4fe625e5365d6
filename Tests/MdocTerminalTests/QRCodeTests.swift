import Foundation
import MdocQR
import MdocText
import Testing

@Suite struct QRCodeTests {
    @Test func annexDEngagementURIRoundTripsThroughPNG() throws {
        let uri = try QRTestSupport.annexDURI()
        #expect(uri.hasPrefix("mdoc:"))
        let code = try QRCode(text: uri)
        #expect(code.errorCorrection == .medium)
        #expect(code.size == 17 + 4 * code.version)
        #expect(code.modules.count == code.size && code.modules.allSatisfy { $0.count == code.size })
        let png = try code.pngData(scale: 4)
        let path = try QRTestSupport.temporaryFile(png, suffix: ".png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try QRImageDecoder.decode(file: path) == [uri])
    }

    @Test func annexDEngagementURIFitsAnEightyColumnTerminal() throws {
        let code = try QRCode(text: try QRTestSupport.annexDURI())
        let text = try code.terminalText()
        let lines = text.split(separator: "\n")
        #expect(code.sizeWithQuietZone <= 80)
        #expect(lines.allSatisfy { $0.count == code.sizeWithQuietZone })
        #expect(lines.count == (code.sizeWithQuietZone + 1) / 2)
        #expect(text.hasSuffix("\n"))
    }

    @Test(arguments: [1, 3])
    func lightOnDarkDrawingOnADarkTerminalIsTheNormalPolarityCode(scale: Int) throws {
        let code = try QRCode(text: try QRTestSupport.annexDURI())
        let drawn = try QRTestSupport.rasterize(try code.terminalText(style: .lightOnDark), ink: 255, background: 0, scale: scale)
        let expected = try code.image(scale: scale)
        // The last text line's lower half lies below the drawing: terminal background.
        #expect(drawn.width == expected.width && drawn.height == expected.height + scale)
        #expect(Array(drawn.pixels.prefix(expected.pixels.count)) == expected.pixels)
        #expect(drawn.pixels.suffix(scale * drawn.width).allSatisfy { $0 == 0 })
    }

    @Test func darkOnLightDrawingOnALightTerminalIsTheNormalPolarityCode() throws {
        let code = try QRCode(text: try QRTestSupport.annexDURI())
        let drawn = try QRTestSupport.rasterize(try code.terminalText(style: .darkOnLight), ink: 0, background: 255, scale: 2)
        let expected = try code.image(scale: 2)
        #expect(Array(drawn.pixels.prefix(expected.pixels.count)) == expected.pixels)
    }

    @Test(arguments: [(QRTerminalStyle.lightOnDark, UInt8(255), UInt8(0)), (.darkOnLight, 0, 255)])
    func terminalDrawingDecodesWithZbar(style: QRTerminalStyle, ink: UInt8, background: UInt8) throws {
        let uri = try QRTestSupport.annexDURI()
        let text = try QRCode(text: uri).terminalText(style: style)
        let image = try QRTestSupport.rasterize(text, ink: ink, background: background, scale: 3, margin: 24)
        #expect(try QRImageDecoder.decode(image) == [uri])
    }

    @Test func compactDrawingTakesHalfTheColumnsAndLines() throws {
        let code = try QRCode(text: try QRTestSupport.annexDURI())
        let full = try code.terminalText().split(separator: "\n")
        let compact = try code.terminalText(scale: .compact).split(separator: "\n")
        #expect(code.terminalColumns(scale: .full) == code.sizeWithQuietZone)
        #expect(code.terminalColumns(scale: .compact) == (code.sizeWithQuietZone + 1) / 2)
        #expect(compact.allSatisfy { $0.count == code.terminalColumns(scale: .compact) })
        #expect(compact.count == full.count)
        #expect(compact.joined().allSatisfy { QRTestSupport.quadrants[$0] != nil })
    }

    @Test(arguments: [(QRTerminalStyle.lightOnDark, UInt8(255), UInt8(0)), (.darkOnLight, 0, 255)])
    func compactDrawingDecodesWithZbar(style: QRTerminalStyle, ink: UInt8, background: UInt8) throws {
        let uri = try QRTestSupport.annexDURI()
        let text = try QRCode(text: uri).terminalText(style: style, scale: .compact)
        // Each module comes out twice as high as wide, as on a terminal whose cells are 1:2.
        let image = try QRTestSupport.rasterize(text, ink: ink, background: background, scale: 6, margin: 24)
        #expect(try QRImageDecoder.decode(image) == [uri])
    }

    @Test func compactDrawingIsBoundedByItsOwnWidth() throws {
        let code = try QRCode(text: "mdoc:" + String(repeating: "A", count: 400))
        #expect(code.sizeWithQuietZone > 80)
        let compact = code.terminalColumns(scale: .compact)
        #expect(compact <= 80)
        _ = try code.terminalText(scale: .compact)
        #expect(throws: QRCodeError(.tooWideForTerminal, "")) { try code.terminalText(scale: .compact, maximumColumns: compact - 1) }
    }

    @Test func tooWideForTheTerminalNamesTheWidth() throws {
        let uri = "mdoc:" + String(repeating: "A", count: 400)
        let code = try QRCode(text: uri)
        #expect(code.sizeWithQuietZone > 80)
        let error = try #require(throws: QRCodeError.self) { try code.terminalText() }
        #expect(error.code == .tooWideForTerminal)
        #expect(error.reason.contains("\(code.sizeWithQuietZone) columns"))
        #expect(error.reason.contains("80 columns"))
    }

    @Test func eightyColumnsHoldVersionThirteenButNotFourteen() throws {
        // Byte-mode capacities at level M (ISO/IEC 18004 Table 7): version 13 holds 331 bytes.
        let thirteen = try QRCode(bytes: [UInt8](repeating: 0x41, count: 331))
        let fourteen = try QRCode(bytes: [UInt8](repeating: 0x41, count: 332))
        #expect(thirteen.version == 13 && thirteen.sizeWithQuietZone == 77)
        #expect(fourteen.version == 14 && fourteen.sizeWithQuietZone == 81)
        #expect(QRCode.maximumTerminalColumns == 80)
        _ = try thirteen.terminalText()
        #expect(throws: QRCodeError(.tooWideForTerminal, "")) { try fourteen.terminalText() }
    }

    @Test func maximumColumnsBoundary() throws {
        let code = try QRCode(text: "mdoc:test")
        _ = try code.terminalText(maximumColumns: code.sizeWithQuietZone)
        #expect(throws: QRCodeError(.tooWideForTerminal, "")) {
            try code.terminalText(maximumColumns: code.sizeWithQuietZone - 1)
        }
    }

    @Test func levelLIsNoLargerThanLevelM() throws {
        let uri = try QRTestSupport.annexDURI()
        let low = try QRCode(text: uri, errorCorrection: .low)
        let medium = try QRCode(text: uri, errorCorrection: .medium)
        #expect(low.errorCorrection == .low)
        #expect(low.version < medium.version)
        let path = try QRTestSupport.temporaryFile(try low.pngData(scale: 3), suffix: ".png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try QRImageDecoder.decode(file: path) == [uri])
    }

    @Test func dataBeyondVersionFortyIsATypedError() throws {
        // Version 40-L holds 2953 bytes in byte mode (ISO/IEC 18004 Table 7).
        _ = try QRCode(bytes: [UInt8](repeating: 0x41, count: 2953), errorCorrection: .low)
        #expect(throws: QRCodeError(.dataTooLong, "")) {
            try QRCode(bytes: [UInt8](repeating: 0x41, count: 2954), errorCorrection: .low)
        }
        #expect(throws: QRCodeError(.invalidParameter, "")) { try QRCode(bytes: []) }
    }

    @Test func scaleLimits() throws {
        let code = try QRCode(text: "mdoc:x")
        #expect(try code.image(scale: 1).width == code.sizeWithQuietZone)
        #expect(try code.image(scale: QRCode.maximumScale).width == code.sizeWithQuietZone * QRCode.maximumScale)
        #expect(throws: QRCodeError(.invalidParameter, "")) { try code.image(scale: 0) }
        #expect(throws: QRCodeError(.invalidParameter, "")) { try code.pngData(scale: QRCode.maximumScale + 1) }
    }

    @Test func imageHasAWhiteQuietZoneAndBlackFinderCorner() throws {
        let code = try QRCode(text: "mdoc:x")
        let image = try code.image(scale: 2)
        let quiet = QRCode.quietZoneModules * 2
        #expect(image.pixels.prefix(quiet * image.width).allSatisfy { $0 == 255 })
        #expect(code.isDark(row: 0, column: 0))
        #expect(!code.isDark(row: -1, column: 0) && !code.isDark(row: 0, column: code.size))
        #expect(image.pixels[quiet * image.width + quiet] == 0)
    }
}
