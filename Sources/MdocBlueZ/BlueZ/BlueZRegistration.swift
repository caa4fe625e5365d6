import Logging
import MdocBLE
import MdocDBus
import NIOConcurrencyHelpers
import NIOCore

/// What one GATT server session registered with bluetoothd: the application and its
/// advertisement, and the link of the client that started the session. ``unregister()`` undoes
/// all of it, once, whatever was reached.
///
/// The session's end does not end the link: the GATT client disconnects once it has ended the
/// session or been told of its end (8.3.3.1.1.5), and bluetoothd keeps the link up as long as
/// the client's side wants it, even after the program that used it has gone. While the link is
/// up, a controller that cannot advertise as connectable while it is the peripheral of a link
/// (the emulated ones of scripts/bluez-vm.sh are such) holds back the advertisement of the
/// next session, which readers then find late or not at all. So the unregistration waits up to
/// ``peerDisconnectWait`` for the client to leave, then disconnects it (Device1.Disconnect),
/// and a next session on the same radio registers only once that is done.
final class BlueZRegistration: Sendable {
    /// How long the unregistration waits for the session's client to disconnect before it
    /// disconnects the client itself, and then for bluetoothd to answer that it did. Longer than
    /// the 2 s bluetoothd takes to end a link a program asked it to disconnect (its
    /// DISCONNECT_TIMER, which lets the device's profiles go first): a reader that disconnects
    /// through bluetoothd as the session ends is down within it.
    static let peerDisconnectWait: Duration = .seconds(5)

    private struct State: Sendable {
        var hasApplication = false
        var hasAdvertisement = false
        /// The device of the client that started the session, as bluetoothd named it.
        var peer: String?
        /// The registration calls sent, each done once bluetoothd answered it (and the answer
        /// was recorded above): the unregistration waits for them, so that what bluetoothd
        /// registers after the session was closed is unregistered too.
        var calls: [EventLoopFuture<Void>] = []
        /// The unregistration, once started: later calls share it.
        var unregistration: EventLoopFuture<Void>?
    }

    private let application: BlueZGATTApplication
    private let adapterPath: String
    private let adapterName: String
    private let connection: DBusConnection
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    init(application: BlueZGATTApplication, adapterPath: String, connection: DBusConnection, logger: Logger) {
        self.application = application
        self.adapterPath = adapterPath
        adapterName = String(adapterPath.split(separator: "/").last ?? "")
        self.connection = connection
        self.logger = logger
    }

    /// GattManager1.RegisterApplication: bluetoothd reads the objects and hosts the service.
    func registerApplication() async throws(BLEError) {
        do {
            try await register(BlueZInterface.gattManager, "RegisterApplication", application.path) { $0.hasApplication = true }
        } catch {
            throw BlueZRadio.failure(error, "registering the GATT application on \(adapterName)")
        }
        logger.debug("GATT application registered with bluetoothd", metadata: ["path": "\(application.path)"])
    }

    /// LEAdvertisingManager1.RegisterAdvertisement of the service UUID.
    func registerAdvertisement() async throws(BLEError) {
        do {
            try await register(BlueZInterface.advertisingManager, "RegisterAdvertisement", application.advertisementPath) {
                $0.hasAdvertisement = true
            }
        } catch where error.name == BlueZInterface.notPermittedError {
            throw BlueZRadio.slotsExhausted(adapterName, error.description)
        } catch {
            throw BlueZRadio.failure(error, "registering the advertisement on \(adapterName)")
        }
    }

    /// Calls `member` of `manager` with the object at `path` and, once bluetoothd answered it,
    /// records the registration with `registered`, before an unregistration started in the
    /// meantime looks. Refused once the unregistration has started.
    private func register(
        _ manager: String, _ member: String, _ path: String, registered: @escaping @Sendable (inout State) -> Void
    ) async throws(DBusError) {
        let eventLoop = connection.eventLoop
        let answer = state.withLockedValue { state -> EventLoopPromise<Void>? in
            guard state.unregistration == nil else { return nil }
            let answered = eventLoop.makePromise(of: Void.self)
            state.calls.append(answered.futureResult)
            return answered
        }
        guard let answered = answer else {
            throw DBusError(named: DBusError.noReplyName, message: "the session was closed before \(member)")
        }
        let state = state
        connection.send(BlueZInterface.service, adapterPath, manager, member, [.objectPath(path), .properties([])])
            .map { _ in state.withLockedValue(registered) }
            .cascade(to: answered)
        do {
            try await answered.futureResult.get()
        } catch {
            throw error as? DBusError ?? DBusError.connection("\(error)")
        }
    }

    /// The client at `device` (its object path) started the session: its link is released when
    /// the registration is undone.
    func started(by device: String?) {
        state.withLockedValue { $0.peer = device }
    }

    /// The unregistration once it has started, `nil` before.
    var unregistration: EventLoopFuture<Void>? {
        state.withLockedValue { $0.unregistration }
    }

    /// Stops advertising; the application stays.
    func unregisterAdvertisement() async {
        try? await unregisteringAdvertisement().get()
    }

    /// LEAdvertisingManager1.UnregisterAdvertisement when the advertisement is registered; the
    /// future ends with the reply, whatever it was.
    private func unregisteringAdvertisement() -> EventLoopFuture<Void> {
        let registered = state.withLockedValue { state in
            defer { state.hasAdvertisement = false }
            return state.hasAdvertisement
        }
        guard registered else { return connection.eventLoop.makeSucceededVoidFuture() }
        let logger = logger
        return connection.send(BlueZInterface.service, adapterPath, BlueZInterface.advertisingManager, "UnregisterAdvertisement",
                               [.objectPath(application.advertisementPath)])
            .map { _ in logger.debug("advertisement unregistered from bluetoothd") }
            .recover { _ in }
    }

    /// Unregisters the advertisement and the application and stops answering for their objects.
    /// Idempotent: a later call shares the first one's end, so a program that closes its radio
    /// while a session's own clean-up is under way still leaves only after both. It runs on the
    /// connection's event loop whoever waits for it.
    @discardableResult
    func unregister() -> EventLoopFuture<Void> {
        let eventLoop = connection.eventLoop
        let (started, calls, unregistration) = state.withLockedValue {
            state -> (EventLoopPromise<Void>?, [EventLoopFuture<Void>], EventLoopFuture<Void>) in
            if let unregistration = state.unregistration { return (nil, [], unregistration) }
            let promise = eventLoop.makePromise(of: Void.self)
            state.unregistration = promise.futureResult
            return (promise, state.calls, promise.futureResult)
        }
        if let started {
            // A registration bluetoothd has not answered yet may still succeed: undo it too.
            let state = state
            started.completeWith(EventLoopFuture.whenAllComplete(calls, on: eventLoop).flatMap { [self] _ in
                performUnregistration(hadApplication: state.withLockedValue { $0.hasApplication })
            })
        }
        return unregistration
    }

    private func performUnregistration(hadApplication: Bool) -> EventLoopFuture<Void> {
        let (connection, adapterPath, application, logger) = (connection, adapterPath, application, logger)
        return unregisteringAdvertisement().flatMap { () -> EventLoopFuture<Void> in
            guard hadApplication else { return connection.eventLoop.makeSucceededVoidFuture() }
            return connection.send(BlueZInterface.service, adapterPath, BlueZInterface.gattManager, "UnregisterApplication",
                                   [.objectPath(application.path)])
                .map { _ in logger.debug("GATT application unregistered from bluetoothd") }
                .recover { _ in }
        }.always { _ in application.unexport() }
        .flatMap { [self] in
            guard let peer = state.withLockedValue({ $0.peer }) else { return connection.eventLoop.makeSucceededVoidFuture() }
            let released = connection.eventLoop.makePromise(of: Void.self)
            released.completeWithTask { await self.release(peer) }
            return released.futureResult
        }
    }

    /// Waits up to ``peerDisconnectWait`` for the link to the client at `device` to go down,
    /// told by PropertiesChanged(Connected) watched before the property is read, then
    /// disconnects the client when it is still there. Failures end the wait: bluetoothd that
    /// left the bus, or a device it no longer shows, has no link to release. It runs after the
    /// application was unregistered, so that a program ending on a signal, whose clean-up has a
    /// bound, has undone its registrations by then.
    private func release(_ device: String) async {
        let down = connection.eventLoop.makePromise(of: Void.self)
        let watch = try? await connection.subscribe(DBusMatchRule(
            sender: BlueZInterface.service, interface: BlueZInterface.properties, member: "PropertiesChanged", path: device)) { signal in
            if signal.arguments.dropFirst().first?.dictionaryValue?["Connected"]?.boolValue == false { down.succeed() }
        }
        defer { watch?.cancel() }
        let connected = try? await connection.call(BlueZInterface.service, device, BlueZInterface.properties, "Get", [
            .string(BlueZInterface.device), .string("Connected"),
        ]).first?.unwrapped.boolValue
        guard watch != nil, connected == true else {
            down.succeed()
            return
        }
        down.fail(after: Self.peerDisconnectWait) { BLEError(.timeout, "the client kept its link") }
        if (try? await down.futureResult.get()) != nil {
            logger.debug("the session's client disconnected", metadata: ["device": "\(device)"])
            return
        }
        logger.debug("the session's client kept its link after the session: disconnecting it", metadata: [
            "device": "\(device)", "waited": "\(Self.peerDisconnectWait)",
        ])
        _ = try? await connection.call(BlueZInterface.service, device, BlueZInterface.device, "Disconnect",
                                       timeout: Self.peerDisconnectWait)
    }
}
