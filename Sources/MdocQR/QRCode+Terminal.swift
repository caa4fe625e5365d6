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

/// How many modules one character cell holds.
public enum QRTerminalScale: String, Sendable, CaseIterable {
    /// Two modules, one above the other (Unicode half blocks): one column per module, and square
    /// modules in a terminal whose cells are twice as high as wide.
    case full
    /// Four modules, two by two (Unicode quadrant blocks): half the columns and half the lines,
    /// for narrow terminals; the modules come out twice as high as wide, which phone cameras
    /// read as they read a code seen at an angle.
    case compact

    /// Modules per character cell, across.
    var modulesPerColumn: Int { self == .full ? 1 : 2 }
}

extension QRCode {
    /// The block characters: one text cell holds two modules, one above the other.
    static let fullBlock: Character = "█"
    static let upperHalfBlock: Character = "▀"
    static let lowerHalfBlock: Character = "▄"
    /// The quadrant characters (U+2580 to U+259F), indexed by the inked quadrants: bit 3 upper
    /// left, bit 2 upper right, bit 1 lower left, bit 0 lower right.
    static let quadrantBlocks: [Character] = [
        " ", "▗", "▖", "▄", "▝", "▐", "▞", "▟", "▘", "▚", "▌", "▙", "▀", "▜", "▛", "█",
    ]

    /// The columns the drawing at `scale` takes, quiet zone included.
    public func terminalColumns(scale: QRTerminalScale) -> Int {
        (sizeWithQuietZone + scale.modulesPerColumn - 1) / scale.modulesPerColumn
    }

    /// The code drawn with Unicode block characters, with the four-module quiet zone (ISO/IEC
    /// 18004 6.3.8): at `scale` ``QRTerminalScale/full`` two module rows per line and one module
    /// per column, at ``QRTerminalScale/compact`` two of each. Every line ends in `\n`.
    ///
    /// Throws `QRCodeError.Code.tooWideForTerminal` when the drawing would be wider than
    /// `maximumColumns` (the error names both widths); a shorter text or level L may then fit.
    public func terminalText(style: QRTerminalStyle = .lightOnDark, scale: QRTerminalScale = .full,
                             maximumColumns: Int = QRCode.maximumTerminalColumns) throws(QRCodeError) -> String {
        let modules = sizeWithQuietZone
        let columns = terminalColumns(scale: scale)
        guard columns <= maximumColumns else {
            throw QRCodeError(.tooWideForTerminal,
                              "the QR code (version \(version), level \(errorCorrection.rawValue)) is \(columns) columns wide with its quiet zone, more than the \(maximumColumns) columns allowed")
        }
        let quiet = Self.quietZoneModules
        // Whether the module at padded position (row, column) is drawn with ink; positions past
        // the drawing (the odd last half line or column) are background.
        func ink(_ row: Int, _ column: Int) -> Bool {
            guard row < modules, column < modules else { return false }
            let dark = isDark(row: row - quiet, column: column - quiet)
            return style == .lightOnDark ? !dark : dark
        }
        let step = scale.modulesPerColumn
        var text = ""
        text.reserveCapacity((columns + 1) * (modules + 1) / 2 * 3)
        for row in stride(from: 0, to: modules, by: 2) {
            for column in stride(from: 0, to: modules, by: step) {
                switch scale {
                case .full:
                    switch (ink(row, column), ink(row + 1, column)) {
                    case (true, true): text.append(Self.fullBlock)
                    case (true, false): text.append(Self.upperHalfBlock)
                    case (false, true): text.append(Self.lowerHalfBlock)
                    case (false, false): text.append(" ")
                    }
                case .compact:
                    let index = (ink(row, column) ? 8 : 0) | (ink(row, column + 1) ? 4 : 0)
                        | (ink(row + 1, column) ? 2 : 0) | (ink(row + 1, column + 1) ? 1 : 0)
                    text.append(Self.quadrantBlocks[index])
                }
            }
            text.append("\n")
        }
        return text
    }
}
