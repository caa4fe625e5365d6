import Foundation
import MdocPosix

/// Runs the command-line tools of the key stores' tests (softhsm2-util, pkcs11-tool, swtpm,
/// openssl with tpm2-openssl) to their end.
package enum HelperCommand {
    /// Runs `arguments` (the program's name first, found on `PATH`) in `directory` with
    /// `environment` added to this process's, and throws with what it wrote to standard error
    /// when it does not exit with 0 within 60 seconds (scaled by ``TimeoutScale``). A program
    /// that is not installed fails with `package`, the Debian package that has it. What it
    /// writes to standard output goes to the file `output` when given, else nowhere.
    static func run(
        _ arguments: [String], package: String, environment: [String: String] = [:], in directory: String, output: String? = nil
    ) throws {
        try requireInstalled(arguments[0], package: package)
        let errors = directory + "/\(arguments[0]).err"
        let process = try ChildProcess(
            executable: "/usr/bin/env", arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, directory: directory,
            standardOutput: output.map { .file($0) } ?? .discarded, standardError: .file(errors))
        let ended = process.wait(timeout: 60 * Double(TimeoutScale.factor))
        defer { try? FileManager.default.removeItem(atPath: errors) }
        guard ended == .exited(0) else {
            if ended == nil {
                process.signal(SIGKILL)
                _ = process.wait()
            }
            let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw HelperProcessError("\(arguments[0]) \(arguments.dropFirst().first ?? "") failed (\(ended.map { "\($0)" } ?? "timed out")): \(text)")
        }
    }

    /// Throws, naming the package to install, when `program` is not on `PATH`: the tests of the
    /// key stores need the real middleware and never skip without it (scripts/install-deps.sh
    /// --test installs it).
    package static func requireInstalled(_ program: String, package: String) throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
        guard found else {
            throw HelperProcessError("\(program) is not installed: apt-get install \(package) (scripts/install-deps.sh --test)")
        }
    }

    /// A new directory of this test's own under the temporary directory, mode 0700.
    static func makeDirectory(_ prefix: String) throws -> String {
        let path = NSTemporaryDirectory() + "\(prefix)-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }
}
