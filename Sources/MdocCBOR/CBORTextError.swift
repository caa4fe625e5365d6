import MdocErrors

/// A failure to read CBOR written as text (diagnostic notation, RFC 8949 section 8, or the
/// lossless JSON of `mdoc inspect --json`), naming what was wrong and the line and column where.
///
/// Equality compares the code only.
public typealias CBORTextError = MdocError<CBORTextErrorDomain>

/// The domain of ``CBORTextError``: its errors say where in the text the failure is.
public enum CBORTextErrorDomain: ErrorDomain {
    /// A place in the text: its line and column, both from 1; columns count characters.
    public struct Position: Sendable, Hashable, CustomStringConvertible {
        /// The line, from 1.
        public var line: Int
        /// The column, from 1, in characters (not UTF-8 bytes).
        public var column: Int

        /// The place at `line`, `column`.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// The place of byte `offset` in `text` (UTF-8).
        public init(offset: Int, in text: [UInt8]) {
            let end = min(max(offset, 0), text.count)
            var line = 1
            var lineStart = 0
            for index in 0..<end where text[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            // Continuation bytes of a UTF-8 sequence do not start a character.
            self.init(line: line, column: text[lineStart..<end].filter { $0 & 0xC0 != 0x80 }.count + 1)
        }

        /// `line L, column C`.
        public var description: String { "line \(line), column \(column)" }
    }

    /// Where the failure is.
    public typealias Context = Position

    /// `line L, column C: reason`.
    public static func description(of error: CBORTextError) -> String {
        "\(error.position): \(error.reason)"
    }
}

extension MdocError where Domain == CBORTextErrorDomain {
    /// Where in the text the failure is.
    public var position: CBORTextErrorDomain.Position { context }

    /// A failure of kind `code`, explained by `reason`, at byte `offset` of `text`, made at
    /// `fileID`, `line` (the caller's place, unless given).
    public init(_ code: Code, _ reason: String, offset: Int, in text: [UInt8], fileID: String = #fileID, line: Int = #line) {
        self.init(code, reason, context: CBORTextErrorDomain.Position(offset: offset, in: text), fileID: fileID, line: line)
    }
}

extension ErrorKind where Domain == CBORTextError {
    /// The text is not in the notation: an unexpected character, an unterminated string, a
    /// missing separator.
    public static let syntax = Self("syntax")
    /// A value the notation cannot hold: an integer outside -2^64...2^64-1, a simple value above
    /// 255, a float that does not fit the width asked for, invalid hex or base64url.
    public static let outOfRange = Self("outOfRange")
    /// A special form of the lossless JSON (`{"$bytes": ...}`, `{"$tag": ...}`) with a missing,
    /// unknown or wrongly typed member, or an `$embedded` that is not what `$value` holds.
    public static let invalidForm = Self("invalidForm")
    /// Containers nest deeper than the reader allows.
    public static let depthLimitExceeded = Self("depthLimitExceeded")
    /// The text is larger than the reader allows.
    public static let inputTooLarge = Self("inputTooLarge")
}
