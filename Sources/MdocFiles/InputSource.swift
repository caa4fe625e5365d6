import MdocCBOR
import MdocPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads what a user hands to `mdoc inspect` or `mdoc-reader verify`: a file path, `-` for
/// standard input, or (where a command allows it) an `mdoc:` URI given as the argument itself.
///
/// Content is detected, never declared (docs/architecture.md section 5): an `mdoc:` URI, hex text, base64url
/// text, or else binary CBOR. Reading stops one byte past ``maximumInputSize`` so a huge file or
/// an endless pipe is rejected without being read whole.
public struct InputSource: Sendable {
    /// How the bytes were written.
    public enum Encoding: String, Sendable {
        /// Binary CBOR (or DER).
        case binary
        /// Hex text.
        case hex
        /// base64url text (RFC 4648 section 5).
        case base64url
        /// An `mdoc:` URI (ISO/IEC 18013-5 8.2.2.3).
        case mdocURI = "mdoc: URI"
    }

    /// The decoded bytes.
    public let bytes: [UInt8]
    /// How they were encoded in the input.
    public let encoding: Encoding
    /// Where they came from, for messages: the path, "standard input" or "argument".
    public let name: String

    /// The largest input accepted: 16 MiB, twice the CBOR decoder's own input limit so that hex
    /// text of a maximal message still reads (and the decoder then names its own limit).
    public static let maximumInputSize = 16 * 1024 * 1024

    /// The URI scheme of a QR device engagement (ISO/IEC 18013-5 8.2.2.3).
    public static let mdocScheme = "mdoc:"

    /// Input already read and decoded.
    public init(bytes: [UInt8], encoding: Encoding, name: String) {
        self.bytes = bytes
        self.encoding = encoding
        self.name = name
    }

    /// Reads `argument`: `-` is standard input; with `allowURI`, text starting with `mdoc:` is the
    /// URI itself; anything else is a file path.
    public static func load(_ argument: String, allowURI: Bool = false) throws(InputError) -> InputSource {
        if allowURI, argument.lowercased().hasPrefix(mdocScheme) {
            return try detect(Array(argument.utf8), name: "argument")
        }
        if argument == "-" {
            return try detect(try readAll(fd: STDIN_FILENO, name: "standard input"), name: "standard input")
        }
        return try detect(try readFile(argument), name: argument)
    }

    /// The bytes of the file at `path`, at most ``maximumInputSize``, undecoded.
    package static func readFile(_ path: String) throws(InputError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw InputError(.unreadable, source: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        return try readAll(fd: fd, name: path)
    }

    /// Reads at most ``maximumInputSize`` + 1 bytes from `fd`.
    package static func readAll(fd: Int32, name: String) throws(InputError) -> [UInt8] {
        switch SystemCall.readToEnd(fd, limit: maximumInputSize) {
        case .success(let bytes):
            return bytes
        case .failure(.tooLarge):
            throw InputError(.tooLarge, source: name, "larger than the \(maximumInputSize)-byte input limit")
        case .failure(.errno(let code)):
            throw InputError(.unreadable, source: name, "read failed: \(String(cString: strerror(code)))")
        }
    }

    /// Decides how `raw` is encoded and decodes it.
    public static func detect(_ raw: [UInt8], name: String) throws(InputError) -> InputSource {
        guard raw.count <= maximumInputSize else {
            throw InputError(.tooLarge, source: name, "larger than the \(maximumInputSize)-byte input limit")
        }
        guard !raw.isEmpty else { throw InputError(.empty, source: name, "the input is empty") }
        guard let text = asciiText(raw) else {
            return InputSource(bytes: raw, encoding: .binary, name: name)
        }
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { throw InputError(.empty, source: name, "the input holds only whitespace") }
        if trimmed.lowercased().hasPrefix(mdocScheme) {
            let payload = trimmed.dropFirst(mdocScheme.count)
            guard let bytes = Base64URL.decode(payload), !bytes.isEmpty else {
                throw InputError(.badEncoding, source: name, "the mdoc: URI does not hold base64url data")
            }
            return InputSource(bytes: bytes, encoding: .mdocURI, name: name)
        }
        if let bytes = Hex.decode(trimmed), !bytes.isEmpty {
            return InputSource(bytes: bytes, encoding: .hex, name: name)
        }
        if let bytes = Base64URL.decode(trimmed), !bytes.isEmpty {
            return InputSource(bytes: bytes, encoding: .base64url, name: name)
        }
        return InputSource(bytes: raw, encoding: .binary, name: name)
    }

    /// The input as text when every byte is printable ASCII or whitespace.
    private static func asciiText(_ raw: [UInt8]) -> String? {
        for byte in raw where !(0x20...0x7e).contains(byte) && byte != 0x0a && byte != 0x0d && byte != 0x09 {
            return nil
        }
        return String(decoding: raw, as: UTF8.self)
    }
}

extension String {
    /// The string without the ASCII spaces, tabs and line ends at either end.
    package func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
