import NIOConcurrencyHelpers

/// How a radio tells that it can make no more links (``MdocRadio/failure()``): set once, when its
/// controller or bus connection ends or it is closed, and waited for by any number of tasks,
/// each of which may be cancelled.
package final class RadioFailureSignal: Sendable {
    private struct State {
        var failure: BLEError?
        var waiters: [Int: CheckedContinuation<BLEError?, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = NIOLockedValueBox(State())

    /// A signal that has not fired.
    package init() {}

    /// Fires with `error` and wakes every waiter; later calls change nothing (the first
    /// failure stays).
    package func fail(_ error: BLEError) {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<BLEError?, Never>] in
            guard state.failure == nil else { return [] }
            state.failure = error
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: error) }
    }

    /// The failure, at once when the signal fired, else once it fires; `nil` when the waiting
    /// task is cancelled first.
    package func failure() async -> BLEError? {
        let number = state.withLockedValue { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<BLEError?, Never>) in
                let answer: BLEError?? = state.withLockedValue { state in
                    if let failure = state.failure { return .some(failure) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[number] = waiter
                    return .none
                }
                if let answer { waiter.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLockedValue { $0.waiters.removeValue(forKey: number) }
            waiter?.resume(returning: nil)
        }
    }
}
