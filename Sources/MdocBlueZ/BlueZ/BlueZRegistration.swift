import Logging
import MdocBLE
import MdocDBus
import NIOConcurrencyHelpers
import NIOCore

/// What one GATT server session registered with bluetoothd: the application and its
/// advertisement. ``unregister()`` undoes all of it, once, whatever was reached.
final class BlueZRegistration: Sendable {
    private struct State: Sendable {
        var hasApplication = false
        var hasAdvertisement = false
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
    }
}
