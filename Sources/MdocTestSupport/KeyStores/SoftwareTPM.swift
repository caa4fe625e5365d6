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

    /// A P-256 key made inside the TPM by tpm2-openssl (`openssl genpkey -provider tpm2`), with
    /// the authorization value `authorization` (its PIN; a test's own, so on the command line)
    /// when given, written as its "TSS2 PRIVATE KEY" blob to `name` in ``directory``; returns
    /// its path.
    package func makeKey(named name: String, authorization: String? = nil) throws -> String {
        try HelperCommand.run(
            ["openssl", "genpkey", "-provider", "tpm2", "-provider", "default", "-algorithm", "EC",
             "-pkeyopt", "group:P-256"] + (authorization.map { ["-pkeyopt", "user-auth:" + $0] } ?? []) + ["-out", name],
            package: "openssl tpm2-openssl", environment: ["TPM2OPENSSL_TCTI": tcti], in: directory)
        return directory + "/" + name
    }

    /// A P-256 key the test knows, imported into the TPM (TPM 2.0 Part 3, TPM2_Import, by
    /// `tpm2_import`) under the storage primary key tpm2-openssl derives for the owner hierarchy,
    /// and written as a "TSS2 PRIVATE KEY" blob to `name` in ``directory`` (with the empty
    /// authorization value); returns its path. The private key's PEM is in the directory only
    /// while `tpm2_import` reads it. tpm2-tools 5.4's `tpm2_encodeobject` inverts the blob's
    /// emptyAuth flag, so the blob is written here.
    package func importKey(_ pem: String, named name: String) throws -> String {
        let environment = ["TPM2TOOLS_TCTI": tcti]
        let pemFile = directory + "/\(name).import.pem"
        guard FileManager.default.createFile(
            atPath: pemFile, contents: Data(pem.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw HelperProcessError("cannot write \(pemFile)")
        }
        defer { try? FileManager.default.removeItem(atPath: pemFile) }
        // The template of tpm2-openssl's parent for keys under 0x40000001 (TCG TPM 2.0 Keys for
        // Device Identity, the ECC storage root key): the same hierarchy seed gives the same key.
        try HelperCommand.run(
            ["tpm2_createprimary", "-C", "o", "-g", "sha256", "-G", "ecc256:aes128cfb", "-c", "\(name).primary.ctx",
             "-a", "restricted|decrypt|fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda"],
            package: "tpm2-tools", environment: environment, in: directory)
        try HelperCommand.run(
            ["tpm2_import", "-C", "\(name).primary.ctx", "-G", "ecc", "-i", pemFile, "-u", "\(name).pub", "-r", "\(name).priv"],
            package: "tpm2-tools", environment: environment, in: directory)
        try HelperCommand.run(["tpm2_flushcontext", "-t"], package: "tpm2-tools", environment: environment, in: directory)
        let publicArea = Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/\(name).pub")))
        let privateArea = Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/\(name).priv")))
        // TSSPrivKey ::= SEQUENCE { type OID id-loadablekey (2.23.133.10.1.3), emptyAuth [0]
        // EXPLICIT BOOLEAN, parent INTEGER, pubkey OCTET STRING, privkey OCTET STRING }.
        let body = [0x06, 0x06, 0x67, 0x81, 0x05, 0x0A, 0x01, 0x03, 0xA0, 0x03, 0x01, 0x01, 0xFF, 0x02, 0x04, 0x40, 0x00, 0x00, 0x01]
            + Self.der(tag: 0x04, publicArea) + Self.der(tag: 0x04, privateArea)
        let blob = Data(Self.der(tag: 0x30, body)).base64EncodedString(options: .lineLength64Characters)
        let path = directory + "/" + name
        try ("-----BEGIN TSS2 PRIVATE KEY-----\n" + blob + "\n-----END TSS2 PRIVATE KEY-----\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A DER element of `tag` holding `content` (X.690 8.1.3: short or long form length).
    private static func der(tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length = content.count
        guard length > 127 else { return [tag, UInt8(length)] + content }
        var octets: [UInt8] = []
        while length > 0 {
            octets.insert(UInt8(length & 0xFF), at: 0)
            length >>= 8
        }
        return [tag, 0x80 | UInt8(octets.count)] + octets + content
    }

    /// Sets the TPM's dictionary-attack protection (TPM 2.0 Part 3, TPM2_DictionaryAttackParameters,
    /// by `tpm2_dictionarylockout`): lock-out after `maximumTries` wrong authorization values,
    /// one forgiven every `recoverySeconds`.
    package func setDictionaryAttackProtection(maximumTries: Int, recoverySeconds: Int) throws {
        try HelperCommand.run(
            ["tpm2_dictionarylockout", "--setup-parameters", "--max-tries=\(maximumTries)",
             "--recovery-time=\(recoverySeconds)", "--lockout-recovery-time=\(recoverySeconds)"],
            package: "tpm2-tools", environment: ["TPM2TOOLS_TCTI": tcti], in: directory)
    }

    /// The public key of the key blob `name` of ``makeKey(named:authorization:)``, as its DER
    /// SubjectPublicKeyInfo, read through tpm2-openssl (`openssl pkey -pubout`), which asks for
    /// the key's `authorization` when it has one.
    package func publicKeyDER(ofKey name: String, authorization: String? = nil) throws -> [UInt8] {
        try HelperCommand.run(
            ["openssl", "pkey", "-provider", "tpm2", "-provider", "default", "-in", name, "-pubout", "-outform", "DER",
             "-out", name + ".pub.der"] + (authorization.map { ["-passin", "pass:" + $0] } ?? []),
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
