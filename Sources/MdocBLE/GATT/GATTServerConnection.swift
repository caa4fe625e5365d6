import NIOCore

/// Runs a ``GATTServer`` over an ATT bearer (Bluetooth Core Vol 3 Part F 3.3, Part G 4): on the
/// bearer's event loop, each PDU from the client goes to the server as it arrives, the
/// responses go back, and what the client did waits for ``nextEvent()``.
public actor GATTServerConnection {
    /// The most events held until ``nextEvent()`` takes them: with a 512-octet value per write,
    /// 4096 writes are 2 MiB, more than any 18013-5 message a reader sends. More is a
    /// `queueOverflow` error rather than a silent loss.
    public static let maximumQueuedEvents = 4096

    private var server: GATTServer
    /// The bearer under the server.
    nonisolated let bearer: any ATTBearer
    private let events: ReceiveQueue<GATTServerEvent>
    /// Where events go instead of ``events``, once set.
    private var eventConsumer: (@Sendable (Result<GATTServerEvent?, BLEError>) -> Void)?
    private var hasEnded = false

    /// The bearer's event loop runs the connection.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        bearer.eventLoop.executor.asUnownedSerialExecutor()
    }

    /// Starts serving `server` on `bearer`.
    public init(server: GATTServer, bearer: any ATTBearer) {
        self.server = server
        self.bearer = bearer
        events = ReceiveQueue(on: bearer.eventLoop, limit: Self.maximumQueuedEvents, itemName: "GATT server events")
        bearer.eventLoop.execute { [weak self] in
            self?.assumeIsolated { $0.attach() }
        }
    }

    deinit {
        bearer.close()
    }

    private func attach() {
        bearer.attach(ATTBearerConsumer(
            received: { [weak self] pdu in self?.assumeIsolated { $0.process(pdu) } },
            ended: { [weak self] end in self?.assumeIsolated { $0.end(end) } }))
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
        try await events.next().bleValue()
    }

    /// From now on hands every event to `consumer` as it happens, those held first, then nil once
    /// the link closed or the error that ended it; for a transport that runs on the same event
    /// loop.
    package func deliverEvents(to consumer: @escaping @Sendable (Result<GATTServerEvent?, BLEError>) -> Void) {
        while let ready = events.take() {
            consumer(ready)
            if case .success(.some) = ready { continue }
            return
        }
        eventConsumer = consumer
    }

    /// Sends a Handle Value Notification of `value` on `characteristic` (Core Vol 3 Part G
    /// 4.10.1). Throws `notSubscribed` unless the client enabled notifications, `pduTooLarge`
    /// when `value` exceeds ATT_MTU − 3, and the bearer's errors.
    public func notify(_ characteristic: BluetoothUUID, value: [UInt8]) async throws(BLEError) {
        try await notify(characteristic, values: [value])
    }

    /// Sends notifications of `values` on `characteristic`, in order and with no other PDU of
    /// this server between them (the chunks of one message, ISO/IEC 18013-5 8.3.3.1.1.6); the
    /// errors of ``notify(_:value:)``, checked for every value before any is sent.
    public func notify(_ characteristic: BluetoothUUID, values: [[UInt8]]) async throws(BLEError) {
        var pdus: [[UInt8]] = []
        pdus.reserveCapacity(values.count)
        for value in values { pdus.append(try server.notification(of: characteristic, value: value)) }
        try await bearer.send(pdus).bleValue()
    }

    /// Closes the link; ``nextEvent()`` returns nil after the queued events.
    public nonisolated func close() {
        bearer.close()
    }

    /// Handles one PDU from the client.
    private func process(_ pdu: [UInt8]) {
        guard !hasEnded else { return }
        // ATT_MTU is the largest PDU either side may send (Core Vol 3 Part F 3.2.8). A longer
        // one is a broken peer; a Write Command in it would otherwise be dropped without a
        // word (commands get no error response, 3.4.5.3), and its data silently lost.
        guard pdu.count <= server.mtu else {
            end(.failure(BLEError(
                .pduTooLarge, "the GATT client sent a PDU of \(pdu.count) bytes, above ATT_MTU \(server.mtu); the link is closed")))
            return
        }
        let output = server.receive(pdu)
        if !output.responses.isEmpty {
            bearer.send(output.responses).whenFailure { [weak self] error in
                self?.assumeIsolated { $0.end(.failure(error as? BLEError ?? BLEError(.linkClosed, "\(error)"))) }
            }
        }
        for event in output.events { deliver(.success(event)) }
    }

    /// The link ended: success when either side closed it. A `linkClosed` failure is an end.
    private func end(_ end: Result<Void, BLEError>) {
        guard !hasEnded else { return }
        hasEnded = true
        switch end {
        case .success: deliver(.success(nil))
        case .failure(let error) where error.code == .linkClosed: deliver(.success(nil))
        case .failure(let error): deliver(.failure(error))
        }
        bearer.close()
    }

    private func deliver(_ event: Result<GATTServerEvent?, BLEError>) {
        if let eventConsumer { return eventConsumer(event) }
        switch event {
        case .success(let event?): events.append(event)
        case .success(nil): events.finish()
        case .failure(let error): events.fail(error)
        }
    }
}
