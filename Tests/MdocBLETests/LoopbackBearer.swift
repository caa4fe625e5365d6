@testable import MdocBLE
import NIOCore
import NIOPosix

/// Test double of an ATT bearer: one end of an in-memory link on an event loop. PDUs arrive at
/// the peer in order; PDUs above `maximumPDUSize` are refused; closing either end ends both
/// (the peer's consumer sees the end after what was sent before). A test plays the raw peer
/// with ``receive()``, which takes what arrives while no consumer is attached.
final class LoopbackBearer: ATTBearer {
    private struct State {
        /// What arrived and nobody took yet.
        let inbox: ReceiveQueue<[UInt8]>
        var consumer: ATTBearerConsumer?
        var isClosed = false
        var sent: [[UInt8]] = []
    }

    let eventLoop: any EventLoop
    let maximumPDUSize: Int
    private let state: NIOLoopBoundBox<State>
    /// The other end, set once by `LoopbackBearerPair` before either is used.
    nonisolated(unsafe) fileprivate var peer: LoopbackBearer?

    init(eventLoop: any EventLoop, maximumPDUSize: Int) {
        self.eventLoop = eventLoop
        self.maximumPDUSize = maximumPDUSize
        state = .makeBoxSendingValue(State(inbox: ReceiveQueue(on: eventLoop, limit: 1 << 16, itemName: "PDUs")),
                                     eventLoop: eventLoop)
    }

    /// Every PDU this end sent, in order.
    var sentPDUs: [[UInt8]] {
        get async { try! await eventLoop.submit { [state] in state.value.sent }.get() }
    }

    func send(_ pdus: [[UInt8]]) -> EventLoopFuture<Void> {
        if let refused = checkOutgoing(pdus, link: "the loopback link") { return eventLoop.makeFailedFuture(refused) }
        return eventLoop.submit { [state, peer] in
            guard !state.value.isClosed, let peer else { throw BLEError(.linkClosed, "loopback link closed") }
            state.value.sent += pdus
            for pdu in pdus { peer.deliver(pdu) }
        }
    }

    private func deliver(_ pdu: [UInt8]) {
        guard !state.value.isClosed else { return }
        if let consumer = state.value.consumer {
            consumer.received(pdu)
        } else {
            state.value.inbox.append(pdu)
        }
    }

    func attach(_ consumer: ATTBearerConsumer) {
        while let ready = state.value.inbox.take() {
            guard case .success(let pdu?) = ready else {
                consumer.ended(.success(()))
                return
            }
            consumer.received(pdu)
        }
        state.value.consumer = consumer
    }

    /// The next PDU that arrived while no consumer is attached; nil once the link closed.
    func receive() async throws -> [UInt8]? {
        try await eventLoop.flatSubmit { [state] in state.value.inbox.next() }.get()
    }

    func close() {
        eventLoop.execute { [self] in
            closeLocally()
            peer?.closeLocally()
        }
    }

    private func closeLocally() {
        guard !state.value.isClosed else { return }
        state.value.isClosed = true
        state.value.inbox.finish()
        if let consumer = state.value.consumer {
            state.value.consumer = nil
            consumer.ended(.success(()))
        }
    }
}

/// Two connected ``LoopbackBearer`` ends on one event loop: what `central` sends, `peripheral`
/// receives and back.
struct LoopbackBearerPair {
    let central: LoopbackBearer
    let peripheral: LoopbackBearer

    init(maximumPDUSize: Int = 517) {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        central = LoopbackBearer(eventLoop: eventLoop, maximumPDUSize: maximumPDUSize)
        peripheral = LoopbackBearer(eventLoop: eventLoop, maximumPDUSize: maximumPDUSize)
        central.peer = peripheral
        peripheral.peer = central
    }
}
