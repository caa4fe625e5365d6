#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// A helper program run beside this process (Bumble virtual controllers, Python peers,
/// dbus-daemon): started with a pipe on its standard input, so that it can end when this process
/// dies and the pipe closes, and with its first output line read as its "ready" answer (a port,
/// a bus address).
package final class HelperProcess: Sendable {
    /// The first line the program printed.
    package let firstLine: String
    private let child: ChildProcess

    /// Starts `arguments` (through /usr/bin/env) in `directory` and waits up to `timeout`
    /// seconds for its first output line. Throws when it does not start.
    package init(_ arguments: [String], in directory: String, timeout: TimeInterval) throws {
        let child = try ChildProcess(
            executable: "/usr/bin/env", arguments, environment: ProcessInfo.processInfo.environment, directory: directory,
            standardOutput: .pipe, standardError: .discarded)
        firstLine = child.outputDescriptor.map { OutputLines.first(of: $0, within: timeout) } ?? ""
        self.child = child
    }

    deinit {
        _ = stop()
    }

    /// Whether the program still runs.
    package var isRunning: Bool { child.isRunning }

    /// Ends the program: closes its input, gives it `grace` seconds, then kills it; returns what
    /// it printed after the first line. Idempotent (later calls return "").
    @discardableResult
    package func stop(grace: TimeInterval = 5) -> String {
        child.closeInput()
        if child.wait(timeout: grace) == nil {
            child.signal(SIGKILL)
            child.wait(timeout: Self.killTimeout)
        }
        return remainingOutput()
    }

    /// The next line the program prints within `timeout` seconds, without its newline; nil when
    /// none came whole in time. Blocks the calling thread.
    package func nextLine(within timeout: TimeInterval) -> String? {
        guard let fd = child.outputDescriptor else { return nil }
        return OutputLines.next(of: fd, within: timeout)
    }

    /// Sends `signal` to the program.
    package func signal(_ signal: Int32) {
        child.signal(signal)
    }

    /// How long a program may take to end after SIGKILL (the kernel ends it at once; this bounds
    /// the wait for its reaping thread).
    static let killTimeout: TimeInterval = 10

    /// What is left in the output pipe, read without waiting for writers that may still hold it.
    private func remainingOutput() -> String {
        guard let fd = child.outputDescriptor else { return "" }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 200) > 0, descriptor.revents & Int16(POLLIN) != 0 {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
