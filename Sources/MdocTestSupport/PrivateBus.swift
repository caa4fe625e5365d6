import Foundation
import MdocPosix

/// A private D-Bus message bus for a test: `dbus-daemon --session --nofork`, on a socket of its
/// own in /tmp, ended with ``stop()`` or when the test process ends.
package final class PrivateBus: Sendable {
    /// How long dbus-daemon may take to print its address.
    package static let startTimeout: TimeInterval = 10

    /// The bus address, such as `unix:path=/tmp/dbus-…,guid=…`.
    package let address: String
    private let process: HelperProcess

    /// Starts the bus. Throws when dbus-daemon is missing (Debian: `apt-get install dbus-daemon`).
    package init() throws {
        let process = try HelperProcess(["dbus-daemon", "--session", "--nofork", "--print-address=1"], in: Vectors.repositoryRoot, timeout: Self.startTimeout)
        guard process.firstLine.hasPrefix("unix:") else {
            process.stop(grace: 0)
            throw HelperProcessError("dbus-daemon did not start (is the dbus-daemon package installed?); it printed \"\(process.firstLine)\"")
        }
        address = process.firstLine
        self.process = process
    }

    /// Stops the bus. Idempotent.
    package func stop() {
        process.stop(grace: 0)
    }
}
