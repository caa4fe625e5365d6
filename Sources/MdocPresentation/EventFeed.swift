/// The producing end of a session's progress events: yielding never waits, so a slow reader of
/// the events never stalls the protocol, and the events end when the session does or when the
/// session is dropped without running.
final class EventFeed<Event: Sendable>: Sendable {
    private let continuation: AsyncStream<Event>.Continuation

    private init(_ continuation: AsyncStream<Event>.Continuation) {
        self.continuation = continuation
    }

    /// A stream of events and the feed that produces them. The stream keeps every event until
    /// it is read: a session produces a bounded number, a few per message.
    static func make() -> (AsyncStream<Event>, EventFeed) {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        return (stream, EventFeed(continuation))
    }

    /// Adds `event` to the stream and returns at once.
    func yield(_ event: Event) {
        continuation.yield(event)
    }

    /// Ends the stream.
    func finish() {
        continuation.finish()
    }

    deinit {
        continuation.finish()
    }
}
