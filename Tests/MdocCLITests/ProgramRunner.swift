import Foundation
import MdocTestSupport

/// Runs one of the package's built programs and collects its output and exit status.
///
/// The programs are found next to the test bundle (SwiftPM builds executables a test target
/// depends on into the same products folder). A run that has not ended after `timeout` seconds is
/// killed and reported, so a hang fails the test instead of stalling the suite. The wait holds no
/// thread of the cooperative pool (``BackgroundProgram/wait(timeout:)``).
struct ProgramRunner {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var timedOut: Bool
    }

    static let productsDirectory: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // On Linux the test runner is `<products>/swift-mdocPackageTests.xctest`.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("mdoc-reader").path),
            directory.path != "/"
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// The status `/usr/bin/env` ends with when the program it should run is not found.
    static let missingToolStatus: Int32 = 127

    /// The repository's root folder, where the programs run so relative paths such as
    /// `Certs/demo/mdl.mdoc` work.
    static let repositoryRoot = Vectors.repositoryRoot

    /// Runs the package's `program` with `arguments` in `directory` (the repository root unless
    /// given); `environment` is added to this process's environment.
    static func run(
        _ program: String, _ arguments: [String], standardInput: Data? = nil, timeout: TimeInterval = 30,
        environment: [String: String] = [:], directory: String = repositoryRoot
    ) async throws -> Result {
        try await run(executable: productsDirectory.appendingPathComponent(program), arguments,
                standardInput: standardInput, timeout: timeout, environment: environment, directory: directory)
    }

    /// Runs a program found on `PATH` (such as `python3` or `openssl`) through `/usr/bin/env`,
    /// like ``run(_:_:standardInput:timeout:environment:)``; a tool that is not installed ends
    /// with ``missingToolStatus``.
    static func runTool(
        _ tool: String, _ arguments: [String], timeout: TimeInterval = 30, environment: [String: String] = [:]
    ) async throws -> Result {
        try await run(executable: URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, timeout: timeout, environment: environment)
    }

    private static func run(
        executable: URL, _ arguments: [String], standardInput: Data? = nil, timeout: TimeInterval,
        environment: [String: String], directory: String = repositoryRoot
    ) async throws -> Result {
        let program = try BackgroundProgram(executable: executable, arguments, environment: environment, directory: directory)
        if let standardInput {
            program.send(standardInput)
        }
        program.closeInput()
        return await program.wait(timeout: timeout)
    }

    /// Writes `bytes` to a new temporary file and returns its path.
    static func temporaryFile(_ bytes: [UInt8], suffix: String = ".bin") throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("mdoc-cli-\(UUID().uuidString)\(suffix)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
