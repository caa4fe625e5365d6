/// Text a peer chose, made safe to show to a person: every character that a terminal would
/// execute or that would change how the rest of the line is read is shown visibly instead, and
/// one piece of text is shown up to a bounded length.
///
/// A text string in an 18013-5 message (a docType, a name space, a data element identifier or
/// value, a certificate subject) may hold any Unicode scalar. Shown raw, the ECMA-48 control
/// functions among them (C0 and C1 controls, DEL, and the escape sequences they start) can move
/// the cursor, erase lines or clear the screen and draw text that the program never printed;
/// bidirectional overrides and isolates (Unicode Standard Annex #9) reorder the characters after
/// them; other format characters are invisible. ``mustEscape(_:)`` names all of them, and
/// ``escaped(_:maximumLength:)`` writes each one as `\u{...}` with its code point in hex, so
/// `"Doe\u{1B}[2J"` is shown as the eleven characters `Doe\u{1B}[2J`.
///
/// ``JSONStringLiteral`` escapes the same characters in its own syntax, so JSON output and
/// diagnostic notation are safe to show as well.
///
/// A backslash is left as it is, so escaping is idempotent: text that was escaped once contains
/// nothing that needs escaping again.
public enum UntrustedText {
    /// The most Unicode scalars of one piece of untrusted text that are shown: room for any
    /// real data element text (ISO/IEC 18013-5 7.2.1 Table 5 allows 150 characters for a
    /// name), while one value can fill only a few lines of a terminal, not push everything else
    /// off the screen.
    public static let maximumLength = 512

    /// `true` for a scalar that is not shown as itself: general category Cc (C0 and C1 control
    /// characters, DEL), Cf (format characters, among them the bidirectional embeddings,
    /// overrides, isolates and marks, zero-width characters and the byte order mark), and the
    /// line and paragraph separators U+2028 and U+2029 (Zl, Zp).
    public static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return false
        }
    }

    /// `true` when `text` holds no scalar that ``mustEscape(_:)``.
    public static func isSafe(_ text: some StringProtocol) -> Bool {
        !text.unicodeScalars.contains(where: mustEscape)
    }

    /// `scalar` as it is shown when it must be escaped: `\u{` and its code point in upper-case
    /// hex, then `}` (Swift's own notation, for example `\u{1B}` or `\u{202E}`).
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    /// `text` with every scalar that ``mustEscape(_:)`` written by ``escape(_:)``, cut after
    /// `maximumLength` scalars of `text`; a cut is marked with how many scalars were left out,
    /// as in `...(1200 more)`.
    public static func escaped(_ text: some StringProtocol, maximumLength: Int = UntrustedText.maximumLength) -> String {
        var result = ""
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == maximumLength {
                return result + "...(\(text.unicodeScalars.count - shown) more)"
            }
            if mustEscape(scalar) {
                result += escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
            shown += 1
        }
        return result
    }
}
