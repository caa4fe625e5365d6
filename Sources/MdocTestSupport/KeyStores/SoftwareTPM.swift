import Foundation
import MdocPosix

/// A software TPM 2.0 of a test's own: `swtpm socket --tpm2` with a state directory of its own,
/// its command and control ports on 127.0.0.1 picked free, started and stopped by its process
/// identifier; each test gets a fresh TPM, so the dictionary-attack lockout and transient
/// objects of one never reach another.
package final class SoftwareTPM: Sendable {
    /// The TSS2 TCTI configuration that reaches it (`swtpm:host=127.0.0.1,port=P`).
    package let tcti: String
    /// The state directory, and where the keys of ``makeKey(named:)`` go.
    package let directory: String
    private let process: ChildProcess

    /// Starts swtpm and waits until its command port accepts connections. Throws with the
    /// package to install when swtpm is missing.
    package init() throws {
        try HelperCommand.requireInstalled("swtpm", package: "swtpm swtpm-tools")
        directory = try HelperCommand.makeDirectory("mdoc-swtpm")
        var started: (ChildProcess, Int)?
        for _ in 0..<5 where started == nil {
            let port = try Self.freePortPair()
            let process = try ChildProcess(
                executable: "/usr/bin/env",
                ["swtpm", "socket", "--tpm2", "--tpmstate", "dir=\(directory)",
                 "--server", "type=tcp,port=\(port),bindaddr=127.0.0.1",
                 "--ctrl", "type=tcp,port=\(port + 1),bindaddr=127.0.0.1", "--flags", "not-need-init,startup-clear"],
                environment: ProcessInfo.processInfo.environment, directory: directory,
                standardOutput: .discarded, standardError: .file(directory + "/swtpm.err"))
            if Self.waitUntilListening(port: port, while: process) {
                started = (process, port)
            } else {
                process.signal(SIGKILL)
                _ = process.wait()
            }
        }
        guard let (process, port) = started else {
            let errors = (try? String(contentsOfFile: directory + "/swtpm.err", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: directory)
            throw HelperProcessError("swtpm did not start: \(errors)")
        }
        self.process = process
        tcti = "swtpm:host=127.0.0.1,port=\(port)"
    }

    deinit {
        stop()
    }

    /// A P-256 key made inside the TPM by tpm2-openssl (`openssl genpkey -provider tpm2`),
    /// written as its "TSS2 PRIVATE KEY" blob to `name` in ``directory``; returns its path.
    package func makeKey(named name: String) throws -> String {
        try HelperCommand.run(
            ["openssl", "genpkey", "-provider", "tpm2", "-provider", "default", "-algorithm", "EC",
             "-pkeyopt", "group:P-256", "-out", name],
            package: "openssl tpm2-openssl", environment: ["TPM2OPENSSL_TCTI": tcti], in: directory)
        return directory + "/" + name
    }

    /// The public key of the key blob `name` of ``makeKey(named:)``, as its DER
    /// SubjectPublicKeyInfo, read through tpm2-openssl (`openssl pkey -pubout`).
    package func publicKeyDER(ofKey name: String) throws -> [UInt8] {
        try HelperCommand.run(
            ["openssl", "pkey", "-provider", "tpm2", "-provider", "default", "-in", name, "-pubout", "-outform", "DER",
             "-out", name + ".pub.der"],
            package: "openssl tpm2-openssl", environment: ["TPM2OPENSSL_TCTI": tcti], in: directory)
        return Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name + ".pub.der")))
    }

    /// Stops swtpm by its process identifier (SIGTERM, then SIGKILL after 5 seconds) and removes
    /// its state. Idempotent.
    package func stop() {
        process.signal(SIGTERM)
        if process.wait(timeout: 5) == nil {
            process.signal(SIGKILL)
            process.wait(timeout: 5)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Whether a TCP connection to 127.0.0.1:`port` succeeds within 10 seconds (scaled), while
    /// `process` runs.
    private static func waitUntilListening(port: Int, while process: ChildProcess) -> Bool {
        let deadline = Date().addingTimeInterval(10 * Double(TimeoutScale.factor))
        while Date() < deadline, process.isRunning {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return false }
            var address = loopback(port: port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(descriptor)
            if connected == 0 { return true }
            usleep(20_000)
        }
        return false
    }

    /// A port on 127.0.0.1 whose next port is free too (swtpm's command and control ports).
    private static func freePortPair() throws -> Int {
        for _ in 0..<32 {
            guard let first = bound(port: 0) else { continue }
            defer { close(first.descriptor) }
            guard first.port < 65535, let second = bound(port: first.port + 1) else { continue }
            close(second.descriptor)
            return first.port
        }
        throw HelperProcessError("no two free TCP ports in a row on 127.0.0.1 for swtpm")
    }

    /// A TCP socket bound to 127.0.0.1:`port` (0: the system picks) and its port.
    private static func bound(port: Int) -> (descriptor: Int32, port: Int)? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = loopback(port: port)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard status == 0, withUnsafeMutablePointer(to: &address, {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }) == 0 else {
            close(descriptor)
            return nil
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return address
    }
}
