import Foundation

/// One of the package's programs running beside the test, such as a holder waiting for a reader.
///
/// Its output goes to files that the test reads while it runs; ``wait(timeout:)`` collects the
/// result, and a program still running at the deadline is killed so no test leaves a process
/// behind.
final class BackgroundProgram {
    private let process = Process()
    private let outPath: String
    private let errPath: String
    private let input = Pipe()

    convenience init(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        try self.init(executable: ProgramRunner.productsDirectory.appendingPathComponent(program), arguments,
                      environment: environment)
    }

    /// Starts the program at `executable` in the repository root; `environment` is added to
    /// this process's environment.
    init(executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: ProgramRunner.repositoryRoot)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        outPath = try ProgramRunner.temporaryFile([], suffix: ".out")
        errPath = try ProgramRunner.temporaryFile([], suffix: ".err")
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = input
        try process.run()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
    }

    /// The process identifier, to signal the program.
    var processIdentifier: Int32 { process.processIdentifier }

    /// What the program has written to standard output so far.
    var standardOutput: String {
        String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
    }

    /// What the program has written to standard error so far.
    var standardError: String {
        String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
    }

    /// Writes `bytes` to the program's standard input.
    func send(_ bytes: Data) {
        input.fileHandleForWriting.write(bytes)
    }

    /// Writes `text` to the program's standard input.
    func send(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Closes the program's standard input.
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// The first line of standard output that starts with `prefix`, waiting for it up to
    /// `timeout` seconds; nil if the program ended or the time ran out first.
    func firstLine(startingWith prefix: String, timeout: TimeInterval = 30) -> String? {
        line(startingWith: prefix, number: 1, timeout: timeout)
    }

    /// The `number`th line (from 1) of standard output that starts with `prefix`, waiting for
    /// it up to `timeout` seconds; nil if the program ended or the time ran out first.
    func line(startingWith prefix: String, number: Int, timeout: TimeInterval = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = printedLine(startingWith: prefix, number: number) { return line }
            if !process.isRunning { return nil }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    /// The `number`th line of standard output so far that starts with `prefix`, or nil.
    private func printedLine(startingWith prefix: String, number: Int) -> String? {
        let lines = standardOutput.split(separator: "\n").filter { $0.hasPrefix(prefix) }
        return lines.count >= number ? String(lines[number - 1]) : nil
    }

    /// Waits up to `timeout` seconds until standard output contains `text`; `false` if the
    /// program ended or the time ran out first.
    func waitForOutput(containing text: String, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if standardOutput.contains(text) { return true }
            if !process.isRunning { return standardOutput.contains(text) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Like ``line(startingWith:number:timeout:)``, but waiting without holding a thread of the
    /// cooperative pool, for asynchronous tests whose peers run in this process.
    func awaitLine(startingWith prefix: String, number: Int, timeout: TimeInterval = 30) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = printedLine(startingWith: prefix, number: number) { return line }
            if !process.isRunning { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Like ``wait(timeout:)``, but waiting without holding a thread of the cooperative pool.
    func awaitExit(timeout: TimeInterval = 30) async -> ProgramRunner.Result {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return wait(timeout: 0)
    }

    /// Sends SIGTERM when the program still runs, without waiting for it to end.
    func interrupt() {
        if process.isRunning { process.terminate() }
    }

    /// Whether the program still runs.
    var isRunning: Bool { process.isRunning }

    /// Ends the program with SIGTERM if it still runs, and returns its result.
    func terminate() -> ProgramRunner.Result {
        if process.isRunning {
            process.terminate()
        }
        return wait()
    }

    /// Waits for the program to end (killing it after `timeout` seconds) and returns its result.
    func wait(timeout: TimeInterval = 30) -> ProgramRunner.Result {
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                timedOut = true
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        return ProgramRunner.Result(
            status: process.terminationStatus,
            standardOutput: standardOutput,
            standardError: standardError,
            timedOut: timedOut)
    }
}
