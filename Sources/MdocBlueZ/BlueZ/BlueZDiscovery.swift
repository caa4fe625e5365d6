import Logging
import MdocBLE
import MdocDBus
import NIOConcurrencyHelpers
import NIOCore

/// Discovery through bluetoothd of the devices that advertise one 128-bit service UUID, the
/// first step of the GATT client side of ISO/IEC 18013-5 8.3.3.1.1.4 (BlueZ
/// doc/org.bluez.Adapter.rst SetDiscoveryFilter and StartDiscovery, org.bluez.Device.rst).
///
/// bluetoothd shows a device as an org.bluez.Device1 object whose UUIDs are the service UUIDs it
/// advertises, until bluetoothd has resolved the device's GATT services over a connection:
/// from then on (the device is remembered for a while, or for good once paired) UUIDs lists the
/// services found then, and an 18013-5 service UUID advertised since, which is new for every
/// session, is not among them. During a discovery with a UUID filter, though, bluetoothd reports
/// every advertisement that matches a filter as a change of the device's RSSI. So a candidate
/// is either a device in range whose UUIDs include the service UUID, or, when none is, a device
/// whose RSSI changed during this discovery: that one may be a known device advertising the
/// service, which only its GATT services can tell.
final class BlueZDiscovery: Sendable {
    /// A device to connect to.
    struct Candidate: Sendable {
        /// Its object path, such as `/org/bluez/hci0/dev_00_AA_01_00_00_00`.
        let path: String
        /// Whether its UUIDs include the service UUID; when not, it is a device bluetoothd
        /// reported during the discovery whose services must be checked after connecting.
        let isAdvertisingService: Bool
    }

    /// The devices bluetoothd reported during the discovery (on the D-Bus connection's event
    /// loop), those not to offer again, and the wait for the next change.
    private final class Sightings: Sendable {
        private struct State: Sendable {
            var sighted: [String] = []
            var excluded: Set<String> = []
            /// Completed at the next report of bluetoothd about a device of the adapter.
            var change: EventLoopPromise<Void>?
            /// Why the discovery can find nothing more: bluetoothd left the bus.
            var end: BLEError?
        }

        private let state = NIOLockedValueBox(State())

        /// bluetoothd reported something of the device at `path`; `rssi` when it reported an
        /// advertisement.
        func reported(_ path: String, rssi: Bool) {
            let change = state.withLockedValue { state -> EventLoopPromise<Void>? in
                if rssi, !state.sighted.contains(path) { state.sighted.append(path) }
                defer { state.change = nil }
                return state.change
            }
            change?.succeed()
        }

        /// bluetoothd left the bus: the wait for a change fails with `error`, now and from now on.
        func ended(_ error: BLEError) {
            let change = state.withLockedValue { state -> EventLoopPromise<Void>? in
                state.end = state.end ?? error
                defer { state.change = nil }
                return state.change
            }
            change?.fail(error)
        }

        func exclude(_ path: String) {
            state.withLockedValue { _ = $0.excluded.insert(path) }
        }

        /// The devices reported, in order, those excluded, and the next change from now on.
        func snapshot(on eventLoop: any EventLoop) -> (sighted: [String], excluded: Set<String>, change: EventLoopFuture<Void>) {
            state.withLockedValue { state in
                if let end = state.end {
                    return (state.sighted, state.excluded, eventLoop.makeFailedFuture(end))
                }
                let change = state.change ?? eventLoop.makePromise(of: Void.self)
                state.change = change
                return (state.sighted, state.excluded, change.futureResult)
            }
        }
    }

    private let uuid: String
    private let adapter: String
    private let connection: DBusConnection
    private let subscriptions: [DBusConnection.Registration]
    private let sightings: Sightings

    private init(uuid: String, adapter: String, connection: DBusConnection, subscriptions: [DBusConnection.Registration],
                 sightings: Sightings) {
        self.uuid = uuid
        self.adapter = adapter
        self.connection = connection
        self.subscriptions = subscriptions
        self.sightings = sightings
    }

    /// Starts discovery on `adapter` with a filter on `uuid` (lowercase) and LE, watching the
    /// devices' reports from before the first advertisement can arrive. Throws
    /// `transportUnavailable` when bluetoothd refuses.
    static func start(_ uuid: String, over connection: DBusConnection, adapter: String,
                      logger: Logger) async throws(BLEError) -> BlueZDiscovery {
        let sightings = Sightings()
        var subscriptions: [DBusConnection.Registration] = []
        do {
            // A device's changes (RSSI: an advertisement matching the filter), and new devices.
            subscriptions.append(try await connection.subscribe(DBusMatchRule(
                sender: BlueZInterface.service, interface: BlueZInterface.properties, member: "PropertiesChanged",
                pathNamespace: adapter)) { signal in
                guard signal.arguments.first?.stringValue == BlueZInterface.device else { return }
                sightings.reported(signal.path, rssi: signal.arguments.dropFirst().first?.dictionaryValue?["RSSI"] != nil)
            })
            subscriptions.append(try await connection.subscribe(DBusMatchRule(
                sender: BlueZInterface.service, interface: BlueZInterface.objectManager, member: "InterfacesAdded",
                arg0Path: adapter + "/")) { signal in
                guard let path = signal.arguments.first?.stringValue else { return }
                sightings.reported(path, rssi: false)
            })
            subscriptions.append(try await connection.subscribe(BlueZInterface.bluetoothdOwnerChanged) { signal in
                guard BlueZInterface.saysBluetoothdLeft(signal) else { return }
                sightings.ended(BLEError(.transportUnavailable, BlueZInterface.bluetoothdLeftReason))
            })
        } catch {
            subscriptions.forEach { $0.cancel() }
            throw BlueZInterface.failure(error, .transportUnavailable, "watching the devices of \(adapter)")
        }
        let discovery = BlueZDiscovery(uuid: uuid, adapter: adapter, connection: connection, subscriptions: subscriptions,
                                       sightings: sightings)
        do {
            _ = try await connection.call(BlueZInterface.service, adapter, BlueZInterface.adapter, "SetDiscoveryFilter", [
                .properties([("UUIDs", .strings([uuid])), ("Transport", .string("le"))]),
            ])
            _ = try await connection.call(BlueZInterface.service, adapter, BlueZInterface.adapter, "StartDiscovery")
        } catch {
            subscriptions.forEach { $0.cancel() }
            throw BLEError(.transportUnavailable, "bluetoothd refused to start discovery on \(adapter): \(error)")
        }
        logger.debug("discovering through bluetoothd", metadata: ["service": "\(uuid)", "adapter": "\(adapter)"])
        return discovery
    }

    /// The next candidate not excluded, waiting until `deadline` for bluetoothd to report one;
    /// throws `peerNotFound` then.
    func next(until deadline: ContinuousClock.Instant) async throws(BLEError) -> Candidate {
        let notFound = BLEError(.peerNotFound, "no device advertising service \(uuid) was discovered")
        while ContinuousClock.now < deadline {
            // The next change is taken before bluetoothd is asked, so none in between is missed.
            let (sighted, excluded, change) = sightings.snapshot(on: connection.eventLoop)
            let objects = try await BlueZClientTransport.managedObjects(over: connection)
            let devices = objects.compactMap { path, interfaces -> (String, [String: DBusValue])? in
                guard path.hasPrefix(adapter + "/"), !excluded.contains(path),
                      let device = interfaces[BlueZInterface.device]?.dictionaryValue else { return nil }
                return (path, device)
            }.sorted { $0.0 < $1.0 }
            for (path, device) in devices
                where (device["RSSI"] != nil || device["Connected"]?.boolValue == true)
                    && device["UUIDs"]?.stringsValue?.contains(where: { $0.lowercased() == uuid }) == true {
                return Candidate(path: path, isAdvertisingService: true)
            }
            let known = Set(devices.map(\.0))
            if let path = sighted.first(where: known.contains) {
                return Candidate(path: path, isAdvertisingService: false)
            }
            let wait = connection.eventLoop.makePromise(of: Void.self)
            wait.completeWith(change)
            wait.fail(after: deadline - ContinuousClock.now) { notFound }
            try await wait.value(cancelled: { BLEError(.peerNotFound, "discovering service \(self.uuid) was cancelled") })
        }
        throw notFound
    }

    /// Offers `path` no more.
    func exclude(_ path: String) {
        sightings.exclude(path)
    }

    /// Stops watching and asks bluetoothd to stop this discovery, without waiting for its answer.
    func stop() {
        subscriptions.forEach { $0.cancel() }
        _ = connection.send(BlueZInterface.service, adapter, BlueZInterface.adapter, "StopDiscovery")
    }
}
