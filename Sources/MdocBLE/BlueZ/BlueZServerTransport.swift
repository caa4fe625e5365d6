import Logging

/// The GATT server side of ISO/IEC 18013-5 BLE data retrieval (8.3.3.1.1) hosted by bluetoothd:
/// the mdoc in peripheral server mode, the mdoc reader in central client mode.
///
/// The same rules as ``MdocGATTServerTransport``, over the events of a
/// ``BlueZGATTApplication``: the session starts once the client enabled notifications of State
/// and Server2Client and wrote State 0x01 (8.3.3.1.1.4); chunks arrive as WriteValue calls on
/// Client2Server and leave as Server2Client notifications of min(512, ATT_MTU − 3) octets, the
/// ATT_MTU being the one bluetoothd reports with each write. bluetoothd tells an application
/// nothing of the link itself: the client disabling Server2Client notifications after the start
/// (bluetoothd does so when the link drops) is taken as the link closing.
actor BlueZServerTransport: MdocTransport {
    nonisolated let mode: MdocBLEMode
    private let application: BlueZGATTApplication
    private let onClose: @Sendable () -> Void
    private let state: BluetoothUUID
    private let client2Server: BluetoothUUID
    private let server2Client: BluetoothUUID
    private var reassembler = MessageReassembler(mtu: GATTServer.defaultMTU)
    private var linkMTU = GATTServer.defaultMTU
    private var events = AsyncEventQueue<MdocTransportEvent>(limit: MdocGATTServerTransport.maximumQueuedEvents,
                                                             itemName: "messages")
    private var notifying: Set<BluetoothUUID> = []
    private var hasStarted = false
    private var isReady = false
    private var hasClientArrived = false
    private var linkEnd: BLEError?
    private var readyWaiters = LinkWaiters()
    private var arrivalWaiters = LinkWaiters()
    private let sendTurn = MessageSendTurn()
    private let logger: Logger

    /// Serves `application`'s events in `mode`; `onClose` unregisters the application.
    init(mode: MdocBLEMode, application: BlueZGATTApplication, logger: Logger, onClose: @escaping @Sendable () -> Void) {
        self.mode = mode
        self.application = application
        self.onClose = onClose
        self.logger = logger
        state = MdocGATTProfile.state(mode: mode)
        client2Server = MdocGATTProfile.client2Server(mode: mode)
        server2Client = MdocGATTProfile.server2Client(mode: mode)
        Task { [weak self, application] in
            for await event in application.events {
                guard let transport = self, await transport.handle(event) else { return }
            }
            await self?.applicationEnded()
        }
    }

    /// The ATT_MTU bluetoothd reported with the client's last write; 23 before any.
    var mtu: Int { linkMTU }

    /// Waits until a GATT client used the service (enabled a notification or wrote), for up
    /// to `timeout`: the first sign bluetoothd gives that a central connected.
    func waitForClient(timeout: Duration) async throws(BLEError) {
        if hasClientArrived { return }
        if let linkEnd { throw linkEnd }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.arrivalTimedOut(timeout)
        }
        defer { timer.cancel() }
        try await withCheckedContinuation { arrivalWaiters.wait($0) }.get()
    }

    func send(_ message: [UInt8]) async throws(BLEError) {
        await sendTurn.acquire()
        defer { sendTurn.release() }
        try await waitUntilStarted()
        let chunks = MessageChunker.chunks(of: message, mtu: linkMTU)
        logger.debug("sending a message as Server2Client notifications through bluetoothd", metadata: [
            "bytes": "\(message.count)", "chunks": "\(chunks.count)", "chunkSize": "\(MessageChunker.chunkSize(mtu: linkMTU))",
            "mtu": "\(linkMTU)",
        ])
        for chunk in chunks {
            if let linkEnd { throw linkEnd }
            guard notifying.contains(server2Client) else {
                throw BLEError(.notSubscribed, "the client disabled Server2Client notifications during a message")
            }
            application.notify(server2Client, chunk)
        }
    }

    func receive() async throws(BLEError) -> MdocTransportEvent {
        if let ready = events.next() { return try ready.get() ?? .disconnected }
        return try await withCheckedContinuation { events.wait($0) }.get() ?? .disconnected
    }

    /// Notifies State 0x02 when the client enabled State notifications, then unregisters the
    /// application (8.3.3.1.1.5).
    func end() async {
        if notifying.contains(state) {
            logger.debug("State: notifying 0x02 (end) through bluetoothd")
            application.notify(state, [MdocGATTProfile.stateEnd])
        }
        close()
    }

    nonisolated func close() {
        onClose()
    }

    // MARK: Internals

    private func applicationEnded() {
        endLink(BLEError(.linkClosed, "the GATT application was unregistered"))
        events.finish()
    }

    private func arrivalTimedOut(_ timeout: Duration) {
        guard !hasClientArrived, !arrivalWaiters.isEmpty else { return }
        arrivalWaiters.resumeAll(.failure(BLEError(.timeout, "no GATT client used the service within \(timeout)")))
    }

    private func waitUntilStarted() async throws(BLEError) {
        if isReady { return }
        if let linkEnd { throw linkEnd }
        try await withCheckedContinuation { readyWaiters.wait($0) }.get()
    }

    /// Handles one event of the application; false once the link ended.
    private func handle(_ event: BlueZGATTApplication.Event) -> Bool {
        if !hasClientArrived, event != .advertisementReleased {
            hasClientArrived = true
            arrivalWaiters.resumeAll(.success(()))
        }
        switch event {
        case .advertisementReleased:
            logger.debug("bluetoothd released the advertisement")
        case .notifying(let characteristic, let enabled):
            logger.debug("notifications \(enabled ? "enabled" : "disabled") by the client", metadata: ["characteristic": "\(characteristic)"])
            if enabled {
                notifying.insert(characteristic)
                updateReadiness()
            } else {
                notifying.remove(characteristic)
                if characteristic == server2Client, hasStarted {
                    let error = BLEError(.linkClosed, "the GATT client went away (Server2Client notifications stopped)")
                    endLink(error)
                    events.finish()
                    return false
                }
            }
        case .written(let characteristic, let value, let mtu):
            if mtu >= GATTServer.defaultMTU, mtu != linkMTU {
                logger.debug("ATT MTU reported by bluetoothd", metadata: ["mtu": "\(mtu)", "chunkSize": "\(MessageChunker.chunkSize(mtu: mtu))"])
                linkMTU = mtu
                reassembler.mtu = mtu
            }
            if characteristic == state {
                logger.debug("State written by the client", metadata: ["value": "\(value.map { String($0, radix: 16) })"])
                if value == [MdocGATTProfile.stateStart] {
                    hasStarted = true
                    reassembler.reset()
                    updateReadiness()
                } else if value == [MdocGATTProfile.stateEnd] {
                    events.enqueue(.ended)
                }
            } else if characteristic == client2Server {
                // 8.3.3.1.1.4: State 0x01 comes before any data.
                guard hasStarted else {
                    return fail(BLEError(.protocolViolation, "the GATT client wrote Client2Server before State 0x01 (start)"))
                }
                do {
                    if let message = try reassembler.append(value) {
                        logger.debug("received a message on Client2Server", metadata: ["bytes": "\(message.count)"])
                        events.enqueue(.message(message))
                    }
                } catch {
                    return fail(error)
                }
            }
        }
        return true
    }

    private func fail(_ error: BLEError) -> Bool {
        endLink(error)
        events.fail(error)
        close()
        return false
    }

    private func updateReadiness() {
        guard hasStarted, !isReady, notifying.contains(state), notifying.contains(server2Client) else { return }
        isReady = true
        readyWaiters.resumeAll(.success(()))
    }

    private func endLink(_ error: BLEError) {
        if linkEnd == nil { linkEnd = error }
        readyWaiters.resumeAll(.failure(linkEnd ?? error))
        arrivalWaiters.resumeAll(.failure(linkEnd ?? error))
    }
}
