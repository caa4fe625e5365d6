import Foundation

/// Linked Bumble virtual LE controllers on loopback TCP ports (design.md section 6): runs
/// `Tests/Interop/bumble/virtual_controllers.py`, which prints the ports it serves, and stops
/// it with ``stop()`` or when this process ends (the script exits when its standard input,
/// a pipe from here, closes).
public final class VirtualControllers: @unchecked Sendable {
    /// How long the script may take to print its ports (Python and Bumble start in about a
    /// second; a loaded CI machine takes longer).
    public static let startTimeout: TimeInterval = 30

    /// The TCP ports of the controllers, in order: `hci:tcp:127.0.0.1:PORT` reaches each.
    public let ports: [Int]
    private let process: Process
    private let input: Pipe

    /// Starts `count` linked controllers. Throws when Python or Bumble is missing (install
    /// with `pip install -r Tests/Interop/requirements.txt`) or the script does not start.
    public init(count: Int = 2) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Vectors.repositoryRoot + "/Tests/Interop/bumble/virtual_controllers.py", "\(count)"]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = Self.firstLine(of: output.fileHandleForReading.fileDescriptor, within: Self.startTimeout)
        let fields = text.split(separator: "\n").first.map { $0.split(separator: " ") } ?? []
        guard fields.first == "ports", fields.count == count + 1 else {
            process.terminate()
            throw VirtualControllersError(
                "virtual_controllers.py did not start (is Bumble installed? pip install -r Tests/Interop/requirements.txt); it printed \"\(text)\"")
        }
        self.ports = fields.dropFirst().compactMap { Int($0) }
        self.process = process
        self.input = input
    }

    deinit {
        stop()
    }

    /// The `--transport` value of controller `index`.
    public func transport(_ index: Int) -> String {
        "hci:tcp:127.0.0.1:\(ports[index])"
    }

    /// Stops the controllers. Idempotent.
    public func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// Why the virtual controllers could not be started.
public struct VirtualControllersError: Error, CustomStringConvertible {
    /// What happened.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension VirtualControllers {
    /// The first line `fd` gives within `timeout` seconds (less when it ends first).
    fileprivate static func firstLine(of fd: Int32, within timeout: TimeInterval) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while !bytes.contains(0x0A) {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&descriptor, 1, left) > 0 else { break }
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
