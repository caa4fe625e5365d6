#if canImport(Glibc)
import Glibc
import MdocPosix
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to a file descriptor, so prompts without a line ending appear at once and
/// progress lines interleave correctly with other output.
package enum FileDescriptorWriter {
    /// Writes all of `text` to `fd`, retrying after interruptions; stops silently when the
    /// descriptor is closed (the user's terminal went away).
    package static func writeAll(_ text: String, to fd: Int32) {
        writeAll(Array(text.utf8), to: fd)
    }

    /// Writes all of `bytes` to `fd`, retrying after interruptions; stops silently when the
    /// descriptor is closed.
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                SystemCall.make { buffer.baseAddress.map { write(fd, $0 + offset, buffer.count - offset) } ?? 0 }
            }
            guard case .success(let count) = written, count > 0 else { return }
            offset += count
        }
    }

    /// `true` when `fd` is a terminal.
    package static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }
}
