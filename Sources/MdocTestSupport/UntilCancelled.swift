import NIOConcurrencyHelpers

/// Suspends the calling task until it is cancelled: what a test's peer or delegate does when it
/// must never answer on its own, without a sleep standing for "forever".
package func untilCancelled() async {
    let waiter = NIOLockedValueBox<(continuation: CheckedContinuation<Void, Never>?, isCancelled: Bool)>((nil, false))
    await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let cancelled = waiter.withLockedValue { state in
                if state.isCancelled { return true }
                state.continuation = continuation
                return false
            }
            if cancelled { continuation.resume() }
        }
    } onCancel: {
        let continuation = waiter.withLockedValue { state in
            state.isCancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
