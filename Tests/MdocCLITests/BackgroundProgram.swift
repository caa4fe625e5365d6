import Foundation
import MdocPosix
import MdocTestSupport

/// One of the package's programs running beside the test, such as a holder waiting for a reader.
///
/// Its output goes to files that the test reads while it runs; ``wait(timeout:)`` collects the
/// result, and a program still running at the deadline is killed so no test leaves a process
/// behind. Every wait is asynchronous and holds no thread of the cooperative pool.
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

    /// A program still running when the test lets go of it is stopped (``stop()``).
    deinit {
        stop()
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
    func firstLine(startingWith prefix: String, timeout: TimeInterval = 30) async -> String? {
        await line(startingWith: prefix, number: 1, timeout: timeout)
    }

    /// The `number`th line (from 1) of standard output that starts with `prefix`, waiting for
    /// it up to `timeout` seconds; nil if the program ended or the time ran out first.
    func line(startingWith prefix: String, number: Int, timeout: TimeInterval = 30) async -> String? {
        await outputWhen(timeout: timeout) { printedLine(startingWith: prefix, number: number) }
    }

    /// The `number`th line of standard output so far that starts with `prefix`, or nil.
    private func printedLine(startingWith prefix: String, number: Int) -> String? {
        let lines = standardOutput.split(separator: "\n").filter { $0.hasPrefix(prefix) }
        return lines.count >= number ? String(lines[number - 1]) : nil
    }

    /// Waits up to `timeout` seconds until standard output contains `text`; `false` if the
    /// program ended or the time ran out first.
    func waitForOutput(containing text: String, timeout: TimeInterval = 30) async -> Bool {
        await outputWhen(timeout: timeout) { standardOutput.contains(text) ? true : nil } ?? false
    }

    /// Waits up to `timeout` seconds until standard error holds `text` `count` times; `false` if
    /// the program ended or the time ran out first.
    func waitForStandardError(containing text: String, count: Int = 1, timeout: TimeInterval = 30) async -> Bool {
        await outputWhen(timeout: timeout) { standardError.components(separatedBy: text).count - 1 >= count ? true : nil } ?? false
    }

    /// What `found` finds in the output, looked for every ``pollInterval`` until the program ends
    /// or `timeout` seconds pass. The output is files the program writes, so nothing announces
    /// new output; the test's task sleeps between looks and holds no thread of the cooperative
    /// pool, which the peers and timers of the tests running beside it need. A look is made
    /// after the deadline too, so a test whose task waited for a thread past it still finds
    /// what came.
    private func outputWhen<Found>(timeout: TimeInterval, _ found: () -> Found?) async -> Found? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, child.isRunning {
            if let result = found() { return result }
            try? await Task.sleep(for: Self.pollInterval)
        }
        return found()
    }

    /// How often waits look at the program's output and state.
    static let pollInterval = Duration.milliseconds(20)

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

    /// Sends SIGTERM when the program still runs, and SIGKILL after ``terminationGrace`` from a
    /// thread of its own, without waiting: for a test's cleanup, so no test leaves a process
    /// behind and none holds a thread of the cooperative pool for it.
    func stop() {
        guard child.isRunning else { return }
        let child = child
        child.signal(SIGTERM)
        Thread.detachNewThread {
            if child.wait(timeout: Self.terminationGrace) == nil { child.signal(SIGKILL) }
        }
    }

    /// Ends the program with SIGTERM if it still runs, and returns its result.
    func terminate() async -> ProgramRunner.Result {
        child.signal(SIGTERM)
        return await wait()
    }

    /// Waits for the program to end (ending it after `timeout` seconds) and returns its result,
    /// holding no thread of the cooperative pool meanwhile.
    func wait(timeout: TimeInterval = 30) async -> ProgramRunner.Result {
        let timedOut = await exit(within: timeout) == nil
        if timedOut {
            child.signal(SIGTERM)
            if await exit(within: Self.terminationGrace) == nil {
                child.signal(SIGKILL)
                await exit(within: Self.terminationGrace)
            }
        }
        return ProgramRunner.Result(
            status: child.termination?.status ?? -1,
            standardOutput: standardOutput,
            standardError: standardError,
            timedOut: timedOut)
    }

    /// How the program ended, waiting up to `timeout` seconds; nil while it still runs.
    @discardableResult
    private func exit(within timeout: TimeInterval) async -> ChildProcess.Termination? {
        _ = await outputWhen(timeout: timeout) { () -> Void? in nil }
        return child.termination
    }
}
