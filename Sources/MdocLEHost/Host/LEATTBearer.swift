import MdocBLE
import NIOCore

/// The ATT channel (L2CAP CID 0x0004) of one LE link of an ``LEHost``: the bearer a GATT
/// server or client runs over (Bluetooth Core Vol 3 Part F 3.2.11). It lives on the host's event
/// loop: the host hands it each PDU as its frame is reassembled.
///
/// Closing it ends the LE link (Disconnect): 18013-5 uses nothing else on it.
final class LEATTBearer: ATTBearer {
    /// The most received PDUs held until a consumer attaches. The GATT layer takes every PDU as
    /// it arrives into its own bounded queues, so a backlog here means a peer flooding a link
    /// nobody serves; the link is then ended with `queueOverflow`.
    static let receiveQueueLimit = 1024

    private struct State {
        var held = CircularBuffer<[UInt8]>()
        var consumer: ATTBearerConsumer?
        var isClosed = false
        /// How the link ended, once it did; given to the consumer after the PDUs held.
        var end: Result<Void, BLEError>?
        var hasDeliveredEnd = false
    }

    /// The largest ATT PDU on LE, ATT_MTU 517 (Core Vol 3 Part F 3.2.8, 3.2.9).
    let maximumPDUSize = GATTServer.serverReceiveMTU
    /// The link's connection handle.
    let handle: UInt16
    /// The peer's address.
    let peer: BluetoothAddress
    private let host: LEHost
    private let state: NIOLoopBoundBox<State>

    /// The bearer of link `handle` to `peer`; made by `host`, on its event loop.
    init(host: LEHost, handle: UInt16, peer: BluetoothAddress) {
        self.host = host
        self.handle = handle
        self.peer = peer
        state = NIOLoopBoundBox(State(), eventLoop: host.eventLoop)
    }

    /// The host's event loop.
    var eventLoop: any EventLoop { host.eventLoop }

    func send(_ pdus: [[UInt8]]) -> EventLoopFuture<Void> {
        if let refused = checkOutgoing(pdus, link: "the LE link to \(peer)") { return eventLoop.makeFailedFuture(refused) }
        let (host, handle, peer, state) = (host, handle, peer, state)
        let send: @Sendable () -> EventLoopFuture<Void> = {
            guard !state.value.isClosed, state.value.end == nil else {
                return host.eventLoop.makeFailedFuture(BLEError(.linkClosed, "the LE link to \(peer) is closed"))
            }
            return host.assumeIsolated { $0.send(pdus, channelID: L2CAPChannelID.attributeProtocol, on: handle) }
        }
        return eventLoop.inEventLoop ? send() : eventLoop.flatSubmit(send)
    }

    func attach(_ consumer: ATTBearerConsumer) {
        precondition(state.value.consumer == nil, "a link has one consumer")
        while let pdu = state.value.held.popFirst() { consumer.received(pdu) }
        state.value.consumer = consumer
        deliverEnd()
    }

    /// Ends the LE link; the consumer sees it end. Idempotent.
    func close() {
        let (host, handle) = (host, handle)
        eventLoop.execute { [self] in
            guard !state.value.isClosed else { return }
            state.value.isClosed = true
            state.value.held.removeAll()
            if state.value.end == nil { state.value.end = .success(()) }
            deliverEnd()
            host.assumeIsolated { _ = $0.disconnect(handle) }
        }
    }

    /// Hands a PDU from the peer to the consumer, or holds it; false when
    /// ``receiveQueueLimit`` PDUs wait. Called by the host.
    func deliver(_ pdu: [UInt8]) -> Bool {
        guard !state.value.isClosed, state.value.end == nil else { return true }
        if let consumer = state.value.consumer {
            consumer.received(pdu)
            return true
        }
        guard state.value.held.count < Self.receiveQueueLimit else { return false }
        state.value.held.append(pdu)
        return true
    }

    /// The link ended: the consumer gets the PDUs held, then `end`. Called by the host.
    func finish(_ end: Result<Void, BLEError>) {
        guard state.value.end == nil else { return }
        state.value.end = end
        deliverEnd()
    }

    private func deliverEnd() {
        guard let consumer = state.value.consumer, let end = state.value.end, !state.value.hasDeliveredEnd else { return }
        state.value.hasDeliveredEnd = true
        consumer.ended(end)
    }
}
