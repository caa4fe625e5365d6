/// How a QR code is drawn with text: which modules become glyph ink.
///
/// A terminal draws glyphs in its foreground colour on its background colour, and the QR code
/// must come out dark-on-light (ISO/IEC 18004 6.3.8: dark modules on a light background, light
/// quiet zone) for a phone camera to read it.
public enum QRTerminalStyle: String, Sendable, CaseIterable {
    /// For terminals with light text on a dark background (the common default): light modules
    /// and the quiet zone are drawn as blocks, dark modules are left as background.
    case lightOnDark = "light-on-dark"
    /// For terminals with dark text on a light background: dark modules are drawn as blocks.
    case darkOnLight = "dark-on-light"
}

extension QRCode {
    /// The block characters: one text cell holds two modules, one above the other.
    static let fullBlock: Character = "█"
    static let upperHalfBlock: Character = "▀"
    static let lowerHalfBlock: Character = "▄"

    /// The code drawn with Unicode half blocks, two module rows per line and one module per
    /// column, with the four-module quiet zone (ISO/IEC 18004 6.3.8). Every line ends in `\n`.
    ///
    /// Throws ``QRCodeError/Code/tooWideForTerminal`` when the drawing would be wider than
    /// `maximumColumns` (the error names both widths); a shorter text or level L may then fit.
    public func terminalText(style: QRTerminalStyle = .lightOnDark,
                             maximumColumns: Int = QRCode.maximumTerminalColumns) throws(QRCodeError) -> String {
        let columns = sizeWithQuietZone
        guard columns <= maximumColumns else {
            throw QRCodeError(.tooWideForTerminal,
                              "the QR code (version \(version), level \(errorCorrection.rawValue)) is \(columns) columns wide with its quiet zone, more than the \(maximumColumns) columns allowed")
        }
        let quiet = Self.quietZoneModules
        // Whether the cell half at padded position (row, column) is drawn with ink; rows below
        // the drawing (the odd last half line) are background.
        func ink(_ row: Int, _ column: Int) -> Bool {
            guard row < columns else { return false }
            let dark = isDark(row: row - quiet, column: column - quiet)
            return style == .lightOnDark ? !dark : dark
        }
        var text = ""
        text.reserveCapacity((columns + 1) * (columns + 1) / 2 * 3)
        for row in stride(from: 0, to: columns, by: 2) {
            for column in 0..<columns {
                switch (ink(row, column), ink(row + 1, column)) {
                case (true, true): text.append(Self.fullBlock)
                case (true, false): text.append(Self.upperHalfBlock)
                case (false, true): text.append(Self.lowerHalfBlock)
                case (false, false): text.append(" ")
                }
            }
            text.append("\n")
        }
        return text
    }
}
