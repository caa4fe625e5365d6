/// Runs a ``GATTServer`` over an ATT bearer: a single reader task passes each PDU from the
/// client to the server, sends the responses and queues the events (Bluetooth Core Vol 3
/// Part F 3.3, Part G 4).
public actor GATTServerConnection {
    /// The most events held until ``nextEvent()`` takes them: with a 512-octet value per write,
    /// 4096 writes are 2 MiB, more than any 18013-5 message a reader sends. More is a
    /// `queueOverflow` error rather than a silent loss.
    public static let maximumQueuedEvents = 4096

    private var server: GATTServer
    private let bearer: any ATTBearer
    private var events = AsyncEventQueue<GATTServerEvent>(limit: GATTServerConnection.maximumQueuedEvents,
                                                          itemName: "GATT server events")

    /// Starts serving `server` on `bearer`.
    public init(server: GATTServer, bearer: any ATTBearer) {
        self.server = server
        self.bearer = bearer
        Task { [weak self, bearer] in
            while true {
                let received: Result<[UInt8]?, BLEError>
                do throws(BLEError) {
                    received = .success(try await bearer.receive())
                } catch {
                    received = .failure(error)
                }
                guard let connection = self, await connection.process(received) else { return }
            }
        }
    }

    /// The effective ATT_MTU (Core Vol 3 Part F 3.4.2).
    public var mtu: Int { server.mtu }

    /// Whether the client enabled notifications of the characteristic `uuid`
    /// (Core Vol 3 Part G 3.3.3.3).
    public func isSubscribed(_ uuid: BluetoothUUID) -> Bool {
        server.isSubscribed(uuid)
    }

    /// The current value of the characteristic `uuid`.
    public func value(of uuid: BluetoothUUID) -> [UInt8]? {
        server.value(of: uuid)
    }

    /// The next thing the client did; nil once the link closed and earlier events were taken.
    /// Throws `queueOverflow` when the events were not taken in time, or the error that ended
    /// the link.
    public func nextEvent() async throws(BLEError) -> GATTServerEvent? {
        if let ready = events.next() { return try ready.get() }
        return try await withCheckedContinuation { events.wait($0) }.get()
    }

    /// Sends a Handle Value Notification of `value` on `characteristic` (Core Vol 3 Part G
    /// 4.10.1). Throws `notSubscribed` unless the client enabled notifications, `pduTooLarge`
    /// when `value` exceeds ATT_MTU − 3, and the bearer's errors.
    public func notify(_ characteristic: BluetoothUUID, value: [UInt8]) async throws(BLEError) {
        let pdu = try server.notification(of: characteristic, value: value)
        try await bearer.send(pdu)
    }

    /// Closes the link; ``nextEvent()`` returns nil after the queued events.
    public nonisolated func close() {
        bearer.close()
    }

    /// Handles one receive result; false when the reader task must stop.
    private func process(_ received: Result<[UInt8]?, BLEError>) async -> Bool {
        switch received {
        case .failure(let error):
            events.fail(error)
            return false
        case .success(nil):
            events.finish()
            return false
        case .success(let pdu?):
            // ATT_MTU is the largest PDU either side may send (Core Vol 3 Part F 3.2.8). A longer
            // one is a broken peer; a Write Command in it would otherwise be dropped without a
            // word (commands get no error response, 3.4.5.3), and its data silently lost.
            guard pdu.count <= server.mtu else {
                events.fail(BLEError(
                    .pduTooLarge, "the GATT client sent a PDU of \(pdu.count) bytes, above ATT_MTU \(server.mtu); the link is closed"))
                bearer.close()
                return false
            }
            let output = server.receive(pdu)
            for event in output.events { events.enqueue(event) }
            for response in output.responses {
                do {
                    try await bearer.send(response)
                } catch {
                    if error.code == .linkClosed { events.finish() } else { events.fail(error) }
                    bearer.close()
                    return false
                }
            }
            return true
        }
    }
}
