import Foundation
import MdocCBOR
import MdocModel
import MdocTerminal
import MdocTestSupport

/// Fixtures shared by the QR and image tests.
enum QRTestSupport {
    /// The `mdoc:` URI of the ISO/IEC 18013-5 Annex D device engagement.
    static func annexDURI() throws -> String {
        MdocURI(deviceEngagementBytes: try EmbeddedCBOR(bytes: Vectors.annexD("device_engagement"))).description
    }

    /// Draws terminal text as a terminal would: each character cell `scale` pixels wide and
    /// `2 * scale` high, the upper and lower halves in `ink` where the half-block glyph covers
    /// them and `background` elsewhere, with `margin` pixels of background around.
    static func rasterize(_ text: String, ink: UInt8, background: UInt8, scale: Int, margin: Int = 0) throws -> GreyImage {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(Array.init)
        let columns = lines.map(\.count).max() ?? 0
        let width = columns * scale + 2 * margin
        let height = lines.count * 2 * scale + 2 * margin
        var pixels = [UInt8](repeating: background, count: width * height)
        for (row, line) in lines.enumerated() {
            for (column, character) in line.enumerated() {
                let (top, bottom): (Bool, Bool)
                switch character {
                case "█": (top, bottom) = (true, true)
                case "▀": (top, bottom) = (true, false)
                case "▄": (top, bottom) = (false, true)
                default: (top, bottom) = (false, false)
                }
                for half in 0..<2 where half == 0 ? top : bottom {
                    for y in 0..<scale {
                        let start = (margin + (2 * row + half) * scale + y) * width + margin + column * scale
                        for x in 0..<scale { pixels[start + x] = ink }
                    }
                }
            }
        }
        return try GreyImage(width: width, height: height, pixels: pixels)
    }

    /// A fresh file path in the temporary directory.
    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-terminal-\(UUID().uuidString)\(suffix)").path
    }

    /// Writes `bytes` to a fresh temporary file and returns its path.
    static func temporaryFile(_ bytes: [UInt8], suffix: String) throws -> String {
        let path = temporaryPath(suffix)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
