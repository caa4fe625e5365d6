import Synchronization

/// Lets one message at a time go out, so the chunks of two concurrent `send` calls on a
/// transport actor never interleave (ISO/IEC 18013-5 8.3.3.1.1.6: a message is the chunks up to
/// the one with header 0x00).
final class MessageSendTurn: Sendable {
    private struct State: Sendable {
        var isBusy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Waits until no other message is being sent, then holds the turn.
    func acquire() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let isFree = state.withLock { state in
                guard state.isBusy else {
                    state.isBusy = true
                    return true
                }
                state.waiters.append(waiter)
                return false
            }
            if isFree { waiter.resume() }
        }
    }

    /// Passes the turn to the next waiting sender, if any.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.isBusy = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
