import Foundation

/// A helper program a test runs beside it (Python peers, dbus-daemon): started with a pipe on
/// its standard input, so that it can end when the test process dies and the pipe closes, and
/// with its first output line read as its "ready" answer (a port, a bus address).
public final class HelperProcess: @unchecked Sendable {
    /// The first line the program printed.
    public let firstLine: String
    private let process: Process
    private let input: Pipe
    private let output: Pipe

    /// Starts `arguments` (through /usr/bin/env) in `directory` and waits up to `timeout`
    /// seconds for its first output line. Throws when it does not start.
    public init(_ arguments: [String], in directory: String = Vectors.repositoryRoot, timeout: TimeInterval) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        firstLine = OutputLines.first(of: output.fileHandleForReading.fileDescriptor, within: timeout)
        self.process = process
        self.input = input
        self.output = output
    }

    deinit {
        _ = stop()
    }

    /// Whether the program still runs.
    public var isRunning: Bool { process.isRunning }

    /// Ends the program: closes its input, gives it `grace` seconds, then kills it; returns what
    /// it printed after the first line. Idempotent (later calls return "").
    ///
    /// SIGKILL, not SIGTERM: Foundation's `Process` starts the program with the signal mask of
    /// the thread that ran it, and the test's pool threads block SIGTERM, so dbus-daemon started
    /// from a test never sees a SIGTERM.
    @discardableResult
    public func stop(grace: TimeInterval = 5) -> String {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning, Date() < deadline {
            usleep(20_000)
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return remainingOutput()
    }

    /// Sends `signal` to the program.
    public func signal(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// What is left in the output pipe, read without waiting for writers that may still hold it.
    private func remainingOutput() -> String {
        let fd = output.fileHandleForReading.fileDescriptor
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
