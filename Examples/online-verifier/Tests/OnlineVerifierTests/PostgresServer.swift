#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A PostgreSQL server of its own for a test: a fresh cluster (`initdb`) in a temporary
/// directory, `postgres` listening on a Unix socket in it only (no TCP port), run as the
/// unprivileged user `nobody` when the test runs as root (PostgreSQL refuses root), and stopped
/// by its process id. The binaries are Debian's (`/usr/lib/postgresql/VERSION/bin`, the newest
/// first) or the first `initdb` and `postgres` on PATH.
final class PostgresServer {
    /// 30 seconds: how long the server may take to accept connections.
    static let startTimeout: Duration = .seconds(30)
    /// 10 seconds: how long a fast shutdown (SIGINT) may take before SIGKILL.
    static let stopTimeout: Duration = .seconds(10)
    /// The user the server runs as when the test runs as root: `nobody`.
    static let unprivilegedID: uid_t = 65534

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The directory of the cluster and the socket.
    let directory: String
    private let process: Process

    /// The store URL of the server's `postgres` database, for the user `verifier`.
    var storeURL: String { "postgres://verifier@/postgres?host=\(directory)" }

    /// Makes a cluster and starts the server; returns once it accepts connections.
    static func start() async throws -> PostgresServer {
        let binaries = try binaryDirectory()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("online-verifier-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let asRoot = getuid() == 0
        if asRoot {
            guard chown(directory, unprivilegedID, gid_t(unprivilegedID)) == 0 else {
                throw Failure(description: "cannot give \(directory) to uid \(unprivilegedID): errno \(errno)")
            }
        }
        func command(_ program: String, _ arguments: [String], log: String) throws -> Process {
            let process = Process()
            if asRoot {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                process.arguments = ["--reuid=\(unprivilegedID)", "--regid=\(unprivilegedID)", "--clear-groups", "\(binaries)/\(program)"] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: "\(binaries)/\(program)")
                process.arguments = arguments
            }
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            guard FileManager.default.createFile(atPath: log, contents: nil) else {
                throw Failure(description: "cannot create \(log)")
            }
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            process.standardOutput = output
            process.standardError = output
            return process
        }
        let initdb = try command("initdb", ["-D", "\(directory)/data", "-U", "verifier", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"],
                                 log: "\(directory)/initdb.log")
        try initdb.run()
        initdb.waitUntilExit()
        guard initdb.terminationStatus == 0 else {
            let log = (try? String(contentsOfFile: "\(directory)/initdb.log", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: directory)
            throw Failure(description: "initdb failed (\(initdb.terminationStatus)): \(log)")
        }
        let log = "\(directory)/postgres.log"
        let postgres = try command(
            "postgres", ["-D", "\(directory)/data", "-k", directory, "-c", "listen_addresses=", "-c", "fsync=off"], log: log)
        try postgres.run()
        let server = PostgresServer(directory: directory, process: postgres)
        let deadline = ContinuousClock.now + startTimeout
        while !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("database system is ready to accept connections") {
            guard postgres.isRunning, ContinuousClock.now < deadline else {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                server.stop()
                throw Failure(description: "postgres did not start within \(startTimeout): \(text)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return server
    }

    private init(directory: String, process: Process) {
        self.directory = directory
        self.process = process
    }

    /// Stops the server by its process id (SIGINT: PostgreSQL's fast shutdown, which ends the
    /// sessions still open; SIGKILL after ``stopTimeout``) and deletes the cluster.
    func stop() {
        let pid = process.processIdentifier
        if process.isRunning {
            kill(pid, SIGINT)
            let deadline = ContinuousClock.now + Self.stopTimeout
            while process.isRunning, ContinuousClock.now < deadline {
                usleep(20_000)
            }
            if process.isRunning {
                kill(pid, SIGKILL)
            }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The directory holding `initdb` and `postgres`.
    private static func binaryDirectory() throws -> String {
        var candidates: [String] = []
        if let versions = try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql") {
            candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        }
        candidates += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in candidates {
            let initdb = URL(fileURLWithPath: "\(directory)/initdb").resolvingSymlinksInPath().path
            let postgres = URL(fileURLWithPath: "\(directory)/postgres").resolvingSymlinksInPath().path
            if FileManager.default.isExecutableFile(atPath: initdb), FileManager.default.isExecutableFile(atPath: postgres),
               (initdb as NSString).deletingLastPathComponent == (postgres as NSString).deletingLastPathComponent {
                return (initdb as NSString).deletingLastPathComponent
            }
        }
        throw Failure(description: "no PostgreSQL: initdb and postgres are neither in /usr/lib/postgresql/*/bin nor on PATH (apt-get install postgresql)")
    }
}
