import Foundation
import MdocCBOR
import MdocModel
import MdocQR
import MdocTestSupport
import MdocText

/// Fixtures shared by the QR and image tests.
enum QRTestSupport {
    /// The `mdoc:` URI of the ISO/IEC 18013-5 Annex D device engagement.
    static func annexDURI() throws -> String {
        MdocURI(deviceEngagementBytes: try EmbeddedCBOR(bytes: Vectors.annexD("device_engagement"))).description
    }

    /// The quadrants each block character inks: upper left, upper right, lower left, lower
    /// right (U+2580 to U+259F, as their names say).
    static let quadrants: [Character: (Bool, Bool, Bool, Bool)] = [
        " ": (false, false, false, false), "█": (true, true, true, true),
        "▀": (true, true, false, false), "▄": (false, false, true, true),
        "▌": (true, false, true, false), "▐": (false, true, false, true),
        "▘": (true, false, false, false), "▝": (false, true, false, false),
        "▖": (false, false, true, false), "▗": (false, false, false, true),
        "▚": (true, false, false, true), "▞": (false, true, true, false),
        "▛": (true, true, true, false), "▜": (true, true, false, true),
        "▙": (true, false, true, true), "▟": (false, true, true, true),
    ]

    /// Draws terminal text as a terminal would: each character cell `scale` pixels wide and
    /// `2 * scale` high (`scale` even), each quadrant of it in `ink` where the block glyph
    /// covers it and `background` elsewhere, with `margin` pixels of background around.
    static func rasterize(_ text: String, ink: UInt8, background: UInt8, scale: Int, margin: Int = 0) throws -> GreyImage {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(Array.init)
        let columns = lines.map(\.count).max() ?? 0
        let width = columns * scale + 2 * margin
        let height = lines.count * 2 * scale + 2 * margin
        var pixels = [UInt8](repeating: background, count: width * height)
        let half = scale / 2
        for (row, line) in lines.enumerated() {
            for (column, character) in line.enumerated() {
                let (upperLeft, upperRight, lowerLeft, lowerRight) = quadrants[character] ?? (false, false, false, false)
                for (inked, lower, right) in [(upperLeft, 0, 0), (upperRight, 0, 1), (lowerLeft, 1, 0), (lowerRight, 1, 1)] where inked {
                    for y in 0..<scale {
                        let start = (margin + (2 * row + lower) * scale + y) * width + margin + column * scale + right * half
                        let count = right == 0 ? half : scale - half
                        for x in 0..<count { pixels[start + x] = ink }
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
