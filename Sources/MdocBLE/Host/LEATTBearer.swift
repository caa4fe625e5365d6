import Synchronization

/// The ATT channel (L2CAP CID 0x0004) of one LE link of an ``LEHost``: the bearer a GATT
/// server or client runs over (Bluetooth Core Vol 3 Part F 3.2.11).
///
/// Closing it ends the LE link (Disconnect): 18013-5 uses nothing else on it.
final class LEATTBearer: ATTBearer {
    /// The most received PDUs held until ``receive()`` takes them. The GATT layer takes every
    /// PDU at once into its own bounded queues, so a backlog here means a peer flooding a
    /// stalled consumer; the link is then ended with `queueOverflow`.
    static let receiveQueueLimit = 1024

    private struct State: Sendable {
        var inbox: [[UInt8]] = []
        var receiver: CheckedContinuation<Result<[UInt8]?, BLEError>, Never>?
        var isClosed = false
        var end: Result<Void, BLEError>?
    }

    /// The largest ATT PDU on LE, ATT_MTU 517 (Core Vol 3 Part F 3.2.8, 3.2.9).
    let maximumPDUSize = GATTServer.serverReceiveMTU
    /// The link's connection handle.
    let handle: UInt16
    /// The peer's address.
    let peer: BluetoothAddress
    private let host: LEHost
    private let state = Mutex(State())

    init(host: LEHost, handle: UInt16, peer: BluetoothAddress) {
        self.host = host
        self.handle = handle
        self.peer = peer
    }

    func send(_ pdu: [UInt8]) async throws(BLEError) {
        guard !pdu.isEmpty else {
            throw BLEError(.malformedPDU, "an empty PDU cannot be sent: every ATT PDU starts with an opcode")
        }
        guard pdu.count <= maximumPDUSize else {
            throw BLEError(.pduTooLarge, "a PDU of \(pdu.count) bytes exceeds the LE maximum of \(maximumPDUSize)")
        }
        if let refused = state.withLock({ $0.isClosed || $0.end != nil }) ? BLEError(.linkClosed, "the LE link to \(peer) is closed") : nil {
            throw refused
        }
        try await host.send(pdu, channelID: L2CAPChannelID.attributeProtocol, on: handle)
    }

    func receive() async throws(BLEError) -> [UInt8]? {
        let result = await withCheckedContinuation { (receiver: CheckedContinuation<Result<[UInt8]?, BLEError>, Never>) in
            let ready = state.withLock { state -> Result<[UInt8]?, BLEError>? in
                if state.isClosed { return .success(nil) }
                if !state.inbox.isEmpty { return .success(state.inbox.removeFirst()) }
                if let end = state.end { return end.map { nil } }
                state.receiver = receiver
                return nil
            }
            if let ready { receiver.resume(returning: ready) }
        }
        return try result.get()
    }

    /// Ends the LE link; a pending ``receive()`` returns nil. Idempotent.
    func close() {
        let receiver = state.withLock { state -> CheckedContinuation<Result<[UInt8]?, BLEError>, Never>? in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            state.inbox = []
            defer { state.receiver = nil }
            return state.receiver
        }
        receiver?.resume(returning: .success(nil))
        Task { [host, handle] in await host.disconnect(handle) }
    }

    /// Hands a PDU from the peer to the receiver; false when ``receiveQueueLimit`` PDUs wait.
    func deliver(_ pdu: [UInt8]) -> Bool {
        let (receiver, accepted) = state.withLock { state -> (CheckedContinuation<Result<[UInt8]?, BLEError>, Never>?, Bool) in
            guard !state.isClosed, state.end == nil else { return (nil, true) }
            if let receiver = state.receiver {
                state.receiver = nil
                return (receiver, true)
            }
            guard state.inbox.count < Self.receiveQueueLimit else { return (nil, false) }
            state.inbox.append(pdu)
            return (nil, true)
        }
        receiver?.resume(returning: .success(pdu))
        return accepted
    }

    /// The link ended: the receiver gets the PDUs held, then nil (or the error).
    func finish(_ end: Result<Void, BLEError>) {
        let receiver = state.withLock { state -> CheckedContinuation<Result<[UInt8]?, BLEError>, Never>? in
            guard state.end == nil else { return nil }
            state.end = end
            guard state.inbox.isEmpty else { return nil }
            defer { state.receiver = nil }
            return state.receiver
        }
        receiver?.resume(returning: end.map { nil })
    }
}
