@testable import MdocBLE
import Synchronization

/// Test double of an ATT bearer: one end of an in-memory link. PDUs arrive at the peer in order,
/// one per `receive()`; PDUs above `maximumPDUSize` are refused; closing either end ends both
/// (the peer's `receive()` returns nil once it drained what was sent before).
final class LoopbackBearer: ATTBearer {
    private struct State {
        var inbox: [[UInt8]] = []
        var waiter: CheckedContinuation<[UInt8]?, Never>?
        var closed = false
        var sent: [[UInt8]] = []
    }

    let maximumPDUSize: Int
    private let state = Mutex(State())
    /// The other end, set once by `LoopbackBearerPair`.
    private let peerBox = Mutex<LoopbackBearer?>(nil)

    init(maximumPDUSize: Int) {
        self.maximumPDUSize = maximumPDUSize
    }

    fileprivate func connect(to peer: LoopbackBearer) {
        peerBox.withLock { $0 = peer }
    }

    /// Every PDU this end sent, in order.
    var sentPDUs: [[UInt8]] { state.withLock { $0.sent } }

    func send(_ pdu: [UInt8]) async throws(BLEError) {
        guard pdu.count <= maximumPDUSize else {
            throw BLEError(.pduTooLarge, "loopback PDU of \(pdu.count) bytes exceeds \(maximumPDUSize)")
        }
        let isClosed = state.withLock { state in
            if !state.closed { state.sent.append(pdu) }
            return state.closed
        }
        guard !isClosed, let peer = peerBox.withLock({ $0 }) else {
            throw BLEError(.linkClosed, "loopback link closed")
        }
        peer.deliver(pdu)
    }

    private func deliver(_ pdu: [UInt8]) {
        let waiter = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
            guard !state.closed else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.inbox.append(pdu)
            return nil
        }
        waiter?.resume(returning: pdu)
    }

    func receive() async throws(BLEError) -> [UInt8]? {
        await withCheckedContinuation { continuation in
            let ready: [UInt8]?? = state.withLock { state in
                if !state.inbox.isEmpty { return .some(state.inbox.removeFirst()) }
                if state.closed { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func close() {
        closeLocally()
        peerBox.withLock { $0 }?.closeLocally()
    }

    private func closeLocally() {
        let waiter = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.inbox.isEmpty ? state.waiter : nil
        }
        waiter?.resume(returning: nil)
    }
}

/// Two connected ``LoopbackBearer`` ends: what `central` sends, `peripheral` receives and back.
struct LoopbackBearerPair {
    let central: LoopbackBearer
    let peripheral: LoopbackBearer

    init(maximumPDUSize: Int = 517) {
        central = LoopbackBearer(maximumPDUSize: maximumPDUSize)
        peripheral = LoopbackBearer(maximumPDUSize: maximumPDUSize)
        central.connect(to: peripheral)
        peripheral.connect(to: central)
    }
}
