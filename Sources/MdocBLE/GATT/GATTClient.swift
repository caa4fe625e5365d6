import NIOCore

/// A GATT client over an ATT bearer (Bluetooth Core Vol 3 Part G 4, Part F 3.3).
///
/// The client runs on the bearer's event loop, which takes every PDU to it as it arrives:
/// responses complete the outstanding request, notifications and indications (confirmed) wait
/// for ``nextNotification()``, requests from the peer are answered "Request Not Supported" (this
/// client hosts no attributes). One request is outstanding at a time (Part F 3.3.2): later ones
/// wait their turn, in order. A request not answered within the transaction timeout ends the
/// bearer (Part F 3.3.3).
public actor GATTClient {
    /// The ATT transaction timeout (Core Vol 3 Part F 3.3.3).
    public static let transactionTimeout: Duration = .seconds(30)
    /// The most notifications held until ``nextNotification()`` takes them: with a 512-octet
    /// value each, 4096 are 2 MiB, more than any 18013-5 message. More is a `queueOverflow`
    /// error rather than a silent loss.
    public static let maximumQueuedNotifications = 4096

    /// A notification or indication: the characteristic's value handle and its value.
    public typealias Notification = (handle: UInt16, value: [UInt8])

    /// The transaction timeout this client applies.
    public nonisolated let transactionTimeout: Duration
    /// The effective ATT_MTU: 23 until ``exchangeMTU(_:)`` (Core Vol 3 Part F 3.2.8, 3.4.2).
    public private(set) var mtu = GATTServer.defaultMTU

    /// The bearer under the client.
    nonisolated let bearer: any ATTBearer
    private let notifications: ReceiveQueue<Notification>
    /// Where notifications go instead of ``notifications``, once set.
    private var notificationConsumer: (@Sendable (Result<Notification?, BLEError>) -> Void)?
    private var hasExchangedMTU = false
    /// Set when the bearer ended; every later request fails with it.
    private var linkFailure: BLEError?

    /// A request sent and not yet answered.
    private struct Transaction {
        let id: Int
        let request: ATTOpcode
        let promise: EventLoopPromise<ATTPDU>
        let timer: Scheduled<Void>
    }
    private var transaction: Transaction?
    /// Requests waiting for the outstanding one to be answered.
    private var waiting = CircularBuffer<(request: ATTPDU, promise: EventLoopPromise<ATTPDU>)>()
    private var lastTransactionID = 0

    /// The bearer's event loop runs the client.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        bearer.eventLoop.executor.asUnownedSerialExecutor()
    }

    /// A client on `bearer`, timing out requests after `transactionTimeout` (tests shorten it).
    public init(bearer: any ATTBearer, transactionTimeout: Duration = GATTClient.transactionTimeout) {
        self.bearer = bearer
        self.transactionTimeout = transactionTimeout
        notifications = ReceiveQueue(on: bearer.eventLoop, limit: Self.maximumQueuedNotifications, itemName: "notifications")
        bearer.eventLoop.execute { [weak self] in
            self?.assumeIsolated { $0.attach() }
        }
    }

    deinit {
        bearer.close()
    }

    private func attach() {
        bearer.attach(ATTBearerConsumer(
            received: { [weak self] pdu in self?.assumeIsolated { $0.handle(pdu) } },
            ended: { [weak self] end in self?.assumeIsolated { $0.linkEnded(end) } }))
    }

    /// Closes the link; outstanding and later requests fail with `linkClosed`.
    public nonisolated func close() {
        bearer.close()
    }

    /// The next Handle Value Notification or Indication as (value handle, value); nil once the
    /// link closed and earlier notifications were taken. Throws `queueOverflow` when they were
    /// not taken in time, or the error that ended the link.
    public func nextNotification() async throws(BLEError) -> Notification? {
        try await notifications.next().bleValue()
    }

    /// From now on hands every notification and indication to `consumer` as it arrives, those
    /// held first, then nil once the link closed or the error that ended it; for a transport that
    /// runs on the same event loop.
    package func deliverNotifications(to consumer: @escaping @Sendable (Result<Notification?, BLEError>) -> Void) {
        while let ready = notifications.take() {
            consumer(ready)
            if case .success(.some) = ready { continue }
            return
        }
        notificationConsumer = consumer
    }

    /// Exchange MTU (Core Vol 3 Part F 3.4.2, Part G 4.3.1): offers `mtu` (clamped to
    /// 23…the bearer's maximum PDU size) and returns the effective ATT_MTU,
    /// max(23, min(offer, Server Rx MTU)). Allowed once per connection.
    public func exchangeMTU(_ mtu: Int) async throws(BLEError) -> Int {
        guard !hasExchangedMTU else {
            throw BLEError(.protocolViolation, "Exchange MTU is sent only once per connection (Core Vol 3 Part F 3.4.2.1)")
        }
        hasExchangedMTU = true
        let offer = max(GATTServer.defaultMTU, min(mtu, bearer.maximumPDUSize, Int(UInt16.max)))
        let response = try await transact(.exchangeMTURequest(clientRxMTU: UInt16(offer)))
        guard case .exchangeMTUResponse(let serverRxMTU) = response else {
            throw unexpected(response, for: .exchangeMTURequest)
        }
        let server = Int(serverRxMTU)
        self.mtu = server < GATTServer.defaultMTU ? GATTServer.defaultMTU : min(offer, server)
        return self.mtu
    }

    /// Read Characteristic Value and Read Long Characteristic Values (Core Vol 3 Part G 4.8.1,
    /// 4.8.3): a Read Request, then Read Blob Requests while the parts fill ATT_MTU − 1, up to
    /// 512 octets (Part F 3.2.9).
    public func read(_ characteristic: GATTRemoteCharacteristic) async throws(BLEError) -> [UInt8] {
        let handle = characteristic.valueHandle
        let first = try await transact(.readRequest(attributeHandle: handle))
        guard case .readResponse(var value) = first else { throw unexpected(first, for: .readRequest) }
        var part = value
        while part.count >= mtu - 1, value.count < GATTServer.maximumAttributeValueLength {
            let response: ATTPDU
            do {
                response = try await transact(.readBlobRequest(attributeHandle: handle, valueOffset: UInt16(value.count)))
            } catch where error.attErrorCode == .attributeNotLong || error.attErrorCode == .invalidOffset {
                break
            }
            guard case .readBlobResponse(let next) = response else { throw unexpected(response, for: .readBlobRequest) }
            part = next
            value += part
        }
        guard value.count <= GATTServer.maximumAttributeValueLength else {
            throw BLEError(.protocolViolation,
                           "the value of \(characteristic.uuid) at handle \(handle) is \(value.count) bytes, above the 512-byte maximum (Core Vol 3 Part F 3.2.9)")
        }
        return value
    }

    /// Write Characteristic Value (Core Vol 3 Part G 4.9.3): a Write Request of at most
    /// ATT_MTU − 3 octets, answered by a Write Response.
    public func write(_ value: [UInt8], to characteristic: GATTRemoteCharacteristic) async throws(BLEError) {
        try await write(value, handle: characteristic.valueHandle, name: "\(characteristic.uuid)")
    }

    /// Write Without Response (Core Vol 3 Part G 4.9.1): a Write Command of at most
    /// ATT_MTU − 3 octets; it needs no turn and gets no response.
    public func writeWithoutResponse(_ value: [UInt8], to characteristic: GATTRemoteCharacteristic) async throws(BLEError) {
        try await writeWithoutResponse([value], to: characteristic)
    }

    /// Write Commands of `values`, in order and with no other PDU of this client between them
    /// (the chunks of one message, ISO/IEC 18013-5 8.3.3.1.1.6); each at most ATT_MTU − 3 octets.
    public func writeWithoutResponse(_ values: [[UInt8]], to characteristic: GATTRemoteCharacteristic) async throws(BLEError) {
        for value in values { try checkWriteSize(value, name: "\(characteristic.uuid)") }
        if let linkFailure { throw linkFailure }
        let pdus = values.map { ATTPDU.writeCommand(attributeHandle: characteristic.valueHandle, attributeValue: $0).bytes }
        try await bearer.send(pdus).bleValue()
    }

    /// Enables or disables notifications by writing 0x0001 or 0x0000 to the characteristic's
    /// Client Characteristic Configuration descriptor (Core Vol 3 Part G 4.12.3, 3.3.3.3).
    public func setNotifications(_ on: Bool, for characteristic: GATTRemoteCharacteristic) async throws(BLEError) {
        guard let handle = characteristic.clientCharacteristicConfigurationHandle else {
            throw BLEError(.characteristicNotFound,
                           "characteristic \(characteristic.uuid) has no Client Characteristic Configuration descriptor")
        }
        try await write([on ? 0x01 : 0x00, 0x00], handle: handle, name: "the configuration of \(characteristic.uuid)")
    }

    private func write(_ value: [UInt8], handle: UInt16, name: String) async throws(BLEError) {
        try checkWriteSize(value, name: name)
        let response = try await transact(.writeRequest(attributeHandle: handle, attributeValue: value))
        guard case .writeResponse = response else { throw unexpected(response, for: .writeRequest) }
    }

    private func checkWriteSize(_ value: [UInt8], name: String) throws(BLEError) {
        guard value.count <= mtu - 3 else {
            throw BLEError(.pduTooLarge, "a write of \(value.count) bytes to \(name) exceeds ATT_MTU \(mtu) − 3 = \(mtu - 3)")
        }
    }

    func unexpected(_ response: ATTPDU, for request: ATTOpcode) -> BLEError {
        BLEError(.protocolViolation, "\(response.opcode) does not answer \(request)")
    }

    // MARK: Transactions

    /// Sends `request` when the requests before it were answered and waits for its response; an
    /// Error Response becomes an `attError`.
    func transact(_ request: ATTPDU) async throws(BLEError) -> ATTPDU {
        if let linkFailure { throw linkFailure }
        let promise = bearer.eventLoop.makePromise(of: ATTPDU.self)
        if transaction == nil {
            start(request, promise)
        } else {
            waiting.append((request, promise))
        }
        return try await promise.futureResult.bleValue()
    }

    /// Sends `request` as the outstanding transaction, timed by the transaction timeout.
    private func start(_ request: ATTPDU, _ promise: EventLoopPromise<ATTPDU>) {
        lastTransactionID += 1
        let id = lastTransactionID
        let timer = bearer.eventLoop.scheduleTask(in: TimeAmount(transactionTimeout)) { [weak self] () -> Void in
            self?.assumeIsolated { $0.timedOut(id) }
        }
        transaction = Transaction(id: id, request: request.opcode, promise: promise, timer: timer)
        bearer.send([request.bytes]).whenFailure { [weak self] error in
            self?.assumeIsolated { $0.complete(id: id, .failure(error as? BLEError ?? BLEError(.linkClosed, "\(error)"))) }
        }
    }

    /// Completes the outstanding transaction `id` (or the current one when nil) with `result`,
    /// then sends the next waiting request.
    private func complete(id: Int? = nil, _ result: Result<ATTPDU, BLEError>) {
        guard let current = transaction, id == nil || current.id == id else { return }
        transaction = nil
        current.timer.cancel()
        current.promise.completeWith(result.mapError { $0 as any Error })
        if linkFailure == nil, let next = waiting.popFirst() { start(next.request, next.promise) }
    }

    private func timedOut(_ id: Int) {
        guard let current = transaction, current.id == id else { return }
        fail(BLEError(.timeout,
                      "no response to \(current.request) within \(transactionTimeout) (Core Vol 3 Part F 3.3.3); the bearer is closed"))
    }

    /// Ends the link with `error`: the outstanding, waiting and later requests fail with it.
    private func fail(_ error: BLEError) {
        if linkFailure == nil { linkFailure = error }
        let reason = linkFailure ?? error
        complete(.failure(reason))
        while let next = waiting.popFirst() { next.promise.fail(reason) }
        endNotifications(reason.code == .linkClosed ? nil : reason)
        bearer.close()
    }

    /// No more notifications: the end (`error` nil) or the error, to the consumer or the queue.
    private func endNotifications(_ error: BLEError?) {
        if let notificationConsumer {
            self.notificationConsumer = nil
            notificationConsumer(error.map { .failure($0) } ?? .success(nil))
        } else if let error {
            notifications.fail(error)
        } else {
            notifications.finish()
        }
    }

    private func notified(_ notification: Notification) {
        if let notificationConsumer {
            notificationConsumer(.success(notification))
        } else {
            notifications.append(notification)
        }
    }

    // MARK: Incoming PDUs

    /// The bearer ended: success when either side closed it.
    private func linkEnded(_ end: Result<Void, BLEError>) {
        switch end {
        case .success: fail(BLEError(.linkClosed, "the ATT bearer closed"))
        case .failure(let error): fail(error)
        }
    }

    private func handle(_ bytes: [UInt8]) {
        guard linkFailure == nil else { return }
        guard let first = bytes.first else {
            fail(BLEError(.protocolViolation, "the server sent an empty ATT PDU"))
            return
        }
        let opcode = ATTOpcode(rawValue: first)
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(bytes: bytes)
        } catch {
            handleUndecodable(opcode, error)
            return
        }
        switch pdu {
        case .handleValueNotification(let handle, let value):
            notified((handle, value))
        case .handleValueIndication(let handle, let value):
            notified((handle, value))
            sendToPeer(ATTPDU.handleValueConfirmation.bytes)
        case .errorResponse(let requestOpcode, let handle, let code):
            guard let current = transaction, current.request == requestOpcode else {
                fail(BLEError(.protocolViolation, "the server sent an Error Response for \(requestOpcode), which is not outstanding"))
                return
            }
            complete(.failure(BLEError(attErrorCode: code, "\(requestOpcode) on handle \(handle) failed: \(code)")))
        case .writeCommand, .handleValueConfirmation:
            break
        default:
            if opcode.responseOpcode != nil {
                sendToPeer(ATTPDU.errorResponse(requestOpcode: opcode, handle: 0, error: .requestNotSupported).bytes)
            } else if let current = transaction, current.request.responseOpcode == opcode {
                complete(.success(pdu))
            } else {
                fail(BLEError(.protocolViolation, "the server sent \(opcode), answering no outstanding request"))
            }
        }
    }

    /// A PDU that does not decode: requests and unknown opcodes (without the command flag) are
    /// answered "Request Not Supported"; a malformed response fails the outstanding request; a
    /// malformed notification ends the link (its data would be lost).
    private func handleUndecodable(_ opcode: ATTOpcode, _ error: ATTError) {
        if error.code == .unknownOpcode || opcode.responseOpcode != nil {
            if !opcode.isCommand {
                sendToPeer(ATTPDU.errorResponse(requestOpcode: opcode, handle: 0, error: .requestNotSupported).bytes)
            }
        } else if let current = transaction, current.request.responseOpcode == opcode || opcode == .errorResponse {
            complete(.failure(BLEError(.malformedPDU, error.reason)))
        } else {
            fail(BLEError(.malformedPDU, error.reason))
        }
    }

    private func sendToPeer(_ pdu: [UInt8]) {
        bearer.send([pdu]).whenFailure { [weak self] error in
            self?.assumeIsolated { $0.fail(error as? BLEError ?? BLEError(.linkClosed, "\(error)")) }
        }
    }
}
