import Logging
import Synchronization

/// What one GATT server session registered with bluetoothd: the application and its
/// advertisement. ``unregister()`` undoes all of it, once, whatever was reached.
final class BlueZRegistration: Sendable {
    private struct State: Sendable {
        var hasApplication = false
        var hasAdvertisement = false
    }

    private let application: BlueZGATTApplication
    private let adapterPath: String
    private let adapterName: String
    private let connection: DBusConnection
    private let logger: Logger
    private let state = Mutex(State())
    private let finishing = Mutex<Task<Void, Never>?>(nil)

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
            _ = try await connection.call(BlueZInterface.service, adapterPath, BlueZInterface.gattManager, "RegisterApplication",
                                          [.objectPath(application.path), .properties([])])
        } catch {
            throw BlueZRadio.failure(error, "registering the GATT application on \(adapterName)")
        }
        state.withLock { $0.hasApplication = true }
        logger.debug("GATT application registered with bluetoothd", metadata: ["path": "\(application.path)"])
    }

    /// LEAdvertisingManager1.RegisterAdvertisement of the service UUID.
    func registerAdvertisement() async throws(BLEError) {
        do {
            _ = try await connection.call(BlueZInterface.service, adapterPath, BlueZInterface.advertisingManager, "RegisterAdvertisement",
                                          [.objectPath(application.advertisementPath), .properties([])])
        } catch where error.name == BlueZInterface.notPermittedError {
            throw BlueZRadio.slotsExhausted(adapterName, error.description)
        } catch {
            throw BlueZRadio.failure(error, "registering the advertisement on \(adapterName)")
        }
        state.withLock { $0.hasAdvertisement = true }
    }

    /// Stops advertising; the application stays.
    func unregisterAdvertisement() async {
        let registered = state.withLock { state in
            defer { state.hasAdvertisement = false }
            return state.hasAdvertisement
        }
        guard registered else { return }
        _ = try? await connection.call(BlueZInterface.service, adapterPath, BlueZInterface.advertisingManager,
                                       "UnregisterAdvertisement", [.objectPath(application.advertisementPath)])
        logger.debug("advertisement unregistered from bluetoothd")
    }

    /// Unregisters the advertisement and the application and stops answering for their objects.
    /// Idempotent: a later call waits for the first to finish, so a program that closes its
    /// radio while a session's own clean-up is under way still leaves only after both.
    func unregister() async {
        let task = finishing.withLock { finishing in
            if let finishing { return finishing }
            let task = Task { await performUnregistration() }
            finishing = task
            return task
        }
        await task.value
    }

    private func performUnregistration() async {
        let hadApplication = state.withLock { $0.hasApplication }
        await unregisterAdvertisement()
        if hadApplication {
            _ = try? await connection.call(BlueZInterface.service, adapterPath, BlueZInterface.gattManager, "UnregisterApplication",
                                           [.objectPath(application.path)])
            logger.debug("GATT application unregistered from bluetoothd")
        }
        application.unexport()
    }
}
