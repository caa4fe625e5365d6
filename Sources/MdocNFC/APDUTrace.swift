import MdocCBOR

/// The command and response APDUs a reader exchanged with a card, in order: what a session
/// capture keeps (`apdus.txt`) and `mdoc inspect` explains.
///
/// The text form has one APDU per line, in hexadecimal: `>` and a command, then `<` and its
/// response. A command with no `<` line after it got no response (the exchange failed; a
/// comment may say why). Lines that start with `#` are comments, and blank lines are ignored.
public struct APDUTrace: Sendable, Hashable {
    /// The most exchanges a trace holds: a session takes a few dozen, even with short APDUs.
    public static let maximumExchanges = 4096
    /// The first line of the text form.
    public static let heading = "# swift-mdoc APDU trace: > command, < response (ISO/IEC 7816-4), hexadecimal"

    /// One command and what came back.
    public struct Exchange: Sendable, Hashable {
        /// The command APDU.
        public var command: CommandAPDU
        /// The response APDU; `nil` when none came (the card went, the reader failed).
        public var response: ResponseAPDU?
        /// Why no response came, when known.
        public var failure: String?

        /// An exchange of its parts.
        public init(command: CommandAPDU, response: ResponseAPDU?, failure: String? = nil) {
            self.command = command
            self.response = response
            self.failure = failure
        }
    }

    /// The exchanges, in order.
    public var exchanges: [Exchange]

    /// A trace of `exchanges`.
    public init(exchanges: [Exchange] = []) {
        self.exchanges = exchanges
    }

    /// Reads the text form. Throws `malformed` naming the line by its number for a line that is neither a comment nor an APDU, a response without its command, or
    /// bytes that are no APDU, and `limitExceeded` past ``maximumExchanges``.
    public init(text: String) throws(NFCError) {
        var exchanges: [Exchange] = []
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingSuffix { $0 == " " || $0 == "\t" }
            guard let marker = line.first, marker != "#" else { continue }
            let number = index + 1
            guard marker == ">" || marker == "<" else {
                throw NFCError(.malformed, "line \(number) is neither a comment nor an APDU (> or <)")
            }
            let hex = line.dropFirst().filter { $0 != " " }
            guard let bytes = Hex.decode(hex) else {
                throw NFCError(.malformed, "line \(number) is not hexadecimal")
            }
            if marker == ">" {
                guard exchanges.count < Self.maximumExchanges else {
                    throw NFCError(.limitExceeded, "line \(number): more than \(Self.maximumExchanges) commands")
                }
                let command: CommandAPDU
                do {
                    command = try CommandAPDU(bytes: bytes)
                } catch {
                    throw NFCError(.malformed, "line \(number) is no command APDU: \(error)")
                }
                exchanges.append(Exchange(command: command, response: nil))
            } else {
                guard let last = exchanges.indices.last, exchanges[last].response == nil else {
                    throw NFCError(.malformed, "line \(number) is a response without its command")
                }
                do {
                    exchanges[last].response = try ResponseAPDU(bytes: bytes)
                } catch {
                    throw NFCError(.malformed, "line \(number) is no response APDU: \(error)")
                }
            }
        }
        self.exchanges = exchanges
    }

    /// The text form, beginning with ``heading``.
    public var text: String {
        var lines = [Self.heading]
        for exchange in exchanges {
            lines.append("> " + Hex.encode(exchange.command.bytes).uppercased())
            if let response = exchange.response {
                lines.append("< " + Hex.encode(response.bytes).uppercased())
            } else {
                lines.append("# no response: " + (exchange.failure ?? "unknown").filter { $0 != "\n" && $0 != "\r" })
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Substring {
    /// The substring without the trailing characters `drop` matches.
    fileprivate func trimmingSuffix(while drop: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, drop(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
