import NIOConcurrencyHelpers

/// A clock whose time moves only when a test moves it, so that a test of a bound runs it in
/// virtual time: the code under test sleeps on the clock, the test waits until it sleeps
/// (``sleeping(_:)``) and then moves the time past the bound (``advance(by:)``) instead of
/// waiting it out.
package final class ManualClock: Clock, Sendable {
    /// A point of the clock's time: how far it was moved from its start.
    package struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock's start.
        package var offset: Duration

        /// The instant `offset` after the clock's start.
        package init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        package func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        package func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        package static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset, as "+2 seconds".
        package var description: String { "+\(offset)" }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let count: Int
        let window: Duration?
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        /// Tests waiting for a number of sleepers due within a time from now, by number.
        var watchers: [Int: Watcher] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// A clock at its start.
    package init() {}

    /// The current time.
    package var now: Instant {
        state.withLockedValue { $0.now }
    }

    /// The clock moves in no steps of its own.
    package var minimumResolution: Duration { .zero }

    /// How many tasks sleep on the clock now.
    package var sleepers: Int {
        state.withLockedValue { $0.sleepers.count }
    }

    /// Sleeps until the clock is moved to `deadline` or past it; returns at once when it is
    /// there already. Throws `CancellationError` when the task is cancelled first.
    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLockedValue { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock the cancellation handler takes: a task cancelled before this
                // is not registered, one cancelled after is woken by the handler.
                let ready: Result<[CheckedContinuation<Void, Never>], CancellationError>? = state.withLockedValue { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    guard deadline > state.now else { return nil }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .success(Self.takeWatchers(&state))
                }
                switch ready {
                case nil: continuation.resume()
                case .failure(let error)?: continuation.resume(throwing: error)
                case .success(let watchers)?: for watcher in watchers { watcher.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time on by `duration` and wakes every task whose deadline it reached.
    package func advance(by duration: Duration) {
        let woken: [Sleeper] = state.withLockedValue { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.sorted { $0.value.deadline < $1.value.deadline }.map(\.value)
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Moves the time on to the earliest deadline a task sleeps until, and wakes the tasks
    /// sleeping until it; does nothing when none sleeps.
    package func advanceToNextDeadline() {
        guard let next = state.withLockedValue({ $0.sleepers.values.map(\.deadline).min() }) else { return }
        advance(by: now.duration(to: next))
    }

    /// Waits until at least `count` tasks sleep on the clock, counting only those due within
    /// `window` from now when it is given: a test waits for the bound it means to run out, not
    /// for another sleeping meanwhile. Returns early when the calling task is cancelled.
    package func sleeping(_ count: Int = 1, dueWithin window: Duration? = nil) async {
        let id = state.withLockedValue { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLockedValue { state in
                    guard !Task.isCancelled, Self.sleepers(in: state, dueWithin: window) < count else { return true }
                    state.watchers[id] = Watcher(count: count, window: window, continuation: continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let watcher = state.withLockedValue { $0.watchers.removeValue(forKey: id) }
            watcher?.continuation.resume()
        }
    }

    /// Runs `body`, moving the clock on by `step` each time a task sleeps on it until a deadline
    /// within `step` from now, until `body` returns: for a test whose peer stalls, where every
    /// bound that applies is to run out in turn.
    package func advancing<Result: Sendable>(by step: Duration, while body: @escaping @Sendable () async -> Result) async -> Result {
        await withTaskGroup(of: Result?.self) { group in
            group.addTask { await body() }
            group.addTask {
                while true {
                    await self.sleeping(dueWithin: step)
                    if Task.isCancelled { return nil }
                    self.advance(by: step)
                }
            }
            var result: Result?
            while let next = await group.next() {
                if let next {
                    result = next
                    group.cancelAll()
                }
            }
            return result!
        }
    }

    private static func sleepers(in state: State, dueWithin window: Duration?) -> Int {
        guard let window else { return state.sleepers.count }
        let end = state.now.advanced(by: window)
        return state.sleepers.values.filter { $0.deadline <= end }.count
    }

    /// The watchers whose count of sleepers is reached, taken out of `state`.
    private static func takeWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        var ready: [CheckedContinuation<Void, Never>] = []
        for (id, watcher) in state.watchers where sleepers(in: state, dueWithin: watcher.window) >= watcher.count {
            ready.append(watcher.continuation)
            state.watchers[id] = nil
        }
        return ready
    }
}
