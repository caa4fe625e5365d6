import CSpawnShims
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
import NIOConcurrencyHelpers

/// A program this process starts (a helper such as a Bumble virtual controller or dbus-daemon,
/// a program under test, or `mdoc-benchmark`'s memory probe): posix_spawn(3), a pipe on its
/// standard input, its standard output and error to a pipe, a file or /dev/null, and a thread of
/// its own that waits for its end.
///
/// Foundation's `Process` is not used for this: it learns of a child's end through a run loop of
/// its own, and in a test process running dozens of children at once under ThreadSanitizer it was
/// seen never to notice some ends, so `waitUntilExit()` spun on both threads of the cooperative
/// pool for ever and the run hung. It also gives a child the signal mask of the thread that
/// started it (the pool's threads block SIGTERM) and every descriptor not marked close-on-exec.
/// Here the child starts with no signal blocked, default dispositions and no descriptor but 0, 1
/// and 2; the waiting thread uses waitid(2) with WNOWAIT, so the child is reaped only under the
/// lock that ``signal(_:)`` takes, and a signal never reaches a process identifier reused by
/// another program.
package final class ChildProcess: Sendable {
    /// Where the child's standard output or standard error goes.
    package enum Destination: Sendable {
        /// A pipe whose read end this object keeps (``outputDescriptor``, ``errorDescriptor``).
        case pipe
        /// The file at this path, created or truncated.
        case file(String)
        /// /dev/null.
        case discarded
        /// Where this process's own goes.
        case inherited
    }

    /// How a child ended.
    package enum Termination: Sendable, Equatable {
        /// It called exit with this status.
        case exited(Int32)
        /// This signal ended it.
        case signalled(Int32)

        /// The exit status, or the signal's number, as Foundation's `terminationStatus` gives it.
        package var status: Int32 {
            switch self {
            case .exited(let status), .signalled(let status): return status
            }
        }
    }

    private struct State: Sendable {
        var termination: Termination?
        /// The write end of the child's standard input, until closed.
        var input: Int32
    }

    /// The child's process identifier.
    package let processIdentifier: pid_t
    /// The read end of the child's standard output, when it goes to a ``Destination/pipe``.
    package let outputDescriptor: Int32?
    /// The read end of the child's standard error, when it goes to a ``Destination/pipe``.
    package let errorDescriptor: Int32?
    private let state: NIOLockedValueBox<State>
    private let ended = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments` (not counting the program name) and exactly
    /// `environment`, in `directory`.
    package init(
        executable: String, _ arguments: [String], environment: [String: String], directory: String,
        standardOutput: Destination, standardError: Destination
    ) throws {
        var input: [Int32] = [-1, -1]
        guard mdoc_pipe_cloexec(&input) == 0 else { throw HelperProcessError("pipe2: \(String(cString: strerror(errno)))") }
        var output: [Int32] = [-1, -1]
        var error: [Int32] = [-1, -1]
        if case .pipe = standardOutput, mdoc_pipe_cloexec(&output) != 0 {
            close(input[0])
            close(input[1])
            throw HelperProcessError("pipe2: \(String(cString: strerror(errno)))")
        }
        if case .pipe = standardError, mdoc_pipe_cloexec(&error) != 0 {
            for descriptor in input + output where descriptor >= 0 { close(descriptor) }
            throw HelperProcessError("pipe2: \(String(cString: strerror(errno)))")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        Self.add(standardOutput, as: 1, pipe: output[1], to: &actions)
        Self.add(standardError, as: 2, pipe: error[1], to: &actions)
        mdoc_spawn_file_actions_addchdir(&actions, directory)
        mdoc_spawn_file_actions_addclosefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(input[0])
        if output[1] >= 0 { close(output[1]) }
        if error[1] >= 0 { close(error[1]) }
        guard result == 0 else {
            close(input[1])
            if output[0] >= 0 { close(output[0]) }
            if error[0] >= 0 { close(error[0]) }
            throw HelperProcessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        processIdentifier = pid
        outputDescriptor = output[0] >= 0 ? output[0] : nil
        errorDescriptor = error[0] >= 0 ? error[0] : nil
        state = NIOLockedValueBox(State(termination: nil, input: input[1]))
        do throws(SystemCall.Errno) {
            try DetachedThread.start { [self] in awaitEnd() }
        } catch {
            // Nothing would learn of its end: the child goes now, reaped here.
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = SystemCall.make { waitpid(pid, &status, 0) }
            throw HelperProcessError("cannot wait for \(executable): no thread (\(String(cString: strerror(error.code))))")
        }
    }

    deinit {
        state.withLockedValue { state in
            if state.input >= 0 { close(state.input) }
        }
        if let outputDescriptor { close(outputDescriptor) }
        if let errorDescriptor { close(errorDescriptor) }
    }

    /// Whether the child has not ended yet.
    package var isRunning: Bool { state.withLockedValue { $0.termination == nil } }

    /// How the child ended, or nil while it runs.
    package var termination: Termination? { state.withLockedValue { $0.termination } }

    /// Waits for the child to end; its termination.
    package func wait() -> Termination {
        while true {
            if let termination { return termination }
            ended.wait()
            ended.signal()
        }
    }

    /// Waits up to `timeout` seconds for the child to end; its termination, or nil.
    @discardableResult
    package func wait(timeout: TimeInterval) -> Termination? {
        if let termination { return termination }
        guard ended.wait(timeout: .now() + max(0, timeout)) == .success else { return nil }
        ended.signal()
        return termination
    }

    /// Sends `signal` to the child while it has not been reaped; afterwards nothing.
    package func signal(_ signal: Int32) {
        state.withLockedValue { state in
            if state.termination == nil { kill(processIdentifier, signal) }
        }
    }

    /// Writes all of `bytes` to the child's standard input; false when the child stopped
    /// reading it or it was closed.
    @discardableResult
    package func write(_ bytes: [UInt8]) -> Bool {
        guard let descriptor = state.withLockedValue({ $0.input >= 0 ? $0.input : nil }) else { return false }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in SystemCall.make { Glibc.write(descriptor, buffer.baseAddress, buffer.count) } }
            guard case .success(let count) = written, count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Closes the child's standard input. Idempotent.
    package func closeInput() {
        state.withLockedValue { state in
            if state.input >= 0 {
                close(state.input)
                state.input = -1
            }
        }
    }

    /// Waits for the child's end without reaping it, then reaps it under the lock.
    private func awaitEnd() {
        var information = siginfo_t()
        _ = SystemCall.make { waitid(P_PID, id_t(processIdentifier), &information, WEXITED | WNOWAIT) }
        state.withLockedValue { state in
            var status: Int32 = 0
            _ = SystemCall.make { waitpid(processIdentifier, &status, 0) }
            // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift does not import.
            let signal = status & 0x7f
            state.termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        }
        ended.signal()
    }

    private static func add(_ destination: Destination, as descriptor: Int32, pipe: Int32,
                            to actions: inout posix_spawn_file_actions_t) {
        switch destination {
        case .pipe:
            posix_spawn_file_actions_adddup2(&actions, pipe, descriptor)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .discarded:
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
        case .inherited:
            break
        }
    }
}
