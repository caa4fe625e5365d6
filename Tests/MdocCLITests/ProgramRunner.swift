import Foundation
import MdocTestSupport

/// Runs one of the package's built programs and collects its output and exit status.
///
/// The programs are found next to the test bundle (SwiftPM builds executables a test target
/// depends on into the same products folder). A run that has not ended after `timeout` seconds is
/// killed and reported, so a hang fails the test instead of stalling the suite.
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

    static func run(_ program: String, _ arguments: [String], standardInput: Data? = nil, timeout: TimeInterval = 30) throws -> Result {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent(program)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Vectors.repositoryRoot)
        // Output goes to files, not pipes: nothing can block on a full pipe and no reader thread
        // is needed.
        let outPath = try temporaryFile([], suffix: ".out")
        let errPath = try temporaryFile([], suffix: ".err")
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let standardInput {
            input.fileHandleForWriting.write(standardInput)
        }
        try input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                timedOut = true
                break
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        process.waitUntilExit()
        let outData = FileManager.default.contents(atPath: outPath) ?? Data()
        let errData = FileManager.default.contents(atPath: errPath) ?? Data()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self),
            timedOut: timedOut)
    }

    /// Writes `bytes` to a new temporary file and returns its path.
    static func temporaryFile(_ bytes: [UInt8], suffix: String = ".bin") throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("mdoc-cli-\(UUID().uuidString)\(suffix)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
