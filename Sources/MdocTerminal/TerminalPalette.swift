import MdocText

/// Colours for the verdicts of a report (ok, FAIL, iss, not checked, and the outcome lines) on a
/// terminal: ECMA-48 SGR sequences around the program's own words, never around text a peer
/// sent, which stays escaped (``TerminalText``).
///
/// Colour is on when the output is a terminal, and off when it is piped or redirected, when
/// `NO_COLOR` is set to anything but the empty string (no-color.org), or when `TERM` is `dumb`.
/// `CLICOLOR_FORCE` set to anything but `0` or the empty string turns it on for output that is
/// not a terminal (a pager that shows colours, a test); `NO_COLOR` still wins.
package struct TerminalPalette: Sendable, Hashable {
    /// Whether the palette colours anything.
    package let isEnabled: Bool

    /// No colour: text as it is.
    package static let plain = TerminalPalette(isEnabled: false)
    /// Colours on.
    package static let coloured = TerminalPalette(isEnabled: true)

    /// The palette for `output` in a process with `environment`, by the rules on the type.
    package static func `for`(_ output: ProgramOutput, environment: [String: String]) -> TerminalPalette {
        TerminalPalette(isEnabled: isColourWanted(isTerminal: output.isTerminal, environment: environment))
    }

    /// Whether output that is (`isTerminal`) or is not a terminal gets colour under
    /// `environment`, by the rules on the type.
    package static func isColourWanted(isTerminal: Bool, environment: [String: String]) -> Bool {
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
        if environment["TERM"] == "dumb" { return false }
        return isTerminal
    }

    /// A verdict that passed: green.
    package func passed(_ text: TerminalText) -> TerminalText {
        isEnabled ? "\u{1B}[32m" + text + "\u{1B}[0m" : text
    }

    /// A verdict that failed: bold red.
    package func failed(_ text: TerminalText) -> TerminalText {
        isEnabled ? "\u{1B}[1;31m" + text + "\u{1B}[0m" : text
    }

    /// A verdict that holds only in part, or was not checked: yellow.
    package func partial(_ text: TerminalText) -> TerminalText {
        isEnabled ? "\u{1B}[33m" + text + "\u{1B}[0m" : text
    }
}
