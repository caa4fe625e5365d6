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
public struct ProgramOutput: Sendable {
    private let fileDescriptor: Int32

    /// Standard output: results (the report, the consent prompt, JSON).
    public static let standardOutput = ProgramOutput(fileDescriptor: STDOUT_FILENO)
    /// Standard error: progress, notes and failures.
    public static let standardError = ProgramOutput(fileDescriptor: STDERR_FILENO)

    private init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// `true` when the stream is a terminal.
    public var isTerminal: Bool {
        FileDescriptorWriter.isTerminal(fileDescriptor)
    }

    /// Writes `text` as it is.
    public func write(_ text: TerminalText) {
        FileDescriptorWriter.writeAll(text.description, to: fileDescriptor)
    }

    /// Writes `text` and a line feed.
    public func writeLine(_ text: TerminalText) {
        write(text + "\n")
    }
}
