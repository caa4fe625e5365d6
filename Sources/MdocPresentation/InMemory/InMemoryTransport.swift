import MdocBLE
import NIOConcurrencyHelpers

/// One end of an ISO/IEC 18013-5 link held in memory, for sessions in one process: what one end
/// sends the other receives, cut into chunks and joined again as the BLE service does
/// (8.3.3.1.1.6, `MessageReassembler` limits included), State 0x02 from ``end()`` arrives as
/// `.ended` (8.3.3.1.1.5), and ``close()`` as `.disconnected`.
///
/// ``pair(mode:mtu:)`` makes the two ends; ``InMemoryRadio`` makes them when a holder and a
/// reader meet on a service UUID.
public final class InMemoryTransport: MdocTransport {
    /// The most received events held until ``receive()`` takes them, as for the GATT transports
    /// (`MdocGATTServerTransport.maximumQueuedEvents`); beyond it the peer is flooding.
    public static let maximumQueuedEvents = MdocGATTServerTransport.maximumQueuedEvents

    /// The 18013-5 BLE mode the link stands for.
    public let mode: MdocBLEMode?
    private let linkMTU: Int
    private let state: NIOLockedValueBox<State>
    private let peer: NIOLockedValueBox<InMemoryTransport?> = NIOLockedValueBox(nil)

    private struct State: Sendable {
        var events: [Result<MdocTransportEvent, BLEError>] = []
        var waiter: CheckedContinuation<Result<MdocTransportEvent, BLEError>, Never>?
        var isClosed = false
        var reassembler: MessageReassembler
    }

    private init(mode: MdocBLEMode, mtu: Int) {
        self.mode = mode
        self.linkMTU = mtu
        self.state = NIOLockedValueBox(State(reassembler: MessageReassembler(mtu: mtu)))
    }

    /// Two connected ends of a link in `mode` with ATT_MTU `mtu` (517, the most an LE link
    /// negotiates, unless given).
    public static func pair(mode: MdocBLEMode, mtu: Int = 517) -> (InMemoryTransport, InMemoryTransport) {
        let first = InMemoryTransport(mode: mode, mtu: mtu)
        let second = InMemoryTransport(mode: mode, mtu: mtu)
        first.peer.withLockedValue { $0 = second }
        second.peer.withLockedValue { $0 = first }
        return (first, second)
    }

    /// The ATT_MTU of the link.
    public var mtu: Int {
        get async { linkMTU }
    }

    /// The inactivity bounds of this end, told of each chunk from the other end.
    public let inactivity = InactivityWatch()

    /// Sends `message` to the other end, in the chunks of `MessageChunker`. Throws `linkClosed`
    /// once either end closed the link.
    public func send(_ message: [UInt8]) async throws(BLEError) {
        guard !state.withLockedValue({ $0.isClosed }), let peer = peer.withLockedValue({ $0 }) else {
            throw BLEError(.linkClosed, "the link is closed")
        }
        for chunk in MessageChunker.chunks(of: message, mtu: linkMTU) {
            guard peer.takeChunk(chunk) else {
                throw BLEError(.linkClosed, "the peer closed the link")
            }
        }
    }

    /// The next message, `.ended` for the other end's State 0x02, `.disconnected` once the link
    /// closed. Throws the reassembly errors (the link is then closed) and `queueOverflow`.
    public func receive() async throws(BLEError) -> MdocTransportEvent {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<MdocTransportEvent, BLEError>, Never>) in
            let ready: Result<MdocTransportEvent, BLEError>? = state.withLockedValue { state in
                if !state.events.isEmpty { return state.events.removeFirst() }
                if state.isClosed { return .success(.disconnected) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try result.get()
    }

    /// Sends `chunks` to the other end as they are, for tests of a peer that chunks as it
    /// pleases: each has arrived when this returns. Throws `linkClosed` once either end closed the
    /// link.
    func send(chunks: [[UInt8]]) throws(BLEError) {
        guard !state.withLockedValue({ $0.isClosed }), let peer = peer.withLockedValue({ $0 }) else {
            throw BLEError(.linkClosed, "the link is closed")
        }
        for chunk in chunks {
            guard peer.takeChunk(chunk) else {
                throw BLEError(.linkClosed, "the peer closed the link")
            }
        }
    }

    /// Whether this end is closed: by ``close()`` or ``end()`` on either end, or by a reassembly
    /// failure.
    var isClosed: Bool {
        state.withLockedValue { $0.isClosed }
    }

    /// Whether a ``receive()`` waits for the next event, for tests of what wakes it.
    var isWaitingToReceive: Bool {
        state.withLockedValue { $0.waiter != nil }
    }

    /// Sends State 0x02 to the other end, then closes the link.
    public func end() async {
        if !state.withLockedValue({ $0.isClosed }), let peer = peer.withLockedValue({ $0 }) {
            peer.deliver(.success(.ended))
        }
        close()
    }

    /// Closes the link without State 0x02: both ends then receive `.disconnected`.
    public func close() {
        let peer = peer.withLockedValue { peer in
            defer { peer = nil }
            return peer
        }
        shut()
        peer?.shut()
    }

    /// Takes one chunk from the other end; false when this end is closed.
    private func takeChunk(_ chunk: [UInt8]) -> Bool {
        let outcome: Result<[UInt8]?, BLEError>? = state.withLockedValue { state in
            guard !state.isClosed else { return nil }
            do throws(BLEError) {
                return .success(try state.reassembler.append(chunk))
            } catch {
                return .failure(error)
            }
        }
        if outcome != nil { inactivity.chunkArrived() }
        switch outcome {
        case nil:
            return false
        case .success(nil)?:
            return true
        case .success(let message?)?:
            deliver(.success(.message(message)))
            return true
        case .failure(let error)?:
            deliver(.failure(error))
            close()
            return false
        }
    }

    /// Queues `event` for ``receive()``, or fails the link with `queueOverflow` when the queue
    /// is full.
    private func deliver(_ event: Result<MdocTransportEvent, BLEError>) {
        enum Delivery {
            case none
            case resume(CheckedContinuation<Result<MdocTransportEvent, BLEError>, Never>)
            case overflow
        }
        let delivery: Delivery = state.withLockedValue { state in
            guard !state.isClosed else { return .none }
            if let waiter = state.waiter {
                state.waiter = nil
                return .resume(waiter)
            }
            guard state.events.count < Self.maximumQueuedEvents else {
                state.events.append(.failure(BLEError(
                    .queueOverflow, "more than \(Self.maximumQueuedEvents) messages arrived that were not taken")))
                return .overflow
            }
            state.events.append(event)
            return .none
        }
        switch delivery {
        case .none: break
        case .resume(let continuation): continuation.resume(returning: event)
        case .overflow: close()
        }
    }

    /// Marks this end closed; a waiting ``receive()`` gets what is queued, then `.disconnected`.
    private func shut() {
        let waiter = state.withLockedValue { state in
            state.isClosed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .success(.disconnected))
    }
}
