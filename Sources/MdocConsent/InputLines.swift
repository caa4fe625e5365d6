import MdocPosix
import NIOConcurrencyHelpers
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines typed on a file descriptor, standard input by default, read with read(2) and poll(2)
/// instead of stdio: a wait for the next line can be cancelled (the consent prompt of a session
/// the reader left), and no stdio lock is held while the person thinks, so a signal that ends
/// the program (Ctrl-C) can flush stdio and exit at once.
///
/// Bytes read past a line's end are kept for the next line, across prompts and sessions.
package final class InputLines: Sendable {
    /// The longest line kept, 4,096 bytes: answers are a word; the rest of a longer line is
    /// read and dropped, so a pasted flood cannot grow the buffer.
    package static let maximumLineLength = 4096

    /// Standard input, for the whole process.
    package static let standardInput = InputLines(fileDescriptor: STDIN_FILENO)

    private let fileDescriptor: Int32
    private let state = NIOLockedValueBox(State())

    private struct State: Sendable {
        /// Bytes after the last line returned.
        var pending: [UInt8] = []
        /// Whether the descriptor reached its end.
        var ended = false
    }

    /// Lines from `fileDescriptor`, which stays open and owned by the caller.
    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Makes ``readLine(until:)`` return `nil` at once, from any thread: the answer is no longer
    /// wanted.
    package final class Cancellation: Sendable {
        /// A pipe whose read end becomes readable when cancelled; -1 when it could not be made,
        /// and then only the flag is checked, between lines.
        private let wake: (read: Int32, write: Int32)
        private let cancelled = Atomic<Bool>(false)

        /// A cancellation not yet signalled.
        package init() {
            var descriptors: [Int32] = [-1, -1]
            if pipe(&descriptors) == 0 {
                for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            }
            wake = (descriptors[0], descriptors[1])
        }

        deinit {
            if wake.read >= 0 { close(wake.read) }
            if wake.write >= 0 { close(wake.write) }
        }

        /// Whether ``cancel()`` was called.
        package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

        /// Wakes the wait for a line, which returns `nil`.
        package func cancel() {
            guard !cancelled.exchange(true, ordering: .acquiringAndReleasing), wake.write >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }

        fileprivate var descriptor: Int32 { wake.read }
    }

    /// The next line without its line ending (LF, or CR LF), cut to ``maximumLineLength``; `nil`
    /// at the end of input, when the descriptor fails, or once `cancellation` is cancelled.
    /// Blocks the calling thread until then: call it from a thread of its own.
    package func readLine(until cancellation: Cancellation) -> String? {
        var line: [UInt8] = []
        while true {
            if cancellation.isCancelled { return nil }
            let (taken, complete, ended) = state.withLockedValue { state -> ([UInt8], Bool, Bool) in
                if let end = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let taken = Array(state.pending[..<end])
                    state.pending.removeSubrange(...end)
                    return (taken, true, false)
                }
                defer { state.pending = [] }
                return (state.pending, false, state.ended)
            }
            line += taken.prefix(max(Self.maximumLineLength - line.count, 0))
            if complete {
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if ended { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            guard let bytes = read(waitingFor: cancellation) else { return nil }
            state.withLockedValue { state in
                if bytes.isEmpty { state.ended = true } else { state.pending += bytes }
            }
        }
    }

    /// The next bytes of the descriptor (empty at its end); `nil` when cancelled or failing.
    private func read(waitingFor cancellation: Cancellation) -> [UInt8]? {
        var descriptors = [
            pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: cancellation.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = SystemCall.make { poll(&descriptors, nfds_t(descriptors.count), -1) }
            guard case .success(let count) = ready, count > 0, descriptors[1].revents == 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 512)
            switch SystemCall.make({ Glibc.read(fileDescriptor, &buffer, buffer.count) }) {
            case .success(let count): return Array(buffer.prefix(count))
            // Woken with nothing to read after all: wait again.
            case .failure(let error) where error.code == EAGAIN: continue
            case .failure: return nil
            }
        }
    }
}
