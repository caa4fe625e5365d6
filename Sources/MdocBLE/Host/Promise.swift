import Synchronization

/// A result that arrives once, awaited by one task with a timeout and cancellation: a command's
/// completion, a connection, a disconnection. The first of ``fulfil(_:)``, the timeout and the
/// waiter's cancellation decides; later ones are ignored.
final class Promise<Value: Sendable>: Sendable {
    private struct State: Sendable {
        var result: Result<Value, BLEError>?
        var waiter: CheckedContinuation<Result<Value, BLEError>, Never>?
    }

    private let state = Mutex(State())

    init() {}

    /// Settles the promise with `result` unless it is settled already; true when this call did.
    @discardableResult
    func fulfil(_ result: Result<Value, BLEError>) -> Bool {
        let (waiter, settled) = state.withLock { state -> (CheckedContinuation<Result<Value, BLEError>, Never>?, Bool) in
            guard state.result == nil else { return (nil, false) }
            state.result = result
            defer { state.waiter = nil }
            return (state.waiter, true)
        }
        waiter?.resume(returning: result)
        return settled
    }

    /// Whether the promise is settled.
    var isSettled: Bool { state.withLock { $0.result != nil } }

    /// Waits for the result; after `timeout` it is `timedOut`, and when the waiting task is
    /// cancelled it is `cancelled` (with nil, cancellation is not a result: the wait goes on
    /// until the result or the timeout). One waiter only.
    func value(timeout: Duration?, timedOut: @escaping @Sendable () -> BLEError,
               cancelled: (@Sendable () -> BLEError)?) async -> Result<Value, BLEError> {
        let timer = timeout.map { timeout in
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { self?.fulfil(.failure(timedOut())) }
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Result<Value, BLEError>, Never>) in
                let ready = state.withLock { state -> Result<Value, BLEError>? in
                    if let result = state.result { return result }
                    state.waiter = waiter
                    return nil
                }
                if let ready { waiter.resume(returning: ready) }
            }
        } onCancel: {
            if let cancelled { fulfil(.failure(cancelled())) }
        }
    }
}
