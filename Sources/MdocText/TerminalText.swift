import MdocCBOR

/// Text for a person at a terminal, built so that nothing a peer sent can act on the terminal:
/// the literal parts are the program's own, and every interpolated value is escaped and bounded
/// (`UntrustedText.escaped(_:maximumLength:)`, MdocCBOR).
///
/// ```swift
/// let line: TerminalText = "  In \(element.nameSpace):\n"   // the name space is escaped
/// ```
///
/// Literals are `StaticString`s, so the only text that reaches a terminal unescaped is text
/// written in the program's source; a `String` computed at run time, whatever its origin, is
/// always escaped. Text the programs write goes through `ProgramOutput` (MdocTerminal), which
/// takes nothing else, so a printer of peer data cannot forget to escape it.
public struct TerminalText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The text as written to the terminal.
    public private(set) var description: String

    /// Empty text.
    public init() {
        description = ""
    }

    /// Source text, shown as written.
    public init(stringLiteral value: StaticString) {
        description = value.description
    }

    /// The literal parts as written, the interpolated values escaped.
    public init(stringInterpolation: StringInterpolation) {
        description = stringInterpolation.text
    }

    /// `text` (one piece of untrusted text) escaped and cut at `maximumLength` scalars.
    public init(escaping text: some StringProtocol, maximumLength: Int = UntrustedText.maximumLength) {
        description = UntrustedText.escaped(text, maximumLength: maximumLength)
    }

    /// Text of several lines, such as JSON or diagnostic notation made of untrusted values:
    /// every line is escaped (`UntrustedText.mustEscape(_:)`) and only the line feeds between
    /// them are kept. Nothing is cut: a document the user asked for is shown whole.
    public init(lines text: some StringProtocol) {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar != "\n", UntrustedText.mustEscape(scalar) {
                result += UntrustedText.escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        description = result
    }

    /// `count` and `noun`, the noun in the plural (an added "s") unless `count` is 1:
    /// "1 data element", "2 data elements", "0 sessions".
    public init(count: Int, _ noun: StaticString) {
        description = "\(count) \(noun)" + (count == 1 ? "" : "s")
    }

    /// The number of characters shown.
    public var count: Int { description.count }

    /// This text followed by spaces up to `width` characters (unchanged when it is as wide or
    /// wider), for columns.
    public func padded(to width: Int) -> TerminalText {
        var copy = self
        copy.description += String(repeating: " ", count: max(0, width - count))
        return copy
    }

    /// `left` followed by `right`.
    public static func + (left: TerminalText, right: TerminalText) -> TerminalText {
        var copy = left
        copy += right
        return copy
    }

    /// Appends `right`.
    public static func += (left: inout TerminalText, right: TerminalText) {
        left.description += right.description
    }

    /// Collects a ``TerminalText`` literal: literal segments as written, every interpolated
    /// value escaped.
    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        /// Room for the literal parts and about as many interpolated characters.
        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity * 2)
        }

        /// A literal segment: source text, as written.
        public mutating func appendLiteral(_ literal: StaticString) {
            text += literal.description
        }

        /// Text that is already safe: appended as it is.
        public mutating func appendInterpolation(_ value: TerminalText) {
            text += value.description
        }

        /// Any other value: its description, escaped and cut at `UntrustedText.maximumLength`.
        public mutating func appendInterpolation<Value>(_ value: Value) {
            text += UntrustedText.escaped(String(describing: value))
        }
    }
}
