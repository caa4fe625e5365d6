import Foundation
import MdocPosix
import MdocTestSupport

/// One of the package's programs running beside the test, such as a holder waiting for a reader.
///
/// Its output goes to files that the test reads while it runs; ``wait(timeout:)`` collects the
/// result, and a program still running at the deadline is killed so no test leaves a process
/// behind.
final class BackgroundProgram {
    /// How long a program may take to end after SIGTERM before it is killed.
    static let terminationGrace: TimeInterval = 10

    private let child: ChildProcess
    private let outPath: String
    private let errPath: String

    convenience init(
        _ program: String, _ arguments: [String], environment: [String: String] = [:],
        directory: String = ProgramRunner.repositoryRoot
    ) throws {
        try self.init(executable: ProgramRunner.productsDirectory.appendingPathComponent(program), arguments,
                      environment: environment, directory: directory)
    }

    /// What every program started by a test runs with unless the test says otherwise, so that
    /// the user running the tests cannot change what the programs do: no credential store or
    /// trust store of the user's (`XDG_DATA_HOME` and `XDG_CONFIG_HOME` in a folder that does not
    /// exist), no default trust anchors, no forced colour, no terminal width.
    static let neutralEnvironment = [
        "XDG_DATA_HOME": "/nonexistent/swift-mdoc-tests/data", "XDG_CONFIG_HOME": "/nonexistent/swift-mdoc-tests/config",
        "MDOC_TRUST": "", "MDOC_TRUST_READERS": "", "CLICOLOR_FORCE": "", "COLUMNS": "",
    ]

    /// Starts the program at `executable` in `directory` (the repository root unless given);
    /// `environment` is added to this process's environment and ``neutralEnvironment``.
    init(
        executable: URL, _ arguments: [String], environment: [String: String] = [:],
        directory: String = ProgramRunner.repositoryRoot
    ) throws {
        outPath = try ProgramRunner.temporaryFile([], suffix: ".out")
        errPath = try ProgramRunner.temporaryFile([], suffix: ".err")
        child = try ChildProcess(
            executable: executable.path, arguments,
            environment: ProcessInfo.processInfo.environment.merging(Self.neutralEnvironment) { _, new in new }
                .merging(environment) { _, new in new },
            directory: directory, standardOutput: .file(outPath), standardError: .file(errPath))
    }

    deinit {
        if child.isRunning { end() }
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
    }

    /// The process identifier, to signal the program.
    var processIdentifier: Int32 { child.processIdentifier }

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
        child.write([UInt8](bytes))
    }

    /// Writes `text` to the program's standard input.
    func send(_ text: String) {
        child.write(Array(text.utf8))
    }

    /// Closes the program's standard input.
    func closeInput() {
        child.closeInput()
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
            if !child.isRunning { return nil }
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
            if !child.isRunning { return standardOutput.contains(text) }
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
            if !child.isRunning { return printedLine(startingWith: prefix, number: number) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        // A test whose task waited for a thread past the deadline still finds a line that came.
        return printedLine(startingWith: prefix, number: number)
    }

    /// Waits up to `timeout` seconds, without holding a thread of the cooperative pool, until
    /// standard error holds `text` `count` times; `false` if the program ended or the time ran
    /// out first.
    func awaitStandardError(containing text: String, count: Int = 1, timeout: TimeInterval = 30) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        func found() -> Bool { standardError.components(separatedBy: text).count - 1 >= count }
        while Date() < deadline {
            if found() { return true }
            if !child.isRunning { return found() }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return found()
    }

    /// Like ``wait(timeout:)``, but waiting without holding a thread of the cooperative pool.
    func awaitExit(timeout: TimeInterval = 30) async -> ProgramRunner.Result {
        let deadline = Date().addingTimeInterval(timeout)
        while child.isRunning, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return wait(timeout: 0)
    }

    /// Sends signal `number` (SIGINT for a person's Ctrl-C) when the program still runs,
    /// without waiting for it to end.
    func signal(_ number: Int32) {
        child.signal(number)
    }

    /// Sends SIGTERM when the program still runs, without waiting for it to end.
    func interrupt() {
        child.signal(SIGTERM)
    }

    /// Whether the program still runs.
    var isRunning: Bool { child.isRunning }

    /// Ends the program with SIGTERM if it still runs, and returns its result.
    func terminate() -> ProgramRunner.Result {
        child.signal(SIGTERM)
        return wait()
    }

    /// Waits for the program to end (ending it after `timeout` seconds) and returns its result.
    func wait(timeout: TimeInterval = 30) -> ProgramRunner.Result {
        let timedOut = child.wait(timeout: timeout) == nil
        if timedOut { end() }
        return ProgramRunner.Result(
            status: child.termination?.status ?? -1,
            standardOutput: standardOutput,
            standardError: standardError,
            timedOut: timedOut)
    }

    /// SIGTERM, then SIGKILL after ``terminationGrace``; waits until it has ended.
    private func end() {
        child.signal(SIGTERM)
        if child.wait(timeout: Self.terminationGrace) == nil {
            child.signal(SIGKILL)
            child.wait(timeout: Self.terminationGrace)
        }
    }
}
