import MdocCBOR
import MdocText

/// What `mdoc inspect --explain` prints about one structure: a labelled line, optionally with a
/// value, and the lines below it, as `openssl x509 -text` prints a certificate.
///
/// Labels and values are `TerminalText` (MdocText): what a message holds (names, identifiers,
/// values, certificate fields) is escaped where it is interpolated, so an explanation of hostile
/// input cannot act on the terminal.
public struct Explanation: Sendable {
    /// The line's label, such as `Version` or `DocRequest 0`.
    public var label: TerminalText
    /// The value after the label, or `nil` for a heading.
    public var value: TerminalText?
    /// The lines below, indented one step.
    public var children: [Explanation]

    /// The widest hex shown on one line, in bytes; longer byte strings continue on lines below.
    public static let hexBytesPerLine = 32

    /// A line `label: value` with `children` below it.
    public init(_ label: TerminalText, _ value: TerminalText? = nil, children: [Explanation] = []) {
        self.label = label
        self.value = value
        self.children = children
    }

    /// A line for `bytes`: their hex after the label when they fit one line, otherwise their
    /// count, with the hex on lines below.
    public static func bytes(_ label: TerminalText, _ bytes: some Collection<UInt8>) -> Explanation {
        let bytes = Array(bytes)
        guard bytes.count > hexBytesPerLine else {
            return Explanation(label, bytes.isEmpty ? "empty" : "\(Hex.encode(bytes))")
        }
        let lines = stride(from: 0, to: bytes.count, by: hexBytesPerLine).map { start in
            Explanation("\(Hex.encode(bytes[start..<min(start + hexBytesPerLine, bytes.count)]))")
        }
        return Explanation(label, "\(bytes.count) bytes", children: lines)
    }

    /// A line for a value of no structure this toolkit knows: its diagnostic notation with
    /// embedded CBOR expanded, on the label's line when it is one line, otherwise below it.
    public static func diagnostic(_ label: TerminalText, _ item: CBOR) -> Explanation {
        let lines = item.diagnosticNotation(expandEmbedded: true, indent: true).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 1 else { return Explanation(label, "\(lines.first ?? "")") }
        return Explanation(label, children: lines.map { Explanation(TerminalText(lines: $0)) })
    }

    /// The text: one line per node, indented two spaces per level from `level`.
    public func rendered(level: Int = 0) -> TerminalText {
        var out = TerminalText(escaping: String(repeating: " ", count: 2 * level)) + label
        if let value {
            out += ": " + value
        }
        out += "\n"
        for child in children {
            out += child.rendered(level: level + 1)
        }
        return out
    }
}
