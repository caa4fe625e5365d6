import Foundation
import MdocPCSC
import MdocPosix

/// A pcscd of a test's own with vsmartcard's vpcd as its reader driver: `pcscd --foreground`
/// with a reader.conf.d naming vpcd on free TCP ports, so that a ``VirtualCard`` can connect as
/// the card of the reader ``readerName``. Stopped by its process identifier (``stop()``).
///
/// pcscd 1.9.9 has its socket and its pid file at fixed paths, /run/pcscd/pcscd.comm and
/// /run/pcscd/pcscd.pid, and removes both when it ends: a second pcscd there would take the
/// system's place. So it runs in a mount namespace of its own (`unshare --mount`, which needs
/// root or CAP_SYS_ADMIN) where /run/pcscd is ``runDirectory``, and nothing outside changes but
/// for the empty directory /run/pcscd, made when missing. The client library finds it through
/// `PCSCLITE_CSOCK_NAME`, which it reads once per process: every daemon of a test process has
/// the same socket path, so tests that start one must run one after the other
/// (`.serialized`). A daemon for the programs a test starts instead has a socket of its own
/// (``init(forChildProcesses:)``), which they are given in their environment.
package final class VirtualReaderDaemon: Sendable {
    /// The name pcscd gives vpcd's first reader ("FRIENDLYNAME" of the configuration, then
    /// " 00 00").
    package static let readerName = "Virtual PCD 00 00"
    /// How long pcscd may take to start and show the reader, when it works.
    package static var startBound: Duration { .seconds(10 * TimeoutScale.factor) }
    /// How long pcscd may take to end after SIGTERM before it is killed.
    package static let stopGrace: TimeInterval = 5

    /// The directory of this process's daemons: their socket's directory (``runDirectory``),
    /// configurations and logs. Set up once, with `PCSCLITE_CSOCK_NAME` pointing into it, before
    /// any PC/SC call of the process.
    package static let directory: String = {
        let path = "/tmp/mdoc-pcscd-\(getpid())"
        mkdir(path, 0o700)
        mkdir(path + "/run", 0o755)
        setenv("PCSCLITE_CSOCK_NAME", path + "/run/pcscd.comm", 1)
        return path
    }()

    /// The directory bound on /run/pcscd in the daemon's namespace.
    package static var runDirectory: String { directory + "/run" }

    /// The address the virtual card connects to: vpcd's first reader.
    package let address: VirtualCard.Address
    /// The daemon's socket, for `PCSCLITE_CSOCK_NAME`.
    package let socketPath: String
    /// The file pcscd's output goes to, until ``stop()``.
    package let logPath: String
    /// The reader.conf.d directory naming vpcd.
    private let configuration: String
    /// The socket's directory of a daemon for child processes, removed with it.
    private let ownRunDirectory: String?
    private let process: ChildProcess

    /// Starts pcscd and waits until it has the virtual reader. Throws when it cannot start (not
    /// installed: `apt-get install pcscd vsmartcard-vpcd`; not root) or does not show the reader
    /// within ``startBound``. With `forChildProcesses`, the daemon has a socket of its own
    /// (``socketPath``) that this process's PC/SC calls do not reach, and is ready once it says
    /// so; such daemons run side by side.
    package init(forChildProcesses: Bool = false) async throws {
        let directory = Self.directory
        let port = try Self.freePortPair()
        let runDirectory = forChildProcesses ? "\(directory)/run-\(port)" : Self.runDirectory
        mkdir(runDirectory, 0o755)
        ownRunDirectory = forChildProcesses ? runDirectory : nil
        socketPath = runDirectory + "/pcscd.comm"
        configuration = "\(directory)/reader.conf.d-\(port)"
        mkdir(configuration, 0o755)
        let readerConf = """
            FRIENDLYNAME "Virtual PCD"
            DEVICENAME   /dev/null:\(port)
            LIBPATH      /usr/lib/pcsc/drivers/serial/libifdvpcd.so
            CHANNELID    \(port)

            """
        try readerConf.write(toFile: configuration + "/vpcd", atomically: true, encoding: .utf8)
        logPath = "\(directory)/pcscd-\(port).log"
        let script = "mkdir -p /run/pcscd && mount --bind \"$0\" /run/pcscd && exec pcscd --foreground --apdu --info --config \"$1\""
        process = try ChildProcess(
            executable: "/usr/bin/unshare", ["--mount", "/bin/sh", "-c", script, runDirectory, configuration],
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], directory: directory,
            standardOutput: .pipe, standardError: .file(logPath + ".err"))
        address = VirtualCard.Address(host: "127.0.0.1", port: port)
        do {
            try await waitUntilReady(inProcess: !forChildProcesses)
        } catch {
            stop()
            throw error
        }
    }

    deinit {
        stop()
    }

    /// Whether pcscd still runs.
    package var isRunning: Bool { process.isRunning }

    /// Ends pcscd: SIGTERM to its process identifier, then SIGKILL after ``stopGrace``; its
    /// configuration and logs go. Idempotent.
    package func stop() {
        process.signal(SIGTERM)
        if process.wait(timeout: Self.stopGrace) == nil {
            process.signal(SIGKILL)
            process.wait(timeout: Self.stopGrace)
        }
        try? FileManager.default.removeItem(atPath: configuration)
        try? FileManager.default.removeItem(atPath: logPath)
        try? FileManager.default.removeItem(atPath: logPath + ".err")
        if let ownRunDirectory { try? FileManager.default.removeItem(atPath: ownRunDirectory) }
    }

    /// What pcscd printed.
    package var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// What pcscd logs once it has loaded its readers, before it makes its socket.
    static let readyMessage = "daemon ready"

    /// Waits until pcscd says it is ready (its readers are loaded), then until its socket takes
    /// connections, then, when `inProcess`, until this process's PC/SC calls see the virtual
    /// reader.
    private func waitUntilReady(inProcess: Bool) async throws {
        let deadline = ContinuousClock.now + Self.startBound
        guard await Self.copyOutput(of: process, to: logPath, until: Self.readyMessage, within: Self.startBound) else {
            let errors = (try? String(contentsOfFile: logPath + ".err", encoding: .utf8)) ?? ""
            throw HelperProcessError("pcscd did not say it was ready within \(Self.startBound): \(errors)\(log)")
        }
        // pcscd 1.9.9 says it is ready before it makes its socket (pcscdaemon.c logs "daemon
        // ready", then calls InitializeSocket): a client that comes at once finds no socket, or
        // one not listening yet, and SCardEstablishContext gives SCARD_E_NO_SERVICE.
        while !Self.acceptsConnections(socketPath) {
            guard ContinuousClock.now < deadline, isRunning else {
                throw HelperProcessError("pcscd said it was ready but its socket \(socketPath) took no connection within \(Self.startBound): \(log)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        guard inProcess else { return }
        if case .failure(let error) = await Self.virtualReader(before: deadline) { throw error }
    }

    /// Copies pcscd's output into `path` on a thread of its own until pcscd ends, and returns
    /// true once a line containing `ready` was copied; false when pcscd ended or `bound` passed
    /// first.
    private static func copyOutput(of process: ChildProcess, to path: String, until ready: String, within bound: Duration) async -> Bool {
        guard let fd = process.outputDescriptor else { return false }
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard file >= 0 else { return false }
        let seconds = TimeInterval(bound.components.seconds) + TimeInterval(bound.components.attoseconds) / 1e18
        return await withCheckedContinuation { continuation in
            do {
                try DetachedThread.start {
                    let deadline = Date().addingTimeInterval(seconds)
                    var told = false
                    while !told, let line = OutputLines.next(of: fd, within: max(0, deadline.timeIntervalSinceNow)) {
                        _ = Array((line + "\n").utf8).withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
                        if line.contains(ready) {
                            told = true
                            continuation.resume(returning: true)
                        }
                    }
                    if !told { continuation.resume(returning: false) }
                    // The rest as it comes (pcscd logs every APDU), until pcscd ends.
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    while true {
                        let count = read(fd, &buffer, buffer.count)
                        guard count > 0 else { break }
                        _ = buffer.withUnsafeBytes { write(file, $0.baseAddress, count) }
                    }
                    close(file)
                    // The process keeps the pipe's read end open until it goes: not before this
                    // thread is done reading it.
                    withExtendedLifetime(process) {}
                }
            } catch {
                close(file)
                continuation.resume(returning: false)
            }
        }
    }

    /// Whether a context sees the virtual reader before `deadline`.
    private static func virtualReader(before deadline: ContinuousClock.Instant) async -> Result<Void, PCSCError> {
        do throws(PCSCError) {
            let context = try await PCSCContext.establish()
            _ = try await context.waitForReader(named: readerName, within: max(.zero, deadline - .now))
            await context.release()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// Whether the stream socket at `path` takes a connection now; the connection is closed at
    /// once.
    private static func acceptsConnections(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            for (index, byte) in bytes.enumerated() { sunPath[index] = byte }
            sunPath[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return connected == 0
    }

    /// A port whose next port is free as well (vpcd opens one per reader, two readers); the
    /// system picks it.
    private static func freePortPair() throws -> Int {
        for _ in 0..<32 {
            let first = try bindSocket(port: 0)
            defer { close(first.descriptor) }
            guard first.port < 65535, let second = try? bindSocket(port: first.port + 1) else { continue }
            close(second.descriptor)
            return first.port
        }
        throw HelperProcessError("no two free TCP ports in a row for vpcd")
    }

    /// A TCP socket bound to `port` on every address (as vpcd binds), and its port.
    private static func bindSocket(port: Int) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HelperProcessError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: INADDR_ANY)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw HelperProcessError("bind: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
