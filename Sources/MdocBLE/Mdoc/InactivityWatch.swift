import NIOConcurrencyHelpers

/// How a wait for the peer's next message ran out (``InactivityWatch/expiry(first:idle:message:clock:)``).
public enum Inactivity: Sendable, Hashable {
    /// No chunk arrived within the first bound.
    case silent
    /// Chunks arrived, then none within the idle bound.
    case stalled
    /// Chunks kept arriving within the idle bound, but the message was not whole within the
    /// message bound, counted from its first chunk.
    case overlong
}

/// The inactivity bounds of a transport's receiving side, kept where the chunks arrive, as
/// SwiftNIO's `IdleStateHandler` keeps a channel's: the transport tells the watch of each chunk
/// it receives (8.3.3.1.1.6), and a wait for the peer's next message asks the watch to say when
/// the peer went idle. The times are those of the clock the wait gives, so a test runs the
/// bounds in virtual time.
///
/// One wait at a time: a wait started while another runs replaces the other's record of chunks.
public final class InactivityWatch: Sendable {
    /// The chunks seen since the current wait started, in its clock's time from that start.
    private struct Record: Sendable {
        /// The time since the wait started, on the wait's clock.
        let elapsed: @Sendable () -> Duration
        /// Which wait this record is for.
        let wait: Int
        /// When the first chunk of the wait arrived.
        var first: Duration?
        /// When the last chunk of the wait arrived.
        var last: Duration?
    }

    private struct State: Sendable {
        var record: Record?
        var waits = 0
    }

    private let state = NIOLockedValueBox(State())

    /// A watch that has seen no chunk.
    public init() {}

    /// Takes note that a chunk of a message arrived now. The transport calls this for each
    /// chunk it receives, whole message or not.
    public func chunkArrived() {
        state.withLockedValue { state in
            guard var record = state.record else { return }
            let now = record.elapsed()
            record.last = now
            if record.first == nil { record.first = now }
            state.record = record
        }
    }

    /// Waits until a bound runs out and says which: `first` for the first chunk, then `idle`
    /// between chunks and `message` for the whole message from its first chunk, on `clock`.
    /// Only chunks that arrive once the wait started count. Returns `nil` when the calling task
    /// is cancelled first, as when the message came: the wait is over.
    ///
    /// Until a chunk arrives the watch looks at least once per `idle`, so that chunks arriving
    /// early put the message under the idle bound from then on.
    public func expiry<C: Clock>(first: Duration, idle: Duration, message: Duration, clock: C) async -> Inactivity?
    where C.Duration == Duration {
        let start = clock.now
        let wait = state.withLockedValue { state in
            state.waits += 1
            state.record = Record(elapsed: { start.duration(to: clock.now) }, wait: state.waits)
            return state.waits
        }
        defer {
            state.withLockedValue { state in
                if state.record?.wait == wait { state.record = nil }
            }
        }
        while true {
            // Read with the chunks, so that no chunk falls between the two.
            let (firstSeen, last, now) = state.withLockedValue { ($0.record?.first, $0.record?.last, start.duration(to: clock.now)) }
            let idleDeadline = last.map { $0 + idle } ?? first
            let messageDeadline = firstSeen.map { $0 + message } ?? idleDeadline
            if now >= min(idleDeadline, messageDeadline) {
                if messageDeadline < idleDeadline { return .overlong }
                return last == nil ? .silent : .stalled
            }
            let next = last == nil ? min(idleDeadline, now + idle) : min(idleDeadline, messageDeadline)
            do {
                try await clock.sleep(until: start.advanced(by: next), tolerance: nil)
            } catch {
                return nil
            }
        }
    }
}
