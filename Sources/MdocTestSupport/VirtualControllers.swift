import Foundation

/// Linked Bumble virtual LE controllers on loopback TCP ports (docs/architecture.md section 6): runs
/// `Tests/Interop/bumble/virtual_controllers.py`, which prints the ports it serves, and stops
/// it with ``stop()`` or when this process ends (the script exits when its standard input,
/// a pipe from here, closes).
public final class VirtualControllers: Sendable {
    /// How long the script may take to print its ports (Python and Bumble start in about a
    /// second; a loaded CI machine takes longer).
    public static let startTimeout: TimeInterval = 30

    /// The TCP ports of the controllers, in order: `hci:tcp:127.0.0.1:PORT` reaches each.
    public let ports: [Int]
    private let process: HelperProcess

    /// Starts `count` linked controllers. Throws when Python or Bumble is missing (install
    /// with `pip install -r Tests/Interop/requirements.txt`) or the script does not start.
    public init(count: Int = 2) throws {
        let process = try HelperProcess(["python3", "Tests/Interop/bumble/virtual_controllers.py", "\(count)"],
                                        timeout: Self.startTimeout)
        let fields = process.firstLine.split(separator: " ")
        guard fields.first == "ports", fields.count == count + 1 else {
            process.stop()
            throw HelperProcessError(
                "virtual_controllers.py did not start (is Bumble installed? pip install -r Tests/Interop/requirements.txt); it printed \"\(process.firstLine)\"")
        }
        ports = fields.dropFirst().compactMap { Int($0) }
        self.process = process
    }

    /// Starts `count` linked controllers like ``init(count:)``, waiting for the script on a
    /// thread of its own: async tests must not hold one of the cooperative pool's few threads
    /// while Python starts, or every other test of the process stalls meanwhile.
    public static func start(count: Int = 2) async throws -> VirtualControllers {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try VirtualControllers(count: count) })
            }
        }
    }

    /// The `--transport` value of controller `index`.
    public func transport(_ index: Int) -> String {
        "hci:tcp:127.0.0.1:\(ports[index])"
    }

    /// Stops the controllers. Idempotent.
    public func stop() {
        process.stop(grace: 0)
    }
}

/// Why a helper program could not be started.
public struct HelperProcessError: Error, CustomStringConvertible {
    /// What happened.
    public let description: String

    /// The failure `description`.
    public init(_ description: String) {
        self.description = description
    }
}
