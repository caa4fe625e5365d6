/// A GATT client over an ATT bearer (Bluetooth Core Vol 3 Part G 4, Part F 3.3).
///
/// One request is outstanding at a time (Part F 3.3.2): concurrent callers wait their turn. A
/// single reader task takes every PDU from the bearer: responses complete the outstanding
/// request, notifications and indications (confirmed) are queued for ``nextNotification()``,
/// requests from the peer are answered "Request Not Supported" (this client hosts no
/// attributes). A request not answered within the transaction timeout ends the bearer
/// (Part F 3.3.3).
public actor GATTClient {
    /// The ATT transaction timeout (Core Vol 3 Part F 3.3.3).
    public static let transactionTimeout: Duration = .seconds(30)
    /// The most notifications held until ``nextNotification()`` takes them: with a 512-octet
    /// value each, 4096 are 2 MiB, more than any 18013-5 message. More is a `queueOverflow`
    /// error rather than a silent loss.
    public static let maximumQueuedNotifications = 4096

    /// The transaction timeout this client applies.
    public let transactionTimeout: Duration
    /// The effective ATT_MTU: 23 until ``exchangeMTU(_:)`` (Core Vol 3 Part F 3.2.8, 3.4.2).
    public private(set) var mtu = GATTServer.defaultMTU

    let bearer: any ATTBearer
    private var notifications = AsyncEventQueue<(handle: UInt16, value: [UInt8])>(
        limit: GATTClient.maximumQueuedNotifications, itemName: "notifications")
    private var hasExchangedMTU = false
    /// Set when the bearer ended; every later request fails with it.
    private var linkFailure: BLEError?

    /// The outstanding request.
    private struct Transaction {
        let id: Int
        let request: ATTOpcode
        var result: Result<ATTPDU, BLEError>?
        var continuation: CheckedContinuation<Result<ATTPDU, BLEError>, Never>?
        var timeoutTask: Task<Void, Never>?
    }
    private var transaction: Transaction?
    private var lastTransactionID = 0
    private var isBusy = false
    private var turnWaiters: [CheckedContinuation<Void, Never>] = []

    /// A client on `bearer`, timing out requests after `transactionTimeout` (tests shorten it).
    public init(bearer: any ATTBearer, transactionTimeout: Duration = GATTClient.transactionTimeout) {
        self.bearer = bearer
        self.transactionTimeout = transactionTimeout
        Task { [weak self, bearer] in
            while true {
                let received: Result<[UInt8]?, BLEError>
                do throws(BLEError) {
                    received = .success(try await bearer.receive())
                } catch {
                    received = .failure(error)
                }
                guard let client = self, await client.process(received) else { return }
            }
        }
    }

    /// Closes the link; outstanding and later requests fail with `linkClosed`.
    public nonisolated func close() {
        bearer.close()
    }

    /// The next Handle Value Notification or Indication as (value handle, value); nil once the
    /// link closed and earlier notifications were taken. Throws `queueOverflow` when they were
    /// not taken in time, or the error that ended the link.
    public func nextNotification() async throws(BLEError) -> (handle: UInt16, value: [UInt8])? {
        if let ready = notifications.next() { return try ready.get() }
        return try await withCheckedContinuation { notifications.wait($0) }.get()
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
        try checkWriteSize(value, name: "\(characteristic.uuid)")
        if let linkFailure { throw linkFailure }
        try await bearer.send(ATTPDU.writeCommand(attributeHandle: characteristic.valueHandle, attributeValue: value).bytes)
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

    /// Sends `request` when it is this caller's turn and waits for its response; an Error
    /// Response becomes an `attError`.
    func transact(_ request: ATTPDU) async throws(BLEError) -> ATTPDU {
        await takeTurn()
        defer { passTurn() }
        if let linkFailure { throw linkFailure }
        lastTransactionID += 1
        let id = lastTransactionID
        let timeout = transactionTimeout
        transaction = Transaction(id: id, request: request.opcode, timeoutTask: Task { [weak self] in
            do { try await Task.sleep(for: timeout) } catch { return }
            await self?.timedOut(id)
        })
        do {
            try await bearer.send(request.bytes)
        } catch {
            complete(id: id, .failure(error))
        }
        let result = await withCheckedContinuation { continuation in
            guard let ready = transaction?.result else {
                transaction?.continuation = continuation
                return
            }
            transaction = nil
            continuation.resume(returning: ready)
        }
        return try result.get()
    }

    private func takeTurn() async {
        guard isBusy else {
            isBusy = true
            return
        }
        await withCheckedContinuation { turnWaiters.append($0) }
    }

    private func passTurn() {
        if turnWaiters.isEmpty {
            isBusy = false
        } else {
            turnWaiters.removeFirst().resume()
        }
    }

    /// Completes the outstanding transaction `id` (or the current one when nil) with `result`.
    private func complete(id: Int? = nil, _ result: Result<ATTPDU, BLEError>) {
        guard var current = transaction, id == nil || current.id == id, current.result == nil else { return }
        current.timeoutTask?.cancel()
        if let continuation = current.continuation {
            transaction = nil
            continuation.resume(returning: result)
        } else {
            current.result = result
            transaction = current
        }
    }

    private func timedOut(_ id: Int) {
        guard let current = transaction, current.id == id, current.result == nil else { return }
        fail(BLEError(.timeout,
                      "no response to \(current.request) within \(transactionTimeout) (Core Vol 3 Part F 3.3.3); the bearer is closed"))
    }

    /// Ends the link with `error`: the outstanding and later requests fail with it.
    private func fail(_ error: BLEError) {
        if linkFailure == nil { linkFailure = error }
        complete(.failure(error))
        if error.code == .linkClosed { notifications.finish() } else { notifications.fail(error) }
        bearer.close()
    }

    // MARK: Incoming PDUs

    /// Handles one receive result from the reader task; false when the task must stop.
    private func process(_ received: Result<[UInt8]?, BLEError>) async -> Bool {
        switch received {
        case .failure(let error):
            fail(error)
            return false
        case .success(nil):
            fail(BLEError(.linkClosed, "the ATT bearer closed"))
            return false
        case .success(let bytes?):
            await handle(bytes)
            return linkFailure == nil
        }
    }

    private func handle(_ bytes: [UInt8]) async {
        guard let first = bytes.first else {
            fail(BLEError(.protocolViolation, "the server sent an empty ATT PDU"))
            return
        }
        let opcode = ATTOpcode(rawValue: first)
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(bytes: bytes)
        } catch {
            await handleUndecodable(opcode, error)
            return
        }
        switch pdu {
        case .handleValueNotification(let handle, let value):
            notifications.enqueue((handle, value))
        case .handleValueIndication(let handle, let value):
            notifications.enqueue((handle, value))
            await sendToPeer(ATTPDU.handleValueConfirmation.bytes)
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
                await sendToPeer(ATTPDU.errorResponse(requestOpcode: opcode, handle: 0, error: .requestNotSupported).bytes)
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
    private func handleUndecodable(_ opcode: ATTOpcode, _ error: ATTError) async {
        if error.code == .unknownOpcode || opcode.responseOpcode != nil {
            if !opcode.isCommand {
                await sendToPeer(ATTPDU.errorResponse(requestOpcode: opcode, handle: 0, error: .requestNotSupported).bytes)
            }
        } else if let current = transaction, current.request.responseOpcode == opcode || opcode == .errorResponse {
            complete(.failure(BLEError(.malformedPDU, error.reason)))
        } else {
            fail(BLEError(.malformedPDU, error.reason))
        }
    }

    private func sendToPeer(_ pdu: [UInt8]) async {
        do {
            try await bearer.send(pdu)
        } catch {
            fail(error)
        }
    }
}
