import Logging
import Synchronization

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

    /// The devices bluetoothd reported during the discovery, recorded on the D-Bus thread, and
    /// those not to offer again.
    private final class Sightings: Sendable {
        private struct State: Sendable {
            var sighted: [String] = []
            var excluded: Set<String> = []
        }

        private let state = Mutex(State())

        func record(_ path: String) {
            state.withLock { state in
                if !state.sighted.contains(path) { state.sighted.append(path) }
            }
        }

        func exclude(_ path: String) {
            state.withLock { _ = $0.excluded.insert(path) }
        }

        /// The devices reported, in order, and those excluded.
        var snapshot: (sighted: [String], excluded: Set<String>) {
            state.withLock { ($0.sighted, $0.excluded) }
        }
    }

    private let uuid: String
    private let adapter: String
    private let connection: DBusConnection
    private let subscription: DBusConnection.Registration
    private let sightings: Sightings

    private init(uuid: String, adapter: String, connection: DBusConnection, subscription: DBusConnection.Registration,
                 sightings: Sightings) {
        self.uuid = uuid
        self.adapter = adapter
        self.connection = connection
        self.subscription = subscription
        self.sightings = sightings
    }

    /// Starts discovery on `adapter` with a filter on `uuid` (lowercase) and LE, watching the
    /// devices' RSSI reports from before the first advertisement can arrive. Throws
    /// `transportUnavailable` when bluetoothd refuses.
    static func start(_ uuid: String, over connection: DBusConnection, adapter: String,
                      logger: Logger) async throws(BLEError) -> BlueZDiscovery {
        let sightings = Sightings()
        let subscription: DBusConnection.Registration
        do {
            subscription = try await connection.subscribe(
                "type='signal',sender='\(BlueZInterface.service)',interface='\(BlueZInterface.properties)',"
                    + "member='PropertiesChanged',path_namespace='\(adapter)'") { signal in
                guard signal.arguments.first?.stringValue == BlueZInterface.device,
                      signal.arguments.dropFirst().first?.dictionaryValue?["RSSI"] != nil else { return }
                sightings.record(signal.path)
            }
        } catch {
            throw BLEError(.transportUnavailable, "watching the devices of \(adapter) on D-Bus failed: \(error)")
        }
        let discovery = BlueZDiscovery(uuid: uuid, adapter: adapter, connection: connection, subscription: subscription,
                                       sightings: sightings)
        do {
            _ = try await connection.call(BlueZInterface.service, adapter, BlueZInterface.adapter, "SetDiscoveryFilter", [
                .properties([("UUIDs", .strings([uuid])), ("Transport", .string("le"))]),
            ])
            _ = try await connection.call(BlueZInterface.service, adapter, BlueZInterface.adapter, "StartDiscovery")
        } catch {
            subscription.cancel()
            throw BLEError(.transportUnavailable, "bluetoothd refused to start discovery on \(adapter): \(error)")
        }
        logger.debug("discovering through bluetoothd", metadata: ["service": "\(uuid)", "adapter": "\(adapter)"])
        return discovery
    }

    /// The next candidate not excluded, waiting until `deadline`; throws `peerNotFound` then.
    func next(until deadline: ContinuousClock.Instant) async throws(BLEError) -> Candidate {
        while ContinuousClock.now < deadline {
            let objects = try await BlueZClientTransport.managedObjects(over: connection)
            let (sighted, excluded) = sightings.snapshot
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
            try? await Task.sleep(for: BlueZClientTransport.pollInterval)
        }
        throw BLEError(.peerNotFound, "no device advertising service \(uuid) was discovered")
    }

    /// Offers `path` no more.
    func exclude(_ path: String) {
        sightings.exclude(path)
    }

    /// Stops watching and asks bluetoothd to stop this discovery.
    func stop() {
        subscription.cancel()
        Task { [connection, adapter] in
            _ = try? await connection.call(BlueZInterface.service, adapter, BlueZInterface.adapter, "StopDiscovery")
        }
    }
}
