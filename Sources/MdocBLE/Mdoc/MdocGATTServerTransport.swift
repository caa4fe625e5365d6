#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NIOCore

/// The GATT server side of ISO/IEC 18013-5 BLE data retrieval (8.3.3.1.1): hosts the service of
/// ``MdocGATTProfile`` over an ATT bearer. The mdoc in peripheral server mode, the mdoc reader in
/// mdoc central client mode (then serving Ident).
///
/// The client starts the session by writing State 0x01 (8.3.3.1.1.4); ``waitForStart()`` waits
/// for that, and ``send(_:)`` waits for it and for the client's subscription to Server2Client.
/// Each characteristic notifies once its own Client Characteristic Configuration is enabled:
/// Server2Client carries the messages, State only the end (Core Vol 3 Part G 3.3.3.3). Messages
/// arrive as Write Commands on Client2Server and leave as Server2Client notifications, in chunks
/// (8.3.3.1.1.6). State 0x01 drops a partially received message; State 0x02 from the client is
/// `.ended` (8.3.3.1.1.5).
public actor MdocGATTServerTransport: MdocTransport, MdocStateEndSignalling {
    /// The most received messages held until ``receive()`` takes them. 18013-5 is request and
    /// response, so a peer has one message outstanding; a few more allow for State changes
    /// around it. Beyond this the peer is flooding and ``receive()`` throws `queueOverflow`.
    public static let maximumQueuedEvents = 8

    /// The 18013-5 BLE mode whose characteristic UUIDs this server uses.
    public nonisolated let mode: MdocBLEMode?
    private nonisolated let eventLoop: any EventLoop
    private let connection: GATTServerConnection
    private let state: BluetoothUUID
    private let client2Server: BluetoothUUID
    private let server2Client: BluetoothUUID
    private var reassembler = MessageReassembler(mtu: GATTServer.defaultMTU)
    /// How the Server2Client chunks are cut.
    private let chunking: MdocLinkSizing.Chunking
    /// How long to wait before a message's last chunk (``MdocLinkSizing/pauseBeforeLastChunk``).
    private let pauseBeforeLastChunk: Duration?
    /// The inactivity bounds of the session, told of each Client2Server chunk.
    public nonisolated let inactivity = InactivityWatch()
    private let events: ReceiveQueue<MdocTransportEvent>
    /// The ATT_MTU the client exchanged, 23 until it did.
    private var linkMTU = GATTServer.defaultMTU
    /// Whether the client wrote State 0x01.
    private var hasStarted = false
    /// The characteristics whose notifications the client enabled, as its Client
    /// Characteristic Configuration writes arrive.
    private var notifying: Set<BluetoothUUID> = []
    /// Whether the client enabled Server2Client notifications at some point of the link.
    private var hasSubscribedToServer2Client = false
    /// Why the link ended, once it did: tasks waiting for the start or a subscription fail with it.
    private var linkEnd: BLEError?
    /// Completed at the next change of the start or the subscriptions, or failed when the link
    /// ends; every task waiting for one shares it.
    private var change: EventLoopPromise<Void>?
    private let logger: Logger

    /// The bearer's event loop runs the transport.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        eventLoop.executor.asUnownedSerialExecutor()
    }

    /// Serves the 18013-5 service `serviceUUID` in `mode` on `bearer`. In mdoc central client
    /// mode the Ident characteristic holds `ident`, the 16 octets derived from EDeviceKeyBytes
    /// (8.3.3.1.1.4), or nothing when nil, which no mdoc accepts; it is ignored in peripheral
    /// server mode. The ATT_MTU, State changes and chunking are logged at debug level.
    public init(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8]? = nil, bearer: any ATTBearer,
                logger: Logger = Logger(label: "mdoc.ble")) {
        self.init(mode: mode, serviceUUID: serviceUUID, ident: ident, bearer: bearer, sizing: .standard, logger: logger)
    }

    /// Serves the service as ``init(mode:serviceUUID:ident:bearer:logger:)`` does, announcing
    /// the Server Rx MTU and cutting the Server2Client chunks as `sizing` says.
    package init(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8]?, bearer: any ATTBearer, sizing: MdocLinkSizing,
                 logger: Logger) {
        self.mode = mode
        self.chunking = sizing.chunking
        self.pauseBeforeLastChunk = sizing.pauseBeforeLastChunk
        self.logger = logger
        eventLoop = bearer.eventLoop
        events = ReceiveQueue(on: bearer.eventLoop, limit: Self.maximumQueuedEvents, itemName: "messages")
        state = MdocGATTProfile.state(mode: mode)
        client2Server = MdocGATTProfile.client2Server(mode: mode)
        server2Client = MdocGATTProfile.server2Client(mode: mode)
        var server = GATTServer(services: [MdocGATTProfile.service(mode: mode, serviceUUID: serviceUUID, ident: ident)])
        if let receiveMTU = sizing.receiveMTU { server.receiveMTU = receiveMTU }
        connection = GATTServerConnection(server: server, bearer: bearer)
        eventLoop.execute { [weak self] in
            self?.assumeIsolated { $0.listen() }
        }
    }

    deinit {
        connection.close()
    }

    /// Takes the GATT server's events from now on, as they happen.
    private func listen() {
        let consumer: @Sendable (Result<GATTServerEvent?, BLEError>) -> Void = { [weak self] event in
            self?.assumeIsolated { _ = $0.handle(event) }
        }
        connection.assumeIsolated { $0.deliverEvents(to: consumer) }
    }

    /// The ATT_MTU the client exchanged, 23 until it did (Core Vol 3 Part F 3.4.2).
    public var mtu: Int { linkMTU }

    /// Waits until the client writes State 0x01, the start of the session (ISO/IEC 18013-5
    /// 8.3.3.1.1.4): only then is the central the session's peer. Throws why the link ended
    /// first: `linkClosed` when the central left, or the error that ended the link.
    public func waitForStart() async throws(BLEError) {
        while !hasStarted {
            try await nextChange()
        }
    }

    /// Sends `message` as Server2Client notifications of min(512, ATT_MTU − 3) octets, once the
    /// client started the session and enabled Server2Client notifications; the chunks of one
    /// message leave together. Throws `linkClosed` when the link ended before the start,
    /// `notSubscribed` when it ended while the client had never subscribed to Server2Client,
    /// why the link ended when the client had subscribed and then went away, and the
    /// notification errors.
    public func send(_ message: [UInt8]) async throws(BLEError) {
        try await waitForStart()
        while !notifying.contains(server2Client) {
            do {
                try await nextChange()
            } catch {
                // A client that had subscribed and stopped went away: say why the link ended.
                guard !hasSubscribedToServer2Client else { throw error }
                throw BLEError(.notSubscribed,
                               "the GATT client started the session but never enabled notifications of Server2Client (\(subscriptionText)), so the message could not be sent")
            }
        }
        let chunks = MessageChunker.chunks(of: message, mtu: linkMTU, chunking: chunking)
        logger.debug("sending a message as Server2Client notifications", metadata: [
            "bytes": "\(message.count)", "chunks": "\(chunks.count)", "chunkSize": "\(MessageChunker.chunkSize(mtu: linkMTU))",
            "mtu": "\(linkMTU)",
        ])
        if let pauseBeforeLastChunk, let last = chunks.last, chunks.count > 1 {
            try await connection.notify(server2Client, values: Array(chunks.dropLast()))
            logger.debug("pausing before the last chunk", metadata: ["seconds": "\(pauseBeforeLastChunk.components.seconds)"])
            try? await Task.sleep(for: pauseBeforeLastChunk)
            try await connection.notify(server2Client, values: [last])
        } else {
            try await connection.notify(server2Client, values: chunks)
        }
    }

    /// The next message from the client, `.ended` for its State 0x02, `.disconnected` once the
    /// link closed. Throws the chunking errors of ``MessageReassembler`` (the link is then
    /// closed) and `queueOverflow` when more than ``maximumQueuedEvents`` were not taken.
    public func receive() async throws(BLEError) -> MdocTransportEvent {
        try await events.next().bleValue() ?? .disconnected
    }

    /// Notifies State 0x02 when the client subscribed to State, then closes the link
    /// (ISO/IEC 18013-5 8.3.3.1.1.5).
    public func end() async {
        if notifying.contains(state) {
            logger.debug("State: notifying 0x02 (end)")
            try? await connection.notify(state, value: [MdocGATTProfile.stateEnd])
        }
        close()
    }

    /// Closes the link; waiting senders fail with `linkClosed`, ``receive()`` gives `.disconnected`.
    public nonisolated func close() {
        connection.close()
    }

    /// Notifies State 0x02 and keeps the link (8.3.3.1.1.5); `notSubscribed` when the client
    /// did not subscribe to State.
    package func signalStateEnd() async throws(BLEError) {
        logger.debug("State: notifying 0x02 (end), the link kept")
        try await connection.notify(state, value: [MdocGATTProfile.stateEnd])
    }

    /// What the client subscribed to, for messages.
    private var subscriptionText: String {
        notifying.contains(state) ? "it subscribed to State only" : "it subscribed to neither State nor Server2Client"
    }

    /// Waits for the next change of the start or the subscriptions; throws once the link ended.
    private func nextChange() async throws(BLEError) {
        if let linkEnd { throw linkEnd }
        let change = self.change ?? eventLoop.makePromise(of: Void.self)
        self.change = change
        try await change.futureResult.bleValue()
    }

    /// Whether a task waits for the next change of the start or the subscriptions, for tests of
    /// what wakes it.
    var isAwaitingChange: Bool { change != nil }

    /// The start or a subscription changed: the tasks waiting for that look again.
    private func changed() {
        change?.succeed()
        change = nil
    }

    /// Handles one event of the GATT server; false once the link ended.
    @discardableResult
    private func handle(_ event: Result<GATTServerEvent?, BLEError>) -> Bool {
        switch event {
        case .failure(let error):
            endLink(error)
            events.fail(error)
            return false
        case .success(nil):
            endLink(BLEError(.linkClosed, hasStarted ? "the GATT client disconnected" : "the GATT client disconnected before the session started"))
            events.finish()
            return false
        case .success(.mtuExchanged(let mtu)?):
            logger.debug("ATT MTU exchanged", metadata: ["mtu": "\(mtu)", "chunkSize": "\(MessageChunker.chunkSize(mtu: mtu))"])
            linkMTU = mtu
            reassembler.mtu = mtu
        case .success(.subscriptionChanged(let characteristic, let enabled)?):
            logger.debug("notifications \(enabled ? "enabled" : "disabled") by the client", metadata: ["characteristic": "\(characteristic)"])
            if enabled {
                notifying.insert(characteristic)
                if characteristic == server2Client { hasSubscribedToServer2Client = true }
            } else {
                notifying.remove(characteristic)
            }
            changed()
        case .success(.written(let characteristic, let value, _)?):
            if characteristic == state {
                logger.debug("State written by the client", metadata: ["value": "\(value.map { String($0, radix: 16) })"])
                if value == [MdocGATTProfile.stateStart] {
                    hasStarted = true
                    reassembler.reset()
                    changed()
                } else if value == [MdocGATTProfile.stateEnd] {
                    events.append(.ended)
                }
            } else if characteristic == client2Server {
                // 8.3.3.1.1.4: the client writes State 0x01 before any data; bytes written
                // before it belong to no session, so the link fails rather than guessing.
                guard hasStarted else {
                    let error = BLEError(.protocolViolation, "the GATT client wrote Client2Server before State 0x01 (start)")
                    endLink(error)
                    events.fail(error)
                    close()
                    return false
                }
                inactivity.chunkArrived()
                do {
                    if let message = try reassembler.append(value) {
                        logger.debug("received a message on Client2Server", metadata: ["bytes": "\(message.count)"])
                        events.append(.message(message))
                    }
                } catch {
                    endLink(error)
                    events.fail(error)
                    close()
                    return false
                }
            }
        }
        return true
    }

    private func endLink(_ error: BLEError) {
        if linkEnd == nil { linkEnd = error }
        change?.fail(linkEnd ?? error)
        change = nil
    }
}
