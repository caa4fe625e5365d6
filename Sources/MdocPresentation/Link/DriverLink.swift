#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MdocBLE
import MdocSession

/// One live session's link as its driver sees it (ISO/IEC 18013-5 8.3.3.1.1): a single queue of
/// what happened (a message, State 0x02, the link closing, a bound running out, the holder's
/// decision), fed by a receive task, the transport's inactivity watch and the consent task, all
/// children of the session's task group. The driver takes one input at a time, so no two waits
/// race, and nothing outlives the session: when ``run(_:timeouts:clock:_:)`` returns, the link
/// is closed and every task ended.
struct DriverLink {
    /// What the driver's loop is told.
    enum Input: Sendable {
        /// The transport delivered an event, or failed.
        case event(Result<MdocTransportEvent, BLEError>)
        /// A bound of wait `number` ran out.
        case ranOut(Int, Inactivity)
        /// The holder decided what to release.
        case decided(ElementSelection)
    }

    /// How a wait for the peer ended.
    enum Wait: Sendable {
        /// The transport delivered an event.
        case event(MdocTransportEvent)
        /// The transport failed, or a bound ran out (the link is then ended).
        case failed(LinkError)
        /// The task running the session was cancelled.
        case cancelled
    }

    /// How a wait for the holder's decision ended.
    enum Decision: Sendable {
        case decided(ElementSelection)
        /// The peer did something first: the decision is no longer wanted.
        case interrupted(Wait)
    }

    /// The transport of the session.
    let transport: any MdocTransport
    /// The session's bounds.
    let timeouts: SessionTimeouts
    /// The clock the bounds are measured on.
    let clock: any Clock<Duration>
    private var inputs: AsyncStream<Input>.Iterator
    private let feed: AsyncStream<Input>.Continuation
    /// The number of the current wait; what earlier waits' bounds said is stale.
    private var wait = 0

    private init(
        transport: any MdocTransport, timeouts: SessionTimeouts, clock: any Clock<Duration>, inputs: AsyncStream<Input>,
        feed: AsyncStream<Input>.Continuation
    ) {
        self.transport = transport
        self.timeouts = timeouts
        self.clock = clock
        self.inputs = inputs.makeAsyncIterator()
        self.feed = feed
    }

    /// Runs `body` over `transport` and closes the transport after it; returns once every task
    /// of the session ended. A task that receives from the transport for the whole session
    /// feeds the queue until the link is over. The bounds are measured on `clock`.
    static func run<Result: Sendable>(
        _ transport: any MdocTransport, timeouts: SessionTimeouts, clock: any Clock<Duration> = ContinuousClock(),
        _ body: (inout DriverLink, inout DiscardingTaskGroup) async -> Result
    ) async -> Result {
        await withDiscardingTaskGroup(returning: Result.self) { group in
            let (inputs, feed) = AsyncStream.makeStream(of: Input.self)
            group.addTask {
                while true {
                    let event: Swift.Result<MdocTransportEvent, BLEError>
                    do throws(BLEError) {
                        event = .success(try await transport.receive())
                    } catch {
                        event = .failure(error)
                    }
                    feed.yield(.event(event))
                    guard case .success(.message) = event else { return }
                }
            }
            var link = DriverLink(transport: transport, timeouts: timeouts, clock: clock, inputs: inputs, feed: feed)
            let result = await body(&link, &group)
            transport.close()
            feed.finish()
            group.cancelAll()
            return result
        }
    }

    /// The next event of the transport, waiting at most `first` for its first chunks, then
    /// ``SessionTimeouts/idle`` between chunks and ``SessionTimeouts/message`` for the whole
    /// message: the transport's `InactivityWatch` says when one runs out, for as long as the
    /// wait lasts. When a bound runs out the link is ended with State 0x02 (8.3.3.1.1.5) and the
    /// failure names `what` was awaited.
    mutating func next(within first: Duration, awaiting what: String) async -> Wait {
        wait += 1
        let number = wait
        let (watch, clock, feed, timeouts) = (transport.inactivity, self.clock, self.feed, self.timeouts)
        return await withDiscardingTaskGroup(returning: Wait.self) { group in
            group.addTask {
                if let inactivity = await watch.expiry(first: first, idle: timeouts.idle, message: timeouts.message, clock: clock) {
                    feed.yield(.ranOut(number, inactivity))
                }
            }
            defer { group.cancelAll() }
            return await take(number, within: first, awaiting: what)
        }
    }

    /// The inputs of wait `number` until one ends it.
    private mutating func take(_ number: Int, within first: Duration, awaiting what: String) async -> Wait {
        while let input = await inputs.next() {
            switch input {
            case .event(let event):
                wait += 1
                return Self.wait(event, awaiting: what)
            case .ranOut(number, let inactivity):
                wait += 1
                await SessionLink.end(transport, clock: clock)
                switch inactivity {
                case .overlong:
                    return .failed(LinkError(
                        .timeout, "the \(what) took longer than \(SessionLink.seconds(timeouts.message)) to arrive, though the peer kept sending"))
                case .stalled:
                    return .failed(LinkError(
                        .timeout, "the \(what) stopped arriving: nothing more came within \(SessionLink.seconds(timeouts.idle))"))
                case .silent:
                    return .failed(LinkError(.timeout, "no \(what) within \(SessionLink.seconds(first))"))
                }
            case .ranOut, .decided:
                continue
            }
        }
        return .cancelled
    }

    /// Asks `consent` to decide on `request` in a task of the session, and waits for the answer
    /// or for the peer to act first (a message, State 0x02, the link closing), whichever comes
    /// first. The decision has no bound: a person takes the time they need. When the peer acts
    /// first, the decision task is cancelled as the session ends; when the session's task is
    /// cancelled, so is the decision, whatever it answers.
    mutating func decide(
        _ request: PresentationRequest, by consent: any HolderConsentDelegate, group: inout DiscardingTaskGroup
    ) async -> Decision {
        let feed = self.feed
        group.addTask {
            let selection = await consent.decide(request)
            feed.yield(.decided(selection))
        }
        while let input = await inputs.next() {
            switch input {
            case .decided(let selection):
                // Cancelling the session cancels the decision task too, which may then answer
                // anyway: a decision that comes after the cancellation releases nothing.
                return Task.isCancelled ? .interrupted(.cancelled) : .decided(selection)
            case .event(let event):
                return .interrupted(Self.wait(event, awaiting: "the holder's decision"))
            case .ranOut:
                continue
            }
        }
        return .interrupted(.cancelled)
    }

    /// Sends `message`, bounded by ``SessionTimeouts/idle``; `what` names it in the failure.
    func send(_ message: [UInt8], sending what: String) async throws(LinkError) {
        try await SessionLink.send(message, on: transport, within: timeouts.idle, sending: what, clock: clock)
    }

    /// Ends the session on the link: sends `status` when given (a status message the peer can
    /// no longer take changes nothing), then State 0x02 (8.3.3.1.1.5). Runs to its end, within
    /// ``SessionLink/endTimeout`` for each step, even when the session's task is cancelled.
    func finish(sending status: [UInt8]?) async {
        let (transport, clock) = (self.transport, self.clock)
        await Task {
            if let status {
                try? await SessionLink.send(
                    status, on: transport, within: SessionLink.endTimeout, sending: "the status message", clock: clock)
            }
            await SessionLink.end(transport, clock: clock)
        }.value
    }

    /// After this side terminated the session and kept the link (9.1.1.4), waits at most
    /// `bound` for the peer to close the channel, `what` naming that end in the failure; what
    /// the peer sends meanwhile is kept in `messages`. `.session(outcome)` once the link ended;
    /// otherwise the wait's error, the link then closed.
    mutating func awaitPeerEnd(
        within bound: Duration, awaiting what: String, messages: inout [LinkMessage], _ outcome: SessionOutcome
    ) async -> LiveSessionEnd {
        while true {
            switch await next(within: bound, awaiting: what) {
            case .event(.message(let bytes)):
                messages.append(LinkMessage(direction: .received, bytes: bytes, time: Date()))
            case .event(.ended), .event(.disconnected):
                return .session(outcome)
            case .failed(let error):
                await finish(sending: nil)
                return .link(error)
            case .cancelled:
                await finish(sending: nil)
                return .link(LinkError(.cancelled, "the session was cancelled while waiting for \(what)"))
            }
        }
    }

    /// Ends the link as a lost connection does, with neither a status nor State 0x02, and says
    /// the session ended with `outcome`.
    func drop(_ outcome: SessionOutcome) -> LiveSessionEnd {
        transport.close()
        return .session(outcome)
    }

    /// Ends the session as ``finish(sending:)`` does, and says it ended with `outcome`.
    func end(sending status: [UInt8]?, _ outcome: SessionOutcome) async -> LiveSessionEnd {
        await finish(sending: status)
        return .session(outcome)
    }

    private static func wait(_ event: Result<MdocTransportEvent, BLEError>, awaiting what: String) -> Wait {
        switch event {
        case .success(let event):
            return .event(event)
        case .failure(let error):
            return .failed(SessionLink.linkError(error, "while waiting for \(what)", receiving: true))
        }
    }
}
