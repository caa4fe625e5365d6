import Foundation
import MdocPosix

/// The status list server of `Tests/Interop/status`: the files of a folder as Status List Tokens
/// (draft-ietf-oauth-status-list section 8) and routes that misbehave on purpose (slow, stalled,
/// redirect loops, oversized or compressed bodies, wrong types and statuses), on 127.0.0.1 only.
/// The script's routes are listed at its top.
package final class StatusListServer: Sendable {
    /// How long the script may take to start and print its ports.
    package static let startTimeout: TimeInterval = 20

    /// The plain HTTP port.
    package let port: Int
    /// The HTTPS port, when started with a certificate.
    package let tlsPort: Int?
    private let process: HelperProcess

    /// Starts the server on the files of `directory`, and on a TLS port too with `tls` (a PEM
    /// certificate for 127.0.0.1 and its key). Throws when python3 is missing or the script did
    /// not start.
    package init(directory: String, tls: (certificate: String, key: String)? = nil) throws {
        let arguments = ["python3", "Tests/Interop/status/status_server.py", "--dir", directory]
            + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
        let process = try HelperProcess(arguments, in: Vectors.repositoryRoot, timeout: Self.startTimeout * Double(TimeoutScale.factor))
        let words = process.firstLine.split(separator: " ")
        guard words.count >= 2, words[0] == "port", let port = Int(words[1]),
              tls == nil || (words.count == 4 && words[2] == "tls-port" && Int(words[3]) != nil) else {
            process.stop(grace: 0)
            throw HelperProcessError("status_server.py did not start (is python3 installed?); it printed \"\(process.firstLine)\"")
        }
        self.port = port
        tlsPort = tls == nil ? nil : Int(words[3])
        self.process = process
    }

    /// Makes `cert.pem` and `key.pem` in `directory` with `openssl req`: a self-signed EC P-256
    /// certificate for 127.0.0.1, valid a day, which is its own CA; returns their paths.
    package static func makeTestCertificate(in directory: String) throws -> (certificate: String, key: String) {
        let openssl = try ChildProcess(
            executable: "/usr/bin/env",
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", "key.pem", "-out", "cert.pem", "-subj", "/CN=status list test", "-addext",
             "subjectAltName=IP:127.0.0.1", "-days", "1"],
            environment: ProcessInfo.processInfo.environment, directory: directory, standardOutput: .discarded,
            standardError: .discarded)
        guard openssl.wait(timeout: 30 * Double(TimeoutScale.factor)) == .exited(0) else {
            throw HelperProcessError("openssl req did not make a test certificate")
        }
        return (directory + "/cert.pem", directory + "/key.pem")
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    package func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// `https://127.0.0.1:TLS-PORT` followed by `path`; the plain port's when started without TLS.
    package func tlsURL(_ path: String) -> String {
        "https://127.0.0.1:\(tlsPort ?? port)\(path)"
    }

    /// Whether the server still runs.
    package var isRunning: Bool { process.isRunning }

    /// Stops the server: closes its standard input, which ends it, waits up to 5 seconds, then
    /// kills its process (by its identifier). Idempotent.
    package func stop() {
        process.stop(grace: 5)
    }
}
