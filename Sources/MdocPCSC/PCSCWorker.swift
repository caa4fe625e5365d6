import NIOPosix

/// The thread a ``PCSCContext``'s calls run on. pcsc-lite's calls block until pcscd answers, a
/// wait for a card for as long as its bound, so none runs on Swift concurrency's cooperative
/// pool: each context has one thread of its own (a NIOThreadPool of one), which also keeps the
/// calls on a context one at a time, as pcsc-lite asks.
final class PCSCWorker: Sendable {
    private let pool: NIOThreadPool

    init() {
        pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
    }

    /// Runs `body` on the thread, after the calls before it; a task cancelled before `body`
    /// starts ends with `cancelled` and `body` never runs.
    func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async throws(PCSCError) -> Result {
        do {
            return try await pool.runIfActive(body)
        } catch is CancellationError {
            throw PCSCError(.cancelled, "cancelled before the call to pcsc-lite", context: nil)
        } catch {
            throw PCSCError(.failed, "the PC/SC context's thread has stopped: \(error)", context: nil)
        }
    }

    /// Runs `body` on the thread after the calls before it, then stops the thread; nothing
    /// waits for either. (Work the stopping pool has not started runs on a Dispatch queue.)
    func finish(with body: @escaping @Sendable () -> Void) {
        pool.submit { _ in body() }
        pool.shutdownGracefully { _ in }
    }

    /// Runs `body` on the thread after the calls before it; nothing waits for it.
    func runWithoutWaiting(_ body: @escaping @Sendable () -> Void) {
        pool.submit { _ in body() }
    }
}
