#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MdocDBus
import NIOConcurrencyHelpers
import NIOCore
import Synchronization
import MdocBLE

/// The `bluez` transport: ISO/IEC 18013-5 BLE sessions through bluetoothd's D-Bus API, so the
/// programs share the system's adapter with everything else instead of taking it over
/// (BlueZ doc/org.bluez.*.rst; docs/architecture.md section 4).
///
/// As the GATT server (the mdoc in peripheral server mode, the reader in central client mode)
/// it registers a GATT application (GattManager1.RegisterApplication) and an advertisement of
/// the service UUID (LEAdvertisingManager1.RegisterAdvertisement), and unregisters both when the
/// session ends or fails; bluetoothd drops them by itself when the process exits. As the GATT
/// client it discovers with a UUID filter, connects and uses the remote characteristics.
///
/// ``open(adapter:)`` checks, before anything starts, that bluetoothd runs, lets this user in,
/// and has the adapter, powered; each failure says what to do.
public final class BlueZRadio: MdocRadio {
    /// The adapter's name, such as `hci0`.
    public let adapterName: String
    /// The adapter's object path, such as `/org/bluez/hci0`.
    public let adapterPath: String
    private let connection: DBusConnection
    private let settings: BlueZDaemonSettings
    /// The registrations of GATT server sessions not yet undone.
    private let registrations = NIOLockedValueBox<[ObjectIdentifier: BlueZRegistration]>([:])
    private let clientLinks = ClientLinks()
    private let hasWarnedOfBearers = Atomic<Bool>(false)
    /// Fires when the D-Bus connection's channel closes.
    private let connectionEnded = RadioFailureSignal()

    private init(adapterName: String, adapterPath: String, connection: DBusConnection, settings: BlueZDaemonSettings) {
        self.adapterName = adapterName
        self.adapterPath = adapterPath
        self.connection = connection
        self.settings = settings
        let connectionEnded = self.connectionEnded
        connection.channel.closeFuture.whenComplete { _ in
            connectionEnded.fail(BLEError(.transportUnavailable, "the D-Bus connection to bluetoothd ended"))
        }
    }

    /// Connects to bluetoothd on the system bus (`DBUS_SYSTEM_BUS_ADDRESS` when set) and checks
    /// `adapter` (`hciN`; nil: the first adapter bluetoothd has). Throws `transportUnavailable`
    /// saying what to do when there is no bus, no bluetoothd, no permission, no such adapter, or
    /// the adapter is powered off.
    public static func open(adapter: String?) async throws(BLEError) -> BlueZRadio {
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.system()
        } catch {
            throw unavailable("no D-Bus system bus answers (\(error.message)); bluetoothd is reached through it: start dbus and bluetoothd, or use --transport hci:… or sim")
        }
        do {
            return try await check(adapter, over: connection)
        } catch {
            connection.close()
            throw error
        }
    }

    /// Whether bluetoothd runs on the system bus with at least one adapter, powered or not:
    /// then `bluez` is the programs' default transport (and an adapter that is off is reported
    /// as such). False, quickly, when there is no system bus.
    public static func isPresent() async -> Bool {
        guard let connection = try? await DBusConnection.system() else { return false }
        defer { connection.close() }
        guard let adapters = try? await adapters(over: connection) else { return false }
        return !adapters.isEmpty
    }

    private static func check(_ adapter: String?, over connection: DBusConnection) async throws(BLEError) -> BlueZRadio {
        let adapters = try await adapters(over: connection)
        guard !adapters.isEmpty else {
            throw unavailable("bluetoothd has no Bluetooth adapter: plug one in, and check `rfkill list` and `bluetoothctl list`")
        }
        guard let chosen = adapter.map({ name in adapters.first { $0.name == name } }) ?? adapters.first else {
            throw unavailable("bluetoothd has no adapter \(adapter ?? ""); it has: \(adapters.map(\.name).joined(separator: ", "))")
        }
        guard chosen.powered else {
            throw unavailable("adapter \(chosen.name) is powered off: power it on with `bluetoothctl power on` (and `rfkill unblock bluetooth` if it is blocked)")
        }
        return BlueZRadio(adapterName: chosen.name, adapterPath: chosen.path, connection: connection,
                          settings: .local(modalias: chosen.modalias))
    }

    /// bluetoothd's adapters, by name. Throws `transportUnavailable` when bluetoothd does not
    /// run, refuses this user, or does not answer.
    private static func adapters(
        over connection: DBusConnection
    ) async throws(BLEError) -> [(name: String, path: String, powered: Bool, modalias: String?)] {
        let owned: Bool
        do {
            owned = try await connection.call(BlueZInterface.bus, BlueZInterface.busPath, BlueZInterface.bus, "NameHasOwner",
                                              [.string(BlueZInterface.service)], timeout: .seconds(5)).first?.boolValue ?? false
        } catch {
            throw unavailable("the D-Bus system bus did not answer (\(error)); use --transport hci:… or sim")
        }
        guard owned else {
            throw unavailable("bluetoothd is not running (nobody owns org.bluez on the system bus): start it with `systemctl start bluetooth`, or use --transport hci:… or sim")
        }
        let objects: [String: DBusValue]
        do {
            objects = try await connection.call(BlueZInterface.service, "/", BlueZInterface.objectManager, "GetManagedObjects",
                                                timeout: .seconds(10)).first?.dictionaryValue ?? [:]
        } catch where error.name == DBusError.accessDeniedName {
            throw notPermitted(error)
        } catch {
            throw unavailable("bluetoothd did not list its adapters (\(error))")
        }
        return objects.compactMap { path, interfaces -> (name: String, path: String, powered: Bool, modalias: String?)? in
            guard let properties = interfaces.dictionaryValue?[BlueZInterface.adapter]?.dictionaryValue else { return nil }
            return (String(path.split(separator: "/").last ?? ""), path, properties["Powered"]?.boolValue ?? false,
                    properties["Modalias"]?.stringValue)
        }.sorted { $0.name < $1.name }
    }

    // MARK: MdocRadio

    /// The holder's side through bluetoothd: in peripheral server mode the registered service
    /// and advertisement, in central client mode discovery, connection and the Ident check.
    public func holderLink(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                           clock: any Clock<Duration>, logger: Logger) async throws(BLEError) -> any MdocTransport {
        warnOfSeveralBearers(logger)
        let deadline = LinkDeadline(timeout: timeout, clock: clock)
        switch mode {
        case .peripheralServer:
            let clientCame = NIOLockedValueBox(false)
            return try await deadline.bound(expiry: { Self.unstarted(serviceUUID, within: timeout, clientCame: clientCame) }) {
                () async throws(BLEError) in
                try await self.serve(mode: mode, serviceUUID: serviceUUID, ident: nil, timeout: deadline.backstop, clientCame: clientCame,
                                     logger: logger)
            }
        case .centralClient:
            return try await deadline.bound(expiry: { Self.noServer(serviceUUID, within: timeout) }) { () async throws(BLEError) in
                try await BlueZClientTransport.connect(over: self.connection, adapter: self.adapterPath, links: self.clientLinks,
                                                       mode: mode, serviceUUID: serviceUUID, expectedIdent: ident,
                                                       timeout: deadline.backstop, logger: logger)
            }
        }
    }

    /// The reader's side through bluetoothd: in peripheral server mode discovery and
    /// connection, in central client mode the registered service (with Ident) and advertisement.
    public func readerLink(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8], timeout: Duration,
                           clock: any Clock<Duration>, logger: Logger) async throws(BLEError) -> any MdocTransport {
        warnOfSeveralBearers(logger)
        let deadline = LinkDeadline(timeout: timeout, clock: clock)
        switch mode {
        case .peripheralServer:
            return try await deadline.bound(expiry: { Self.noServer(serviceUUID, within: timeout) }) { () async throws(BLEError) in
                try await BlueZClientTransport.connect(over: self.connection, adapter: self.adapterPath, links: self.clientLinks,
                                                       mode: mode, serviceUUID: serviceUUID, expectedIdent: nil,
                                                       timeout: deadline.backstop, logger: logger)
            }
        case .centralClient:
            let clientCame = NIOLockedValueBox(false)
            return try await deadline.bound(expiry: { Self.unstarted(serviceUUID, within: timeout, clientCame: clientCame) }) {
                () async throws(BLEError) in
                try await self.serve(mode: mode, serviceUUID: serviceUUID, ident: ident, timeout: deadline.backstop, clientCame: clientCame,
                                     logger: logger)
            }
        }
    }

    /// The failure when no client started a session on the service served within `timeout`:
    /// `sessionNotStarted` when one used the service (`clientCame`: it read, wrote or
    /// subscribed, as an mdoc reading the Ident of 8.3.3.1.1.4 does before it leaves), `timeout`
    /// when none did.
    private static func unstarted(_ serviceUUID: UUID, within timeout: Duration, clientCame: NIOLockedValueBox<Bool>) -> BLEError {
        clientCame.withLockedValue { $0 }
            ? BLEError(.sessionNotStarted, "a GATT client used service \(serviceUUID) but none started a session (State 0x01) within \(timeout)")
            : BLEError(.timeout, "no GATT client started a session on service \(serviceUUID) within \(timeout)")
    }

    /// The failure when no device advertising the service was found and set up within `timeout`.
    private static func noServer(_ serviceUUID: UUID, within timeout: Duration) -> BLEError {
        BLEError(.peerNotFound, "no device advertising service \(serviceUUID) was found and connected within \(timeout)")
    }

    /// The devices bluetoothd discovered during `duration` that advertise a 128-bit service UUID.
    public func scan(for duration: Duration) async throws(BLEError) -> [BLEPeripheralSighting] {
        do {
            _ = try await connection.call(BlueZInterface.service, adapterPath, BlueZInterface.adapter, "SetDiscoveryFilter",
                                          [.properties([("Transport", .string("le"))])])
            _ = try await connection.call(BlueZInterface.service, adapterPath, BlueZInterface.adapter, "StartDiscovery")
        } catch {
            throw Self.failure(error, "starting discovery on \(adapterName)")
        }
        // The scan window the caller asked for.
        try? await Task.sleep(for: duration)
        let objects = try? await connection.call(BlueZInterface.service, "/", BlueZInterface.objectManager, "GetManagedObjects")
        _ = try? await connection.call(BlueZInterface.service, adapterPath, BlueZInterface.adapter, "StopDiscovery")
        let devices = objects?.first?.dictionaryValue ?? [:]
        return devices.compactMap { path, interfaces -> BLEPeripheralSighting? in
            guard path.hasPrefix(adapterPath + "/"), let device = interfaces.dictionaryValue?[BlueZInterface.device]?.dictionaryValue,
                  let rssi = device["RSSI"]?.intValue else { return nil }
            let uuids = (device["UUIDs"]?.stringsValue ?? []).compactMap(UUID.init(uuidString:)).filter { BluetoothUUID($0).uint16 == nil }
            guard !uuids.isEmpty else { return nil }
            return BLEPeripheralSighting(address: device["Address"]?.stringValue ?? path, rssi: rssi, serviceUUIDs: uuids,
                                         name: device["Name"]?.stringValue, isConnectable: true)
        }.sorted { $0.address < $1.address }
    }

    /// `transportUnavailable` once the D-Bus connection to bluetoothd ended, with why.
    /// bluetoothd leaving the bus while the connection stays up is not a failure of the radio:
    /// the session in progress ends at once (each watches bluetoothd's name), and a later one
    /// registers with bluetoothd again once it is back, as after `systemctl restart bluetooth`.
    public func failure() async -> BLEError? {
        guard let failure = await connectionEnded.failure() else { return nil }
        return await connection.end.map { BLEError(.transportUnavailable, "the D-Bus connection to bluetoothd ended: \($0.message)") }
            ?? failure
    }

    /// Unregisters whatever is still registered, disconnects the devices still connected as
    /// GATT client (bluetoothd would keep those links up), and leaves the bus.
    public func close() async {
        let pending = registrations.withLockedValue { registrations in
            defer { registrations = [:] }
            return Array(registrations.values)
        }
        for registration in pending { try? await registration.unregister().get() }
        await clientLinks.disconnectAll(over: connection)
        connection.close()
    }

    /// The devices the GATT client side connected through bluetoothd (Device1.Connect) and has
    /// not disconnected yet.
    final class ClientLinks: Sendable {
        /// How long a Device1.Disconnect may take when the radio closes.
        static let disconnectTimeout: Duration = .seconds(2)

        private let paths = NIOLockedValueBox<Set<String>>([])

        /// Records `path` as connected, before Device1.Connect.
        func insert(_ path: String) {
            paths.withLockedValue { _ = $0.insert(path) }
        }

        /// Forgets `path`, which bluetoothd reported disconnected.
        func remove(_ path: String) {
            paths.withLockedValue { _ = $0.remove(path) }
        }

        /// Device1.Disconnect of `path`, once; the future ends with bluetoothd's reply, whatever
        /// it was.
        @discardableResult
        func disconnect(_ path: String, over connection: DBusConnection) -> EventLoopFuture<Void> {
            guard paths.withLockedValue({ $0.remove(path) }) != nil else { return connection.eventLoop.makeSucceededVoidFuture() }
            return connection.send(BlueZInterface.service, path, BlueZInterface.device, "Disconnect", timeout: Self.disconnectTimeout)
                .map { _ in }
                .recover { _ in }
        }

        /// Disconnects every device still connected.
        func disconnectAll(over connection: DBusConnection) async {
            for path in paths.withLockedValue({ $0 }) {
                try? await disconnect(path, over: connection).get()
            }
        }
    }

    /// Warns, once, when bluetoothd may carry a session over several ATT bearers
    /// (``BlueZDaemonSettings``).
    private func warnOfSeveralBearers(_ logger: Logger) {
        guard let warning = settings.severalBearersWarning,
              !hasWarnedOfBearers.exchange(true, ordering: .relaxed) else { return }
        logger.warning("\(warning)")
    }

    // MARK: The GATT server side

    /// Registers the 18013-5 service and its advertisement, waits up to `timeout` for a client
    /// to start a session on it with State 0x01, then stops advertising (8.3.3.1.1.4). Clients
    /// that come and go before that leave the advertisement in place; `clientCame` is set once
    /// one used the service.
    private func serve(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8]?, timeout: Duration, clientCame: NIOLockedValueBox<Bool>,
                       logger: Logger) async throws(BLEError) -> any MdocTransport {
        // An earlier session's unregistration still under way first: until its client's link is
        // down, the controller may hold back this session's advertisement (BlueZRegistration).
        for earlier in registrations.withLockedValue({ $0.values.compactMap(\.unregistration) }) {
            try? await earlier.get()
        }
        try await checkAdvertisingSlots()
        let application = BlueZGATTApplication(service: MdocGATTProfile.service(mode: mode, serviceUUID: serviceUUID, ident: ident),
                                               connection: connection)
        do {
            try await application.export()
        } catch {
            throw Self.failure(error, "exporting the GATT application")
        }
        // bluetoothd leaving the bus takes the registration and any link with it: the session
        // ends then, instead of waiting out its time for a reader that can no longer come.
        let hostWatch: DBusConnection.Registration
        do {
            hostWatch = try await connection.subscribe(BlueZInterface.bluetoothdOwnerChanged) { signal in
                if BlueZInterface.saysBluetoothdLeft(signal) { application.hostLeft() }
            }
        } catch {
            application.unexport()
            throw Self.failure(error, "watching bluetoothd on D-Bus")
        }
        let registration = BlueZRegistration(application: application, adapterPath: adapterPath, connection: connection, logger: logger)
        let key = ObjectIdentifier(registration)
        registrations.withLockedValue { $0[key] = registration }
        // Removed from the registrations only once unregistered, so that close() waits for a
        // session's own unregistration still under way.
        let registrations = registrations
        let finish: @Sendable () -> EventLoopFuture<Void> = {
            hostWatch.cancel()
            return registration.unregister().always { _ in
                registrations.withLockedValue { _ = $0.removeValue(forKey: key) }
            }
        }
        do {
            try await registration.registerApplication()
            try await registration.registerAdvertisement()
        } catch {
            try? await finish().get()
            throw error
        }
        logger.debug("advertising through bluetoothd", metadata: ["service": "\(serviceUUID.uuidString.lowercased())", "adapter": "\(adapterName)"])
        let transport = BlueZServerTransport(
            mode: mode, application: application, eventLoop: connection.eventLoop, logger: logger,
            onClientCame: { clientCame.withLockedValue { $0 = true } }, onStarted: { registration.started(by: $0) },
            onClose: { _ = finish() })
        do {
            try await transport.waitForStart(timeout: timeout)
        } catch {
            try? await finish().get()
            throw error
        }
        await registration.unregisterAdvertisement()
        return transport
    }

    /// Fails before anything is registered when every advertising instance is taken
    /// (LEAdvertisingManager1.ActiveInstances and SupportedInstances); RegisterAdvertisement's
    /// NotPermitted says the same when the slots run out in between.
    private func checkAdvertisingSlots() async throws(BLEError) {
        let properties = try? await connection.call(BlueZInterface.service, adapterPath, BlueZInterface.properties, "GetAll",
                                                    [.string(BlueZInterface.advertisingManager)]).first?.dictionaryValue
        guard let active = properties?["ActiveInstances"]?.intValue, let supported = properties?["SupportedInstances"]?.intValue,
              supported == 0 else { return }
        throw Self.slotsExhausted(adapterName, "\(active) in use, none free")
    }

    // MARK: Errors

    static func unavailable(_ reason: String) -> BLEError {
        BLEError(.transportUnavailable, reason)
    }

    static func notPermitted(_ error: DBusError) -> BLEError {
        unavailable("not permitted to use bluetoothd (\(error.message)): run as a user its D-Bus policy and polkit allow (often: a local session, or a member of the bluetooth group; see /etc/dbus-1/system.d/bluetooth.conf)")
    }

    static func slotsExhausted(_ adapter: String, _ detail: String) -> BLEError {
        unavailable("cannot advertise on \(adapter): all advertising slots are in use (\(detail)); stop another advertiser (`bluetoothctl advertise off`) or use another adapter")
    }

    /// A D-Bus failure while `doing` something, with what to do for the known causes.
    static func failure(_ error: DBusError, _ doing: String) -> BLEError {
        switch error.name {
        case DBusError.accessDeniedName: return notPermitted(error)
        case BlueZInterface.notReadyError: return unavailable("\(doing) failed: the adapter is not ready (\(error.message)); is it powered on?")
        default: return unavailable("\(doing) failed: \(error)")
        }
    }
}
