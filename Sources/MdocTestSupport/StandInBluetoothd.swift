import Foundation
import MdocPosix
import NIOConcurrencyHelpers

/// The stand-in bluetoothd of `Tests/Interop/bluez`: BlueZ's D-Bus interfaces on a private bus,
/// bridged to the `sim` transport, so a program with `--transport bluez` meets one with
/// `--transport sim` through real D-Bus calls (docs/architecture.md section 6).
package final class StandInBluetoothd: Sendable {
    /// How long the script may take to start its bus and print the address.
    package static let startTimeout: TimeInterval = 30

    /// The private bus's address: the programs get it as `DBUS_SYSTEM_BUS_ADDRESS`.
    package let busAddress: String
    private let process: HelperProcess
    /// The report's lines ``line(startingWith:within:)`` read, which ``stop()`` returns first.
    private let read = NIOLockedValueBox<[String]>([])

    /// Starts the stand-in with `options` (`--no-adapter`, `--powered-off`,
    /// `--advertising-slots N`, `--deny`, `--register-delay S`). Throws when Python, dbus-fast or dbus-daemon is
    /// missing (`pip install -r Tests/Interop/requirements.txt`, `apt-get install dbus-daemon`).
    package init(_ options: [String] = []) throws {
        let process = try HelperProcess(["python3", "Tests/Interop/bluez/bluetoothd_standin.py"] + options, in: Vectors.repositoryRoot, timeout: Self.startTimeout)
        guard process.firstLine.hasPrefix("address unix:") else {
            process.stop(grace: 0)
            throw HelperProcessError(
                "bluetoothd_standin.py did not start (pip install -r Tests/Interop/requirements.txt; apt-get install dbus-daemon); it printed \"\(process.firstLine)\"")
        }
        busAddress = String(process.firstLine.dropFirst("address ".count))
        self.process = process
    }

    /// The environment of a program that should reach the stand-in as bluetoothd.
    package var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": busAddress] }

    /// Restarts the stand-in as `systemctl restart bluetooth` restarts bluetoothd: what it held
    /// for the programs goes, it leaves the bus, and about half a second later it owns org.bluez
    /// again, with nothing registered.
    package func restart() {
        process.signal(SIGUSR1)
    }

    /// Waits, on a thread of its own, for the report's next line that starts with one of
    /// `prefixes` (`registering application `, `registered application `, …) within `timeout`
    /// seconds, and returns it; nil when none came. The lines read stay in the report ``stop()``
    /// returns.
    package func line(startingWith prefixes: String..., within timeout: TimeInterval = startTimeout) async -> String? {
        let process = process
        let deadline = Date().addingTimeInterval(timeout)
        let lines: [String] = await withCheckedContinuation { continuation in
            do {
                try DetachedThread.start {
                    var lines: [String] = []
                    while let line = process.nextLine(within: max(0, deadline.timeIntervalSinceNow)) {
                        lines.append(line)
                        if prefixes.contains(where: line.hasPrefix) { break }
                    }
                    continuation.resume(returning: lines)
                }
            } catch {
                continuation.resume(returning: [])
            }
        }
        read.withLockedValue { $0 += lines }
        return lines.last.flatMap { line in prefixes.contains(where: line.hasPrefix) ? line : nil }
    }

    /// Stops the stand-in and returns its report: the `registering …`, `registered …` and
    /// `unregistered …` lines and, last, `registrations N`, what was still registered.
    /// Idempotent.
    @discardableResult
    package func stop() -> String {
        let rest = process.stop()
        let lines = read.withLockedValue { lines in
            defer { lines = [] }
            return lines
        }
        return lines.map { $0 + "\n" }.joined() + rest
    }
}
