#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MdocPosix

/// Linked Bumble virtual LE controllers on loopback TCP ports, for ``LEHost``s to open with
/// `hci:tcp` (docs/architecture.md section 6): runs a swift-mdoc checkout's
/// `Tests/Interop/bumble/virtual_controllers.py`, which prints the ports it serves, and stops
/// it with ``stop()`` or when this process ends (the script exits when its standard input,
/// a pipe from here, closes). The tests and `mdoc-benchmark link` use it; it is not part of the
/// module's package interface, since an installed toolkit has no checkout.
package final class VirtualControllers: Sendable {
    /// How long the script may take to print its ports (Python and Bumble start in about a
    /// second; a loaded CI machine takes longer).
    package static let startTimeout: TimeInterval = 30

    /// The TCP ports of the controllers, in order: `hci:tcp:127.0.0.1:PORT` reaches each.
    package let ports: [Int]
    private let process: HelperProcess

    /// The script, relative to the checkout.
    static let script = "Tests/Interop/bumble/virtual_controllers.py"

    /// Starts `count` linked controllers with the script of the swift-mdoc checkout at
    /// `checkout`. Throws when Python or Bumble is missing (install with
    /// `pip install -r Tests/Interop/requirements.txt`) or the script does not start.
    package init(count: Int = 2, checkout: String) throws {
        let process = try HelperProcess(["python3", Self.script, "\(count)"], in: checkout, timeout: Self.startTimeout)
        let fields = process.firstLine.split(separator: " ")
        guard fields.first == "ports", fields.count == count + 1 else {
            process.stop()
            throw HelperProcessError(
                "virtual_controllers.py did not start (is Bumble installed? pip install -r Tests/Interop/requirements.txt); it printed \"\(process.firstLine)\"")
        }
        ports = fields.dropFirst().compactMap { Int($0) }
        self.process = process
    }

    /// Starts `count` linked controllers like ``init(count:checkout:)``, waiting for the script
    /// on a thread of its own: async callers must not hold one of the cooperative pool's few
    /// threads while Python starts, or every other task of the process stalls meanwhile.
    package static func start(count: Int = 2, checkout: String) async throws -> VirtualControllers {
        try await withCheckedThrowingContinuation { continuation in
            do throws(SystemCall.Errno) {
                try DetachedThread.start {
                    continuation.resume(with: Result { try VirtualControllers(count: count, checkout: checkout) })
                }
            } catch {
                continuation.resume(throwing: HelperProcessError("cannot start Bumble's controllers: no thread (errno \(error.code))"))
            }
        }
    }

    /// The `--transport` value of controller `index`.
    package func transport(_ index: Int) -> String {
        "hci:tcp:127.0.0.1:\(ports[index])"
    }

    /// Stops the controllers. Idempotent.
    package func stop() {
        process.stop(grace: 0)
    }
}
