#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// The GATT client side of ISO/IEC 18013-5 BLE data retrieval (8.3.3.1.1): the mdoc reader in
/// mdoc peripheral server mode, the mdoc in mdoc central client mode.
///
/// Creating one runs the connection sequence: Exchange MTU offering 515, discovery of the service
/// and its characteristics, in central client mode the Ident check, notifications on State and
/// Server2Client, State 0x01 (8.3.3.1.1.4). Messages leave as Write Commands on Client2Server and
/// arrive as Server2Client notifications, in chunks (8.3.3.1.1.6).
public actor MdocGATTClientTransport: MdocTransport {
    /// The ATT_MTU offered: a 512-octet chunk plus the 3-octet Write Command and notification
    /// header; larger buys nothing, as an attribute value is at most 512 octets
    /// (ISO/IEC 18013-5 8.3.3.1.1.6, Core Vol 3 Part F 3.2.9).
    public static let requestedMTU = 515
    /// The most received messages held until ``receive()`` takes them. 18013-5 is request and
    /// response, so a peer has one message outstanding; beyond this the peer is flooding and
    /// ``receive()`` throws `queueOverflow`.
    public static let maximumQueuedEvents = 8

    /// The 18013-5 BLE mode whose characteristic UUIDs this client uses.
    public nonisolated let mode: MdocBLEMode
    /// The ATT_MTU agreed with the server (Core Vol 3 Part F 3.4.2).
    public nonisolated let mtu: Int
    private let client: GATTClient
    private let state: GATTRemoteCharacteristic
    private let client2Server: GATTRemoteCharacteristic
    private let server2Client: GATTRemoteCharacteristic
    private var inbox: MdocClientInbox
    private let sendTurn = MessageSendTurn()
    private let logger: Logger

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
        let client = GATTClient(bearer: bearer, transactionTimeout: transactionTimeout)
        let service: Service
        do {
            service = try await Self.open(client, mode: mode, serviceUUID: serviceUUID, expectedIdent: expectedIdent,
                                          logger: logger)
        } catch {
            client.close()
            throw error
        }
        self.mode = mode
        self.client = client
        self.logger = logger
        mtu = service.mtu
        state = service.state
        client2Server = service.client2Server
        server2Client = service.server2Client
        inbox = MdocClientInbox(mtu: service.mtu)
        Task { [weak self, client] in
            while true {
                let notification: Result<(handle: UInt16, value: [UInt8])?, BLEError>
                do throws(BLEError) {
                    notification = .success(try await client.nextNotification())
                } catch {
                    notification = .failure(error)
                }
                guard let transport = self, await transport.handle(notification) else { return }
            }
        }
    }

    deinit {
        client.close()
    }

    /// Sends `message` as Write Commands on Client2Server of min(510, ATT_MTU − 3) octets
    /// (``MessageChunker/maximumWriteChunkSize``).
    public func send(_ message: [UInt8]) async throws(BLEError) {
        await sendTurn.acquire()
        defer { sendTurn.release() }
        let limit = MessageChunker.maximumWriteChunkSize
        let chunks = MessageChunker.chunks(of: message, mtu: mtu, limit: limit)
        logger.debug("sending a message as Client2Server write commands", metadata: [
            "bytes": "\(message.count)", "chunks": "\(chunks.count)", "chunkSize": "\(MessageChunker.chunkSize(mtu: mtu, limit: limit))",
            "mtu": "\(mtu)",
        ])
        for chunk in chunks {
            try await client.writeWithoutResponse(chunk, to: client2Server)
        }
    }

    /// When the last Server2Client chunk arrived, `nil` before the first.
    public var lastReceived: ContinuousClock.Instant? {
        inbox.lastReceived
    }

    /// The next message from the server, `.ended` for its State 0x02 notification,
    /// `.disconnected` once the link closed. Throws the chunking errors of
    /// ``MessageReassembler`` (the link is then closed) and `queueOverflow` when more than
    /// ``maximumQueuedEvents`` were not taken.
    public func receive() async throws(BLEError) -> MdocTransportEvent {
        if let ready = inbox.events.next() { return try ready.get() ?? .disconnected }
        return try await withCheckedContinuation { inbox.events.wait($0) }.get() ?? .disconnected
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

    /// Handles one notification; false once the link ended.
    private func handle(_ notification: Result<(handle: UInt16, value: [UInt8])?, BLEError>) -> Bool {
        switch notification {
        case .failure(let error):
            inbox.events.fail(error)
            return false
        case .success(nil):
            inbox.events.finish()
            return false
        case .success(let (handle, value)?):
            guard handle == state.valueHandle || handle == server2Client.valueHandle else { return true }
            guard inbox.notified(value, onState: handle == state.valueHandle, logger: logger) else {
                close()
                return false
            }
            return true
        }
    }

    /// What the connection sequence found.
    private struct Service {
        let mtu: Int
        let state: GATTRemoteCharacteristic
        let client2Server: GATTRemoteCharacteristic
        let server2Client: GATTRemoteCharacteristic
    }

    /// The connection sequence of ISO/IEC 18013-5 8.3.3.1.1.4 up to State 0x01. A link that
    /// ends on the way fails with `linkClosed` naming the step it ended in.
    private static func open(_ client: GATTClient, mode: MdocBLEMode, serviceUUID: UUID,
                             expectedIdent: [UInt8]?, logger: Logger) async throws(BLEError) -> Service {
        let mtu = try await step("exchanging the ATT MTU") { () throws(BLEError) in try await client.exchangeMTU(requestedMTU) }
        logger.debug("ATT MTU exchanged", metadata: [
            "requested": "\(requestedMTU)", "mtu": "\(mtu)",
            "chunkSize": "\(MessageChunker.chunkSize(mtu: mtu, limit: MessageChunker.maximumWriteChunkSize))",
        ])
        let characteristics = try await step("discovering the service") { () throws(BLEError) in
            try await client.discoverCharacteristics(of: try await client.discoverPrimaryService(BluetoothUUID(serviceUUID)))
        }
        func find(_ uuid: BluetoothUUID, _ name: String) throws(BLEError) -> GATTRemoteCharacteristic {
            guard let found = characteristics.first(where: { $0.uuid == uuid }) else {
                throw BLEError(.characteristicNotFound, "the 18013-5 service \(serviceUUID) has no \(name) characteristic \(uuid)")
            }
            return found
        }
        let service = Service(mtu: mtu,
                              state: try find(MdocGATTProfile.state(mode: mode), "State"),
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
        try await step("enabling notifications") { () throws(BLEError) in
            try await client.setNotifications(true, for: service.state)
            try await client.setNotifications(true, for: service.server2Client)
        }
        try await step("writing State 0x01") { () throws(BLEError) in
            try await client.writeWithoutResponse([MdocGATTProfile.stateStart], to: service.state)
        }
        logger.debug("subscribed to State and Server2Client; State: wrote 0x01 (start)")
        return service
    }

    /// Runs one step of the connection sequence; a link that ends in it fails with
    /// `linkClosed` saying which step it was.
    private static func step<Value: Sendable>(
        _ name: String, _ operation: () async throws(BLEError) -> Value
    ) async throws(BLEError) -> Value {
        do {
            return try await operation()
        } catch where error.code == .linkClosed {
            throw BLEError(.linkClosed, "the link ended while \(name): \(error.reason)")
        }
    }

    /// `bytes` as lowercase hex, for logs and messages.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
