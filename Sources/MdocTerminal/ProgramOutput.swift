import MdocText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error of a swift-mdoc program: the way the programs write text,
/// and it takes only ``TerminalText``, whose interpolated values are escaped, so no byte a peer
/// sent reaches the terminal as it was sent.
///
/// Writes are unbuffered (one `write(2)` loop per call): a prompt without a line ending appears
/// at once, and the two streams interleave in the order the program wrote them.
package struct ProgramOutput: Sendable {
    package let fileDescriptor: Int32

    /// Standard output: results (the report, the consent prompt, JSON).
    package static let standardOutput = ProgramOutput(fileDescriptor: STDOUT_FILENO)
    /// Standard error: progress, notes and failures.
    package static let standardError = ProgramOutput(fileDescriptor: STDERR_FILENO)

    /// A file the program opened for lines it writes as it goes (`mdoc-holder test-reader
    /// --engagements-out`), written as the standard streams are; the caller closes it.
    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// `true` when the stream is a terminal.
    package var isTerminal: Bool {
        FileDescriptorWriter.isTerminal(fileDescriptor)
    }

    /// How many columns the text written here has before it wraps: `COLUMNS` from
    /// `environment` when it holds a positive number (the user's word, as the argument parser
    /// takes it), else the terminal's width (`TIOCGWINSZ`); `nil` when the stream is no
    /// terminal, since a file or a pipe does not wrap.
    package func columns(environment: [String: String]) -> Int? {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 {
            return columns
        }
        guard isTerminal else { return nil }
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes `text` as it is.
    package func write(_ text: TerminalText) {
        FileDescriptorWriter.writeAll(text.description, to: fileDescriptor)
    }

    /// Writes `bytes` as they are: binary output (CBOR) for a file or a pipe. A caller never
    /// writes to a terminal this way (``isTerminal``): the bytes are not text.
    package func writeBinary(_ bytes: [UInt8]) {
        FileDescriptorWriter.writeAll(bytes, to: fileDescriptor)
    }

    /// Writes `text` and a line feed.
    package func writeLine(_ text: TerminalText) {
        write(text + "\n")
    }
}
