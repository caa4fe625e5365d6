import Logging
import NIOCore
import MdocBLE

/// The GATT server side of ISO/IEC 18013-5 BLE data retrieval (8.3.3.1.1) hosted by bluetoothd:
/// the mdoc in peripheral server mode, the mdoc reader in central client mode.
///
/// The same rules as ``MdocGATTServerTransport``, over the events of a
/// ``BlueZGATTApplication``: the session starts when a client writes State 0x01 (8.3.3.1.1.4),
/// and that client's device (WriteValue's "device" option) is the session's peer; writes of
/// other devices are ignored from then on, and those of any device before it. Chunks arrive as
/// WriteValue calls on Client2Server and leave as Server2Client notifications of
/// min(512, ATT_MTU − 3) octets once the client enabled them, the ATT_MTU being the one
/// bluetoothd reports with each write. bluetoothd tells an application nothing of the link
/// itself: a client that connects, subscribes and leaves before State 0x01 is seen only as
/// notifications started and stopped, which change nothing; the client disabling Server2Client
/// notifications after the start (bluetoothd does so when the link drops) is taken as the link
/// closing.
actor BlueZServerTransport: MdocTransport, MdocStateEndSignalling {
    nonisolated let mode: MdocBLEMode?
    private nonisolated let eventLoop: any EventLoop
    private let application: BlueZGATTApplication
    /// Called once, when a client first used the service.
    private let onClientCame: @Sendable () -> Void
    /// Called once, when a client started the session, with its device when bluetoothd named it.
    private let onStarted: @Sendable (String?) -> Void
    private let onClose: @Sendable () -> Void
    private let state: BluetoothUUID
    private let client2Server: BluetoothUUID
    private let server2Client: BluetoothUUID
    private var reassembler = MessageReassembler(mtu: GATTServer.defaultMTU)
    /// The inactivity bounds of the session, told of each Client2Server chunk.
    nonisolated let inactivity = InactivityWatch()
    private var linkMTU = GATTServer.defaultMTU
    private let events: ReceiveQueue<MdocTransportEvent>
    private var notifying: Set<BluetoothUUID> = []
    /// Whether the client enabled Server2Client notifications at some point of the link; once
    /// it has, their stop means the client went away, not that it never subscribed.
    private var hasSubscribedToServer2Client = false
    private var hasStarted = false
    /// The device that wrote State 0x01, when bluetoothd named it.
    private var peerDevice: String?
    /// Whether a client used the service (subscribed or wrote) before anyone started a session.
    private var hasClientCome = false
    private var linkEnd: BLEError?
    /// Completed at the next change of the start or the subscriptions, or failed when the link
    /// ends; every task waiting for one shares it.
    private var change: EventLoopPromise<Void>?
    private let logger: Logger

    /// The D-Bus connection's event loop runs the transport.
    nonisolated var unownedExecutor: UnownedSerialExecutor {
        eventLoop.executor.asUnownedSerialExecutor()
    }

    /// Serves `application`'s events in `mode` on `eventLoop`, the event loop of its D-Bus
    /// connection; `onClientCame` is told when a client first uses the service (reads, writes
    /// or subscribes), `onStarted` the device of the client that started the session, `onClose`
    /// unregisters the application.
    init(mode: MdocBLEMode, application: BlueZGATTApplication, eventLoop: any EventLoop, logger: Logger,
         onClientCame: @escaping @Sendable () -> Void, onStarted: @escaping @Sendable (String?) -> Void,
         onClose: @escaping @Sendable () -> Void) {
        self.mode = mode
        self.application = application
        self.eventLoop = eventLoop
        self.onClientCame = onClientCame
        self.onStarted = onStarted
        self.onClose = onClose
        self.logger = logger
        events = ReceiveQueue(on: eventLoop, limit: MdocGATTServerTransport.maximumQueuedEvents, itemName: "messages")
        state = MdocGATTProfile.state(mode: mode)
        client2Server = MdocGATTProfile.client2Server(mode: mode)
        server2Client = MdocGATTProfile.server2Client(mode: mode)
        eventLoop.execute { [weak self] in
            self?.assumeIsolated { $0.listen() }
        }
    }

    /// Takes the application's events from now on, as bluetoothd reports them.
    private func listen() {
        application.deliverEvents { [weak self] event in
            self?.assumeIsolated { transport in
                if let event {
                    transport.handle(event)
                } else {
                    transport.applicationEnded()
                }
            }
        }
    }

    /// The ATT_MTU bluetoothd reported with the client's last write; 23 before any.
    var mtu: Int { linkMTU }

    /// Waits up to `timeout` until a GATT client starts the session with State 0x01
    /// (8.3.3.1.1.4). Throws `timeout` when no client used the service, `sessionNotStarted`
    /// when one did but none started the session, and why the application ended first.
    func waitForStart(timeout: Duration) async throws(BLEError) {
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        while !hasStarted {
            if let linkEnd { throw linkEnd }
            let change = self.change ?? eventLoop.makePromise(of: Void.self)
            self.change = change
            let timer = eventLoop.scheduleTask(deadline: deadline) { [weak self] () -> Void in
                self?.assumeIsolated { $0.startTimedOut(timeout) }
            }
            defer { timer.cancel() }
            try await change.futureResult.bleValue()
        }
    }

    func send(_ message: [UInt8]) async throws(BLEError) {
        while !hasStarted || !notifying.contains(server2Client) {
            do {
                try await nextChange()
            } catch where hasStarted && !hasSubscribedToServer2Client {
                throw BLEError(.notSubscribed,
                               "the GATT client started the session but never enabled notifications of Server2Client (\(notifying.contains(state) ? "it subscribed to State only" : "it subscribed to neither State nor Server2Client")), so the message could not be sent")
            }
        }
        let chunks = MessageChunker.chunks(of: message, mtu: linkMTU)
        logger.debug("sending a message as Server2Client notifications through bluetoothd", metadata: [
            "bytes": "\(message.count)", "chunks": "\(chunks.count)", "chunkSize": "\(MessageChunker.chunkSize(mtu: linkMTU))",
            "mtu": "\(linkMTU)",
        ])
        // The chunks of one message leave together: nothing else runs on the loop meanwhile.
        for chunk in chunks {
            application.notify(server2Client, chunk)
        }
    }

    func receive() async throws(BLEError) -> MdocTransportEvent {
        try await events.next().bleValue() ?? .disconnected
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

    /// Notifies State 0x02 and keeps the link (8.3.3.1.1.5); `notSubscribed` when the client
    /// did not enable State notifications.
    func signalStateEnd() async throws(BLEError) {
        guard notifying.contains(state) else {
            throw BLEError(.notSubscribed, "the GATT client has not enabled notifications of State")
        }
        logger.debug("State: notifying 0x02 (end) through bluetoothd, the link kept")
        application.notify(state, [MdocGATTProfile.stateEnd])
    }

    // MARK: Internals

    private func applicationEnded() {
        endLink(BLEError(.linkClosed, "the GATT application was unregistered"))
        events.finish()
    }

    /// The wait for the start ran out of time.
    private func startTimedOut(_ timeout: Duration) {
        guard !hasStarted else { return }
        change?.fail(hasClientCome
            ? BLEError(.sessionNotStarted, "a GATT client used the service but none wrote State 0x01 within \(timeout)")
            : BLEError(.timeout, "no GATT client used the service within \(timeout)"))
        change = nil
    }

    /// Waits for the next change of the start or the subscriptions; throws once the link ended.
    private func nextChange() async throws(BLEError) {
        if let linkEnd { throw linkEnd }
        let change = self.change ?? eventLoop.makePromise(of: Void.self)
        self.change = change
        try await change.futureResult.bleValue()
    }

    /// The start or a subscription changed: the tasks waiting for that look again.
    private func changed() {
        change?.succeed()
        change = nil
    }

    /// Handles one event of the application; false once the link ended.
    @discardableResult
    private func handle(_ event: BlueZGATTApplication.Event) -> Bool {
        if event != .advertisementReleased && event != .hostLeft && !hasClientCome {
            hasClientCome = true
            onClientCame()
        }
        switch event {
        case .advertisementReleased:
            logger.debug("bluetoothd released the advertisement")
        case .read(let characteristic):
            logger.debug("the client read a characteristic", metadata: ["characteristic": "\(characteristic)"])
        case .hostLeft:
            return fail(BLEError(.linkClosed, BlueZInterface.bluetoothdLeftReason))
        case .notifying(let characteristic, let enabled):
            logger.debug("notifications \(enabled ? "enabled" : "disabled") by the client", metadata: ["characteristic": "\(characteristic)"])
            if enabled {
                notifying.insert(characteristic)
                if characteristic == server2Client { hasSubscribedToServer2Client = true }
                changed()
            } else {
                notifying.remove(characteristic)
                if characteristic == server2Client, hasStarted {
                    let error = BLEError(.linkClosed, "the GATT client went away (Server2Client notifications stopped)")
                    endLink(error)
                    events.finish()
                    return false
                }
            }
        case .written(let characteristic, let value, let mtu, let device):
            let isStart = characteristic == state && value == [MdocGATTProfile.stateStart]
            // Before the start only State 0x01 counts; after it only the peer's writes.
            guard hasStarted ? device == peerDevice : isStart else {
                logger.debug("ignoring a write of a client that is not the session's", metadata: [
                    "characteristic": "\(characteristic)", "device": "\(device ?? "?")", "started": "\(hasStarted)",
                ])
                return true
            }
            if mtu >= GATTServer.defaultMTU, mtu != linkMTU {
                logger.debug("ATT MTU reported by bluetoothd", metadata: ["mtu": "\(mtu)", "chunkSize": "\(MessageChunker.chunkSize(mtu: mtu))"])
                linkMTU = mtu
                reassembler.mtu = mtu
            }
            if characteristic == state {
                logger.debug("State written by the client", metadata: ["value": "\(value.map { String($0, radix: 16) })"])
                if isStart {
                    if !hasStarted {
                        peerDevice = device
                        onStarted(device)
                    }
                    hasStarted = true
                    reassembler.reset()
                    changed()
                } else if value == [MdocGATTProfile.stateEnd] {
                    events.append(.ended)
                }
            } else if characteristic == client2Server {
                inactivity.chunkArrived()
                do {
                    if let message = try reassembler.append(value) {
                        logger.debug("received a message on Client2Server", metadata: ["bytes": "\(message.count)"])
                        events.append(.message(message))
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

    private func endLink(_ error: BLEError) {
        if linkEnd == nil { linkEnd = error }
        change?.fail(linkEnd ?? error)
        change = nil
    }
}
