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
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        // One byte at a time: what follows the first line stays in the pipe for later readers.
        while true {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&descriptor, 1, left) > 0, read(fd, &byte, 1) == 1, byte != 0x0A else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
