#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MdocBLE
import MdocDBus
import NIOCore

/// The GATT client side of ISO/IEC 18013-5 BLE data retrieval (8.3.3.1.1) through bluetoothd:
/// the mdoc reader in peripheral server mode, the mdoc in central client mode.
///
/// ``connect(over:adapter:links:mode:serviceUUID:expectedIdent:timeout:logger:)`` discovers a device
/// advertising the service (``BlueZDiscovery``), connects
/// (Device1.Connect), waits for ServicesResolved, finds the characteristics, checks Ident in
/// central client mode, enables notifications of State and Server2Client (StartNotify) and
/// writes State 0x01 (8.3.3.1.1.4). Chunks of at most ``MessageChunker/maximumWriteChunkSize``
/// octets go out as WriteValue with type "command" (ATT Write Command), in order; notifications
/// arrive as PropertiesChanged of a characteristic's Value.
actor BlueZClientTransport: MdocTransport, MdocStateEndSignalling {
    nonisolated let mode: MdocBLEMode?
    let mtu: Int
    private nonisolated let eventLoop: any EventLoop
    private let connection: DBusConnection
    private let devicePath: String
    private let statePath: String
    private let client2ServerPath: String
    private let server2ClientPath: String
    private var subscriptions: [DBusConnection.Registration] = []
    private let links: BlueZRadio.ClientLinks
    private var inbox: MdocClientInbox
    private var isClosed = false
    private let logger: Logger

    /// The D-Bus connection's event loop runs the transport.
    nonisolated var unownedExecutor: UnownedSerialExecutor {
        eventLoop.executor.asUnownedSerialExecutor()
    }

    private init(mode: MdocBLEMode, mtu: Int, connection: DBusConnection, devicePath: String,
                 characteristics: [BluetoothUUID: String], links: BlueZRadio.ClientLinks, logger: Logger) {
        self.mode = mode
        self.mtu = mtu
        self.connection = connection
        eventLoop = connection.eventLoop
        self.devicePath = devicePath
        statePath = characteristics[MdocGATTProfile.state(mode: mode)] ?? ""
        client2ServerPath = characteristics[MdocGATTProfile.client2Server(mode: mode)] ?? ""
        server2ClientPath = characteristics[MdocGATTProfile.server2Client(mode: mode)] ?? ""
        self.links = links
        inbox = MdocClientInbox(on: connection.eventLoop, mtu: mtu, inactivity: inactivity)
        self.logger = logger
    }

    /// Finds, connects to and opens the 18013-5 service `serviceUUID` of a device near
    /// `adapter`, within `timeout`. `expectedIdent` is checked against the Ident characteristic
    /// in central client mode. Throws `peerNotFound`, `timeout`, `serviceNotFound`,
    /// `characteristicNotFound`, `identMismatch`, or `linkClosed` with bluetoothd's error.
    ///
    /// A device bluetoothd has resolved the services of before (a reader met earlier) lists
    /// those services as its UUIDs, not the UUIDs it advertises now, so the fresh service UUID
    /// of this session is not among them (org.bluez.Device.rst, UUIDs). Such a device is
    /// recognised by bluetoothd reporting its RSSI during this discovery, which it does only for
    /// advertisements matching a discovery filter; it is connected to and kept only if its
    /// GATT services include `serviceUUID`.
    ///
    /// bluetoothd keeps a link up after the program that asked for it has gone, so every device
    /// connected is in `links` until it is disconnected, for the radio to disconnect when it
    /// closes.
    ///
    /// A link that drops before the session started (before State 0x01 was written) is no
    /// session, and the device is connected to again while `timeout` lasts, up to
    /// `MdocBLEConnector.maximumConnectionAttempts` links in all, as the other transports'
    /// connector does (ISO/IEC 18013-5 8.3.3.1.1.4). Between the same two adapters there is one link at a time: a session that
    /// follows another with the same device may meet the earlier link still going down, which
    /// Device1.Connect takes for the link it asked for.
    static func connect(
        over connection: DBusConnection, adapter: String, links: BlueZRadio.ClientLinks, mode: MdocBLEMode, serviceUUID: UUID,
        expectedIdent: [UInt8]?, timeout: Duration, logger: Logger
    ) async throws(BLEError) -> BlueZClientTransport {
        let deadline = ContinuousClock.now + timeout
        let uuid = serviceUUID.uuidString.lowercased()
        let discovery = try await BlueZDiscovery.start(uuid, over: connection, adapter: adapter, logger: logger)
        defer { discovery.stop() }
        while true {
            let candidate = try await discovery.next(until: deadline)
            logger.debug("connecting through bluetoothd", metadata: [
                "device": "\(candidate.path)", "advertises": "\(candidate.isAdvertisingService ? "the service" : "unknown: checking its services")",
            ])
            var attempts = 0
            while true {
                attempts += 1
                links.insert(candidate.path)
                do {
                    _ = try await connection.call(BlueZInterface.service, candidate.path, BlueZInterface.device, "Connect",
                                                  timeout: max(deadline - ContinuousClock.now, .milliseconds(1)))
                } catch {
                    try? await links.disconnect(candidate.path, over: connection).get()
                    throw BLEError(.linkClosed, "bluetoothd could not connect to \(candidate.path): \(error)")
                }
                do {
                    return try await open(candidate.path, uuid: uuid, over: connection, links: links, mode: mode,
                                          expectedIdent: expectedIdent, until: deadline, logger: logger)
                } catch {
                    try? await links.disconnect(candidate.path, over: connection).get()
                    if error.code == .linkClosed, ContinuousClock.now < deadline, attempts < MdocBLEConnector.maximumConnectionAttempts {
                        logger.debug("the link dropped before the session started: connecting again", metadata: [
                            "device": "\(candidate.path)", "error": "\(error)", "attempt": "\(attempts + 1)",
                        ])
                        continue
                    }
                    guard error.code == .serviceNotFound, !candidate.isAdvertisingService else { throw error }
                    logger.debug("the device does not have the service", metadata: ["device": "\(candidate.path)"])
                    discovery.exclude(candidate.path)
                    break
                }
            }
        }
    }

    /// After Device1.Connect: waits for the services, finds the 18013-5 characteristics,
    /// checks Ident, enables notifications and writes State 0x01.
    private static func open(
        _ devicePath: String, uuid: String, over connection: DBusConnection, links: BlueZRadio.ClientLinks, mode: MdocBLEMode,
        expectedIdent: [UInt8]?, until deadline: ContinuousClock.Instant, logger: Logger
    ) async throws(BLEError) -> BlueZClientTransport {
        try await servicesResolved(devicePath, over: connection, until: deadline)
        let objects = try await managedObjects(over: connection)
        guard let servicePath = objects.first(where: { path, interfaces in
            path.hasPrefix(devicePath + "/")
                && interfaces[BlueZInterface.gattService]?.dictionaryValue?["UUID"]?.stringValue?.lowercased() == uuid
        })?.key else {
            throw BLEError(.serviceNotFound, "the device has no GATT service \(uuid)")
        }
        var characteristics: [BluetoothUUID: String] = [:]
        var mtu = GATTServer.defaultMTU
        for (path, interfaces) in objects {
            guard let properties = interfaces[BlueZInterface.gattCharacteristic]?.dictionaryValue,
                  properties["Service"]?.stringValue == servicePath,
                  let text = properties["UUID"]?.stringValue, let found = UUID(uuidString: text) else { continue }
            characteristics[BluetoothUUID(found)] = path
            if let reported = properties["MTU"]?.intValue { mtu = max(mtu, reported) }
        }
        let required = [MdocGATTProfile.state(mode: mode), MdocGATTProfile.client2Server(mode: mode),
                        MdocGATTProfile.server2Client(mode: mode)] + (mode == .centralClient ? [MdocGATTProfile.ident] : [])
        for characteristic in required where characteristics[characteristic] == nil {
            throw BLEError(.characteristicNotFound, "the service \(uuid) lacks characteristic \(characteristic)")
        }
        logger.debug("ATT MTU reported by bluetoothd", metadata: [
            "mtu": "\(mtu)", "chunkSize": "\(MessageChunker.chunkSize(mtu: mtu, limit: MessageChunker.maximumWriteChunkSize))",
        ])
        if mode == .centralClient, let expectedIdent, let identPath = characteristics[MdocGATTProfile.ident] {
            let read: [UInt8]
            do {
                read = try await connection.call(BlueZInterface.service, identPath, BlueZInterface.gattCharacteristic, "ReadValue",
                                                 [.properties([])]).first?.bytesValue ?? []
            } catch {
                throw BLEError(.linkClosed, "reading Ident through bluetoothd failed: \(error)")
            }
            logger.debug("Ident read from the reader", metadata: [
                "read": "\(MdocGATTClientTransport.hex(read))", "expected": "\(MdocGATTClientTransport.hex(expectedIdent))", "match": "\(read == expectedIdent)",
            ])
            guard read == expectedIdent else {
                throw BLEError(.identMismatch, "the reader's Ident \(MdocGATTClientTransport.hex(read)) is not \(MdocGATTClientTransport.hex(expectedIdent)), derived from EDeviceKeyBytes")
            }
        }
        let transport = BlueZClientTransport(mode: mode, mtu: mtu, connection: connection, devicePath: devicePath,
                                             characteristics: characteristics, links: links, logger: logger)
        try await transport.watch()
        try await transport.start()
        return transport
    }

    /// Waits until bluetoothd resolved the GATT services of `devicePath` (Device1
    /// ServicesResolved), at most until `deadline`: told by PropertiesChanged, watched before the
    /// property is read, so the change cannot slip between.
    private static func servicesResolved(_ devicePath: String, over connection: DBusConnection,
                                         until deadline: ContinuousClock.Instant) async throws(BLEError) {
        let resolved = connection.eventLoop.makePromise(of: Void.self)
        let watch: DBusConnection.Registration
        do {
            watch = try await connection.subscribe(DBusMatchRule(
                sender: BlueZInterface.service, interface: BlueZInterface.properties, member: "PropertiesChanged",
                path: devicePath)) { signal in
                let changed = signal.arguments.dropFirst().first?.dictionaryValue
                if changed?["ServicesResolved"]?.boolValue == true { resolved.succeed() }
                if changed?["Connected"]?.boolValue == false {
                    resolved.fail(BLEError(.linkClosed, "bluetoothd reports \(devicePath) disconnected before its services were resolved"))
                }
            }
        } catch {
            throw BlueZInterface.failure(error, .linkClosed, "watching \(devicePath)")
        }
        defer { watch.cancel() }
        if try await property(over: connection, devicePath, BlueZInterface.device, "ServicesResolved")?.boolValue == true {
            resolved.succeed()
        }
        resolved.fail(after: deadline - ContinuousClock.now) {
            BLEError(.timeout, "bluetoothd did not resolve the services of \(devicePath) in time")
        }
        try await resolved.value(cancelled: { BLEError(.timeout, "waiting for the services of \(devicePath) was cancelled") })
    }

    /// Watches the device's and characteristics' changes, and the characteristics going away:
    /// when the GATT server's application ends, bluetoothd on the other side drops the service
    /// and this one removes its objects, while the link itself stays up.
    private func watch() async throws(BLEError) {
        let rules = [
            DBusMatchRule(sender: BlueZInterface.service, interface: BlueZInterface.properties, member: "PropertiesChanged",
                          pathNamespace: devicePath),
            DBusMatchRule(sender: BlueZInterface.service, interface: BlueZInterface.objectManager, member: "InterfacesRemoved",
                          arg0Path: devicePath + "/"),
            BlueZInterface.bluetoothdOwnerChanged,
        ]
        for rule in rules {
            do {
                subscriptions.append(try await connection.subscribe(rule) { [weak self] signal in
                    self?.assumeIsolated { _ = $0.handle(signal) }
                })
            } catch {
                disconnect()
                throw BlueZInterface.failure(error, .linkClosed, "watching \(devicePath)")
            }
        }
    }

    func send(_ message: [UInt8]) async throws(BLEError) {
        let limit = MessageChunker.maximumWriteChunkSize
        let chunks = MessageChunker.chunks(of: message, mtu: mtu, limit: limit)
        logger.debug("sending a message as Client2Server writes through bluetoothd", metadata: [
            "bytes": "\(message.count)", "chunks": "\(chunks.count)", "chunkSize": "\(MessageChunker.chunkSize(mtu: mtu, limit: limit))",
        ])
        // Sent one after the other, in order: each WriteValue goes out as its reply came back.
        for chunk in chunks {
            try await writeCommand(client2ServerPath, chunk)
        }
    }

    /// The inactivity bounds of the session, told of each Server2Client chunk.
    nonisolated let inactivity = InactivityWatch()

    func receive() async throws(BLEError) -> MdocTransportEvent {
        try await inbox.events.next().bleValue() ?? .disconnected
    }

    /// Writes State 0x02, then disconnects (8.3.3.1.1.5).
    func end() async {
        if !isClosed {
            logger.debug("State: writing 0x02 (end) through bluetoothd")
            try? await writeCommand(statePath, [MdocGATTProfile.stateEnd])
        }
        try? await disconnect().get()
    }

    nonisolated func close() {
        eventLoop.execute { [weak self] in
            self?.assumeIsolated { _ = $0.disconnect() }
        }
    }

    /// Writes State 0x02 and keeps the link (8.3.3.1.1.5).
    func signalStateEnd() async throws(BLEError) {
        logger.debug("State: writing 0x02 (end) through bluetoothd, the link kept")
        try await writeCommand(statePath, [MdocGATTProfile.stateEnd])
    }

    // MARK: Internals

    private func start() async throws(BLEError) {
        for path in [statePath, server2ClientPath] {
            do {
                _ = try await connection.call(BlueZInterface.service, path, BlueZInterface.gattCharacteristic, "StartNotify")
            } catch {
                try? await disconnect().get()
                throw BLEError(.linkClosed, "enabling notifications through bluetoothd failed: \(error)")
            }
        }
        logger.debug("State: writing 0x01 (start) through bluetoothd")
        do {
            try await writeCommand(statePath, [MdocGATTProfile.stateStart])
        } catch {
            try? await disconnect().get()
            throw error
        }
    }

    private func writeCommand(_ path: String, _ value: [UInt8]) async throws(BLEError) {
        if isClosed { throw BLEError(.linkClosed, "the link through bluetoothd is closed") }
        do {
            _ = try await connection.call(BlueZInterface.service, path, BlueZInterface.gattCharacteristic, "WriteValue", [
                .bytes(value), .properties([("type", .string("command"))]),
            ])
        } catch {
            throw BLEError(.linkClosed, "writing through bluetoothd failed: \(error)")
        }
    }

    /// Stops watching and ends the link (Device1.Disconnect); the future ends with bluetoothd's
    /// answer. Idempotent.
    @discardableResult
    private func disconnect() -> EventLoopFuture<Void> {
        guard !isClosed else { return eventLoop.makeSucceededVoidFuture() }
        isClosed = true
        subscriptions.forEach { $0.cancel() }
        inbox.events.finish()
        return links.disconnect(devicePath, over: connection)
    }

    /// Handles one PropertiesChanged under the device, InterfacesRemoved of an object under it,
    /// or bluetoothd leaving the bus; false once the link ended.
    @discardableResult
    private func handle(_ signal: DBusConnection.Delivery) -> Bool {
        guard !isClosed, signal.arguments.count >= 2 else { return !isClosed }
        if signal.member == "NameOwnerChanged" {
            guard BlueZInterface.saysBluetoothdLeft(signal) else { return true }
            logger.debug("bluetoothd left the system bus")
            // Its objects and the link went with it: nothing to disconnect.
            isClosed = true
            subscriptions.forEach { $0.cancel() }
            inbox.events.fail(BLEError(.linkClosed, BlueZInterface.bluetoothdLeftReason))
            links.remove(devicePath)
            return false
        }
        if signal.member == "InterfacesRemoved" {
            guard let removed = signal.arguments[0].stringValue,
                  [statePath, client2ServerPath, server2ClientPath].contains(removed) else { return true }
            logger.debug("bluetoothd removed the service's characteristics: the GATT server's application ended")
            disconnect()
            return false
        }
        guard let changed = signal.arguments[1].dictionaryValue else { return true }
        if signal.path == devicePath, changed["Connected"]?.boolValue == false {
            logger.debug("bluetoothd reports the device disconnected")
            isClosed = true
            subscriptions.forEach { $0.cancel() }
            inbox.events.finish()
            links.remove(devicePath)
            return false
        }
        guard let value = changed["Value"]?.bytesValue else { return true }
        guard signal.path == statePath || signal.path == server2ClientPath else { return true }
        guard inbox.notified(value, onState: signal.path == statePath, logger: logger) else {
            disconnect()
            return false
        }
        return true
    }

    /// bluetoothd's objects by path, each with its interfaces' properties.
    static func managedObjects(over connection: DBusConnection) async throws(BLEError) -> [String: [String: DBusValue]] {
        let reply: [DBusValue]
        do {
            reply = try await connection.call(BlueZInterface.service, "/", BlueZInterface.objectManager, "GetManagedObjects")
        } catch {
            throw BlueZInterface.failure(error, .transportUnavailable, "asking bluetoothd for its objects")
        }
        return (reply.first?.dictionaryValue ?? [:]).mapValues { $0.dictionaryValue ?? [:] }
    }

    private static func property(over connection: DBusConnection, _ path: String, _ interface: String,
                                 _ name: String) async throws(BLEError) -> DBusValue? {
        do {
            return try await connection.call(BlueZInterface.service, path, BlueZInterface.properties, "Get",
                                             [.string(interface), .string(name)]).first?.unwrapped
        } catch {
            throw BLEError(.linkClosed, "reading \(name) of \(path) from bluetoothd failed: \(error)")
        }
    }
}
