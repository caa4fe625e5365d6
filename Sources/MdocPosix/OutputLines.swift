#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Reads the lines a helper process (Python peers, dbus-daemon) prints, with a deadline, from
/// the read end of its standard output pipe.
package enum OutputLines {
    /// The first line `fd` gives within `timeout` seconds, without its newline; what arrived
    /// when it ends or the time runs out first.
    package static func first(of fd: Int32, within timeout: TimeInterval) -> String {
        read(fd, within: timeout).text
    }

    /// The next line `fd` gives within `timeout` seconds, without its newline; nil when it ends
    /// or the time runs out before the line is whole.
    package static func next(of fd: Int32, within timeout: TimeInterval) -> String? {
        let line = read(fd, within: timeout)
        return line.isWhole ? line.text : nil
    }

    /// What `fd` gives up to its next newline within `timeout` seconds, and whether the newline
    /// came.
    private static func read(_ fd: Int32, within timeout: TimeInterval) -> (text: String, isWhole: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        // One byte at a time: what follows the line stays in the pipe for later readers.
        while true {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&descriptor, 1, left) > 0, Glibc.read(fd, &byte, 1) == 1 else { break }
            if byte == 0x0A { return (String(decoding: bytes, as: UTF8.self), true) }
            bytes.append(byte)
        }
        return (String(decoding: bytes, as: UTF8.self), false)
    }
}
