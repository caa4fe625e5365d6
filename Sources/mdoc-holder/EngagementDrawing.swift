import MdocQR
import MdocTerminal
import MdocText

/// The engagement QR code drawn in the terminal (ISO/IEC 18013-5 8.2.2.3), or, when the
/// terminal is too narrow for it, a note saying so and what to do instead: a drawing wider than
/// the terminal wraps into something no camera reads.
struct EngagementDrawing {
    let code: QRCode
    let style: QRTerminalStyle
    let scale: QRTerminalScale

    /// Draws the code on `output`, or writes the note on standard error when `output` is a
    /// terminal (or `COLUMNS` says) narrower than the drawing.
    func show(on output: ProgramOutput, environment: [String: String]) {
        let width = code.terminalColumns(scale: scale)
        let columns = output.columns(environment: environment)
        if let columns, width > columns {
            var ways: [TerminalText] = ["widen the terminal"]
            let compact = code.terminalColumns(scale: .compact)
            if scale == .full, compact <= columns {
                ways.append("give --qr-compact (\(compact) columns)")
            }
            ways.append("give --qr-png FILE and show the image")
            ProgramOutput.standardError.writeLine(
                "mdoc-holder: note: the QR code is \(width) columns wide but the terminal has \(columns), so it is not drawn (it would wrap into a pattern no camera reads): \(joined(ways)); the mdoc: URI below is the same engagement")
            return
        }
        do {
            output.write(TerminalText(lines: try code.terminalText(
                style: style, scale: scale, maximumColumns: columns ?? QRCode.maximumTerminalColumns)))
        } catch {
            ProgramOutput.standardError.writeLine("mdoc-holder: note: the QR code is not drawn: \(error.reason); the mdoc: URI below is the same engagement")
        }
    }

    private func joined(_ ways: [TerminalText]) -> TerminalText {
        var text = TerminalText()
        for (index, way) in ways.enumerated() {
            if index > 0 { text += index == ways.count - 1 ? ", or " : ", " }
            text += way
        }
        return text
    }
}
