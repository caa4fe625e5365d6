import Dispatch

/// How a target runs async code from libFuzzer's synchronous entry: it blocks the calling
/// thread until `body` has finished on the concurrency runtime's threads.
public enum FuzzAsync {
    /// Runs `body` to its end.
    public static func run(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }
}
