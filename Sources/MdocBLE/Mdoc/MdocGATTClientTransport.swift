#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NIOCore

/// The GATT client side of ISO/IEC 18013-5 BLE data retrieval (8.3.3.1.1): the mdoc reader in
/// mdoc peripheral server mode, the mdoc in mdoc central client mode.
///
/// Creating one runs the connection sequence: Exchange MTU offering 515, discovery of the service
/// and its characteristics, in central client mode the Ident check, notifications on State and
/// Server2Client, State 0x01 (8.3.3.1.1.4). Messages leave as Write Commands on Client2Server and
/// arrive as Server2Client notifications, in chunks (8.3.3.1.1.6).
public actor MdocGATTClientTransport: MdocTransport, MdocStateEndSignalling {
    /// The ATT_MTU offered: a 512-octet chunk plus the 3-octet Write Command and notification
    /// header; larger buys nothing, as an attribute value is at most 512 octets
    /// (ISO/IEC 18013-5 8.3.3.1.1.6, Core Vol 3 Part F 3.2.9).
    public static let requestedMTU = 515
    /// The most received messages held until ``receive()`` takes them. 18013-5 is request and
    /// response, so a peer has one message outstanding; beyond this the peer is flooding and
    /// ``receive()`` throws `queueOverflow`.
    public static let maximumQueuedEvents = 8

    /// The 18013-5 BLE mode whose characteristic UUIDs this client uses.
    public nonisolated let mode: MdocBLEMode?
    /// The ATT_MTU agreed with the server (Core Vol 3 Part F 3.4.2).
    public nonisolated let mtu: Int
    /// How the Client2Server chunks are cut.
    private let chunking: MdocLinkSizing.Chunking
    /// How long to wait before a message's last chunk (``MdocLinkSizing/pauseBeforeLastChunk``).
    private let pauseBeforeLastChunk: Duration?
    private nonisolated let eventLoop: any EventLoop
    private let client: GATTClient
    private let state: GATTRemoteCharacteristic
    private let client2Server: GATTRemoteCharacteristic
    private let server2Client: GATTRemoteCharacteristic
    private var inbox: MdocClientInbox
    private let logger: Logger

    /// The bearer's event loop runs the transport.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        eventLoop.executor.asUnownedSerialExecutor()
    }

    /// Connects to the 18013-5 service `serviceUUID` in `mode` over `bearer`. In mdoc central
    /// client mode with `expectedIdent` given, the server's Ident must equal it (8.3.3.1.1.4).
    ///
    /// Throws `serviceNotFound` or `characteristicNotFound` when the server lacks the service,
    /// `identMismatch` for another Ident, and the GATT errors of each step; the bearer is then
    /// closed. `transactionTimeout` bounds each request (Core Vol 3 Part F 3.3.3). The ATT_MTU,
    /// the Ident read, State changes and chunking are logged at debug level.
    public init(mode: MdocBLEMode, serviceUUID: UUID, expectedIdent: [UInt8]? = nil, bearer: any ATTBearer,
                transactionTimeout: Duration = GATTClient.transactionTimeout,
                logger: Logger = Logger(label: "mdoc.ble")) async throws(BLEError) {
        try await self.init(mode: mode, serviceUUID: serviceUUID, expectedIdent: expectedIdent, bearer: bearer,
                            sizing: .standard, transactionTimeout: transactionTimeout, logger: logger)
    }

    /// Connects as ``init(mode:serviceUUID:expectedIdent:bearer:transactionTimeout:logger:)``
    /// does, offering the Client Rx MTU and cutting the Client2Server chunks as `sizing` says.
    package init(mode: MdocBLEMode, serviceUUID: UUID, expectedIdent: [UInt8]?, bearer: any ATTBearer, sizing: MdocLinkSizing,
                 transactionTimeout: Duration = GATTClient.transactionTimeout, logger: Logger) async throws(BLEError) {
        let client = GATTClient(bearer: bearer, transactionTimeout: transactionTimeout)
        let characteristics: Characteristics
        let mtu: Int
        do {
            mtu = try await Self.exchangeMTU(client, offering: sizing.receiveMTU ?? Self.requestedMTU, logger: logger)
            characteristics = try await Self.discover(client, mode: mode, serviceUUID: serviceUUID,
                                                      expectedIdent: expectedIdent, logger: logger)
        } catch {
            client.close()
            throw error
        }
        self.mode = mode
        self.client = client
        self.logger = logger
        self.mtu = mtu
        chunking = sizing.chunking
        pauseBeforeLastChunk = sizing.pauseBeforeLastChunk
        eventLoop = bearer.eventLoop
        state = characteristics.state
        client2Server = characteristics.client2Server
        server2Client = characteristics.server2Client
        inbox = MdocClientInbox(on: bearer.eventLoop, mtu: mtu, inactivity: inactivity)
        // Now on the bearer's event loop: the notifications are taken before they are enabled.
        let consumer: @Sendable (Result<GATTClient.Notification?, BLEError>) -> Void = { [weak self] notification in
            self?.assumeIsolated { $0.handle(notification) }
        }
        await client.deliverNotifications(to: consumer)
        do {
            try await start()
        } catch {
            client.close()
            throw error
        }
    }

    deinit {
        client.close()
    }

    /// Sends `message` as Write Commands on Client2Server of min(510, ATT_MTU − 3) octets
    /// (``MessageChunker/maximumWriteChunkSize``); the chunks of one message leave together.
    public func send(_ message: [UInt8]) async throws(BLEError) {
        let limit = MessageChunker.maximumWriteChunkSize
        let chunks = MessageChunker.chunks(of: message, mtu: mtu, limit: limit, chunking: chunking)
        logger.debug("sending a message as Client2Server write commands", metadata: [
            "bytes": "\(message.count)", "chunks": "\(chunks.count)", "chunkSize": "\(MessageChunker.chunkSize(mtu: mtu, limit: limit))",
            "mtu": "\(mtu)",
        ])
        if let pauseBeforeLastChunk, let last = chunks.last, chunks.count > 1 {
            try await client.writeWithoutResponse(Array(chunks.dropLast()), to: client2Server)
            logger.debug("pausing before the last chunk", metadata: ["seconds": "\(pauseBeforeLastChunk.components.seconds)"])
            try? await Task.sleep(for: pauseBeforeLastChunk)
            try await client.writeWithoutResponse([last], to: client2Server)
        } else {
            try await client.writeWithoutResponse(chunks, to: client2Server)
        }
    }

    /// The inactivity bounds of the session, told of each Server2Client chunk.
    public nonisolated let inactivity = InactivityWatch()

    /// The next message from the server, `.ended` for its State 0x02 notification,
    /// `.disconnected` once the link closed. Throws the chunking errors of
    /// ``MessageReassembler`` (the link is then closed) and `queueOverflow` when more than
    /// ``maximumQueuedEvents`` were not taken.
    public func receive() async throws(BLEError) -> MdocTransportEvent {
        try await inbox.events.next().bleValue() ?? .disconnected
    }

    /// Disables Server2Client notifications, writes State 0x02 and closes the link
    /// (ISO/IEC 18013-5 8.3.3.1.1.5; the unsubscription is what conformance testers expect of a
    /// GATT client before it disconnects).
    public func end() async {
        try? await client.setNotifications(false, for: server2Client)
        logger.debug("State: writing 0x02 (end)")
        try? await client.writeWithoutResponse([MdocGATTProfile.stateEnd], to: state)
        close()
    }

    /// Closes the link; ``receive()`` gives `.disconnected`.
    public nonisolated func close() {
        client.close()
    }

    /// Writes State 0x02 and keeps the link (8.3.3.1.1.5).
    package func signalStateEnd() async throws(BLEError) {
        logger.debug("State: writing 0x02 (end), the link kept")
        try await client.writeWithoutResponse([MdocGATTProfile.stateEnd], to: state)
    }

    /// Handles one notification, nil at the link's end.
    private func handle(_ notification: Result<GATTClient.Notification?, BLEError>) {
        switch notification {
        case .failure(let error):
            inbox.events.fail(error)
        case .success(nil):
            inbox.events.finish()
        case .success(let (handle, value)?):
            guard handle == state.valueHandle || handle == server2Client.valueHandle else { return }
            if !inbox.notified(value, onState: handle == state.valueHandle, logger: logger) { close() }
        }
    }

    /// The end of the connection sequence of ISO/IEC 18013-5 8.3.3.1.1.4: notifications of State
    /// and Server2Client, then State 0x01.
    private func start() async throws(BLEError) {
        try await Self.step("enabling notifications") { () throws(BLEError) in
            try await client.setNotifications(true, for: state)
            try await client.setNotifications(true, for: server2Client)
        }
        try await Self.step("writing State 0x01") { () throws(BLEError) in
            try await client.writeWithoutResponse([MdocGATTProfile.stateStart], to: state)
        }
        logger.debug("subscribed to State and Server2Client; State: wrote 0x01 (start)")
    }

    /// The characteristics the connection sequence uses.
    private struct Characteristics {
        let state: GATTRemoteCharacteristic
        let client2Server: GATTRemoteCharacteristic
        let server2Client: GATTRemoteCharacteristic
    }

    /// The first step of ISO/IEC 18013-5 8.3.3.1.1.4: Exchange MTU offering `offer`,
    /// ``requestedMTU`` unless a conformance runner offers less.
    private static func exchangeMTU(_ client: GATTClient, offering offer: Int, logger: Logger) async throws(BLEError) -> Int {
        let mtu = try await step("exchanging the ATT MTU") { () throws(BLEError) in try await client.exchangeMTU(offer) }
        logger.debug("ATT MTU exchanged", metadata: [
            "requested": "\(offer)", "mtu": "\(mtu)",
            "chunkSize": "\(MessageChunker.chunkSize(mtu: mtu, limit: MessageChunker.maximumWriteChunkSize))",
        ])
        return mtu
    }

    /// Discovery of the service and its characteristics and, in central client mode, the Ident
    /// check (ISO/IEC 18013-5 8.3.3.1.1.4). A link that ends on the way fails with `linkClosed`
    /// naming the step it ended in.
    private static func discover(_ client: GATTClient, mode: MdocBLEMode, serviceUUID: UUID,
                                 expectedIdent: [UInt8]?, logger: Logger) async throws(BLEError) -> Characteristics {
        let characteristics = try await step("discovering the service") { () throws(BLEError) in
            try await client.discoverCharacteristics(of: try await client.discoverPrimaryService(BluetoothUUID(serviceUUID)))
        }
        func find(_ uuid: BluetoothUUID, _ name: String) throws(BLEError) -> GATTRemoteCharacteristic {
            guard let found = characteristics.first(where: { $0.uuid == uuid }) else {
                throw BLEError(.characteristicNotFound, "the 18013-5 service \(serviceUUID) has no \(name) characteristic \(uuid)")
            }
            return found
        }
        let found = Characteristics(state: try find(MdocGATTProfile.state(mode: mode), "State"),
                                    client2Server: try find(MdocGATTProfile.client2Server(mode: mode), "Client2Server"),
                                    server2Client: try find(MdocGATTProfile.server2Client(mode: mode), "Server2Client"))
        if mode == .centralClient, let expectedIdent {
            let identCharacteristic = try find(MdocGATTProfile.ident, "Ident")
            let ident = try await step("reading Ident") { () throws(BLEError) in try await client.read(identCharacteristic) }
            logger.debug("Ident read from the reader", metadata: [
                "read": "\(hex(ident))", "expected": "\(hex(expectedIdent))", "match": "\(ident == expectedIdent)",
            ])
            guard ident == expectedIdent else {
                throw BLEError(.identMismatch,
                               "the reader's Ident \(hex(ident)) differs from \(hex(expectedIdent)), derived from EDeviceKeyBytes: it is not the reader this engagement was shown to")
            }
        }
        return found
    }

    /// Runs one step of the connection sequence; a link that ends in it fails with
    /// `linkClosed` saying which step it was.
    private static func step<Value: Sendable>(
        _ name: String, _ operation: @Sendable () async throws(BLEError) -> Value
    ) async throws(BLEError) -> Value {
        do {
            return try await operation()
        } catch where error.code == .linkClosed {
            throw BLEError(.linkClosed, "the link ended while \(name): \(error.reason)")
        }
    }

    /// `bytes` as lowercase hex, for logs and messages.
    package static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
