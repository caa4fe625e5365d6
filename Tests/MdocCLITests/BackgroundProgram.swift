import Foundation
import MdocPosix
import MdocTestSupport
import NIOConcurrencyHelpers

/// One of the package's programs running beside the test, such as a holder waiting for a reader.
///
/// Its standard output and error are pipes, read as the program writes by threads of their own,
/// which wake the test's waits; ``wait(timeout:)`` collects the result, and a program still
/// running at the deadline is killed so no test leaves a process behind. Every wait is
/// asynchronous and holds no thread of the cooperative pool.
final class BackgroundProgram {
    /// How long a program may take to end after SIGTERM before it is killed.
    static let terminationGrace: TimeInterval = 10

    private let child: ChildProcess
    private let output = ProgramStreams()

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
        let child = try ChildProcess(
            executable: executable.path, arguments,
            environment: ProcessInfo.processInfo.environment.merging(Self.neutralEnvironment) { _, new in new }
                .merging(environment) { _, new in new },
            directory: directory, standardOutput: .pipe, standardError: .pipe)
        self.child = child
        // Each thread keeps the child, and so its descriptors, until its pipe ends.
        let output = output
        for (descriptor, stream) in [(child.outputDescriptor, ProgramStreams.Stream.output), (child.errorDescriptor, .error)] {
            guard let descriptor else { continue }
            try DetachedThread.start {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while case .success(let count) = buffer.withUnsafeMutableBytes({ bytes in
                    SystemCall.make { read(descriptor, bytes.baseAddress, bytes.count) }
                }), count > 0 {
                    output.append(buffer[..<count], to: stream)
                }
                output.close(stream)
                withExtendedLifetime(child) {}
            }
        }
        try DetachedThread.start {
            _ = child.wait()
            output.close(.program)
        }
    }

    /// A program still running when the test lets go of it is stopped (``stop()``).
    deinit {
        stop()
    }

    /// The process identifier, to signal the program.
    var processIdentifier: Int32 { child.processIdentifier }

    /// What the program has written to standard output so far.
    var standardOutput: String {
        output.snapshot().standardOutput
    }

    /// What the program has written to standard error so far.
    var standardError: String {
        output.snapshot().standardError
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
        await outputWhen(timeout: timeout, printedLine(startingWith: prefix, number: number))
    }

    /// The `number`th line of standard output so far that starts with `prefix`, or nil.
    private func printedLine(startingWith prefix: String, number: Int) -> @Sendable (ProgramStreams.Snapshot) -> String? {
        { snapshot in
            let lines = snapshot.standardOutput.split(separator: "\n").filter { $0.hasPrefix(prefix) }
            return lines.count >= number ? String(lines[number - 1]) : nil
        }
    }

    /// Waits up to `timeout` seconds until standard output contains `text`; `false` if the
    /// program ended or the time ran out first.
    func waitForOutput(containing text: String, timeout: TimeInterval = 30) async -> Bool {
        await outputWhen(timeout: timeout) { $0.standardOutput.contains(text) ? true : nil } ?? false
    }

    /// Waits up to `timeout` seconds until standard error holds `text` `count` times; `false` if
    /// the program ended or the time ran out first.
    func waitForStandardError(containing text: String, count: Int = 1, timeout: TimeInterval = 30) async -> Bool {
        await outputWhen(timeout: timeout) { $0.standardError.components(separatedBy: text).count - 1 >= count ? true : nil } ?? false
    }

    /// What `found` finds in the output, looked for each time the program writes, until it
    /// ended (its pipes closed and it was reaped) or `timeout` seconds pass: the bound is an
    /// inactivity bound, and a look is made after it too.
    private func outputWhen<Found: Sendable>(
        timeout: TimeInterval, _ found: @escaping @Sendable (ProgramStreams.Snapshot) -> Found?
    ) async -> Found? {
        let output = output
        let first = await withTaskGroup(of: Found?.self) { group in
            group.addTask {
                var snapshot = output.snapshot()
                while !Task.isCancelled {
                    if let result = found(snapshot) { return result }
                    if snapshot.hasEnded { return nil }
                    await output.change(after: snapshot.version)
                    snapshot = output.snapshot()
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        return first ?? found(output.snapshot())
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
        _ = await outputWhen(timeout: timeout) { $0.hasEnded ? true : nil }
        return child.termination
    }
}

/// What a ``BackgroundProgram`` wrote so far, and the waits for more.
private final class ProgramStreams: Sendable {
    /// What ends: a pipe, or the program.
    enum Stream: Sendable {
        case output, error, program
    }

    /// The output at one moment.
    struct Snapshot: Sendable {
        let standardOutput: String
        let standardError: String
        /// Counts the changes so far.
        let version: Int
        /// Whether both pipes ended and the program was reaped.
        let hasEnded: Bool
    }

    private struct State {
        var output: [UInt8] = []
        var error: [UInt8] = []
        var ended: Set<Stream> = []
        var version = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = NIOLockedValueBox(State())

    func snapshot() -> Snapshot {
        state.withLockedValue { state in
            Snapshot(standardOutput: String(decoding: state.output, as: UTF8.self),
                     standardError: String(decoding: state.error, as: UTF8.self), version: state.version,
                     hasEnded: state.ended.count == 3)
        }
    }

    func append(_ bytes: ArraySlice<UInt8>, to stream: Stream) {
        changed { state in
            if stream == .output { state.output += bytes } else { state.error += bytes }
        }
    }

    func close(_ stream: Stream) {
        changed { $0.ended.insert(stream) }
    }

    /// Returns once the output changed after `version`, or the waiting task is cancelled.
    func change(after version: Int) async {
        let id = state.withLockedValue { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = state.withLockedValue { state in
                    guard !Task.isCancelled, state.version == version else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    private func changed(_ change: (inout State) -> Void) {
        let woken = state.withLockedValue { state in
            change(&state)
            state.version += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }
}
