#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import MdocBLE
import MdocDBus
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// A GATT application and its advertisement, exported on D-Bus for bluetoothd to host
/// (BlueZ doc/org.bluez.GattManager.rst, org.bluez.LEAdvertisingManager.rst): one service, its
/// characteristics, and an advertisement of the service UUID.
///
/// bluetoothd reads the objects through ObjectManager.GetManagedObjects and Properties.GetAll,
/// then calls WriteValue, ReadValue, StartNotify and StopNotify on the characteristics as the
/// remote client acts; those calls become ``Event``s, in the order they arrived, handed on the
/// connection's event loop to the consumer (held until one attaches). Notifications go out as
/// PropertiesChanged of a characteristic's Value.
final class BlueZGATTApplication: Sendable {
    /// What the remote GATT client did, as bluetoothd reports it.
    enum Event: Sendable, Equatable {
        /// The client wrote `value` to `characteristic` over a link with ATT_MTU `mtu` (0 when
        /// bluetoothd did not say); `device` is the object path of the remote device, nil when
        /// bluetoothd did not say.
        case written(characteristic: BluetoothUUID, value: [UInt8], mtu: Int, device: String?)
        /// The client enabled or disabled notifications of `characteristic`.
        case notifying(characteristic: BluetoothUUID, enabled: Bool)
        /// The client read `characteristic`: the Ident, in mdoc central client mode, which the
        /// mdoc reads before it starts the session (ISO/IEC 18013-5 8.3.3.1.1.4).
        case read(characteristic: BluetoothUUID)
        /// bluetoothd dropped the advertisement on its own (LEAdvertisement1.Release).
        case advertisementReleased
        /// bluetoothd left the system bus, and the application's registration and any link to
        /// it with it.
        case hostLeft
    }

    /// The most events held before a consumer attaches.
    static let eventLimit = 4096

    /// The events not taken yet, the consumer once attached, and whether the objects are gone.
    private struct Events {
        var held = CircularBuffer<Event>()
        var consumer: (@Sendable (Event?) -> Void)?
        var hasEnded = false
    }

    /// The application's root object, which bluetoothd is given.
    let path: String
    /// The advertisement object.
    let advertisementPath: String

    private let service: GATTService
    private let connection: DBusConnection
    private let events: NIOLoopBoundBox<Events>
    private let registration = NIOLockedValueBox<DBusConnection.Registration?>(nil)

    private static let counter = Atomic<Int>(0)

    /// The objects for `service` on `connection`, not yet exported.
    init(service: GATTService, connection: DBusConnection) {
        let number = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        path = "/org/swiftmdoc/radio\(getpid())_\(number)"
        advertisementPath = path + "/advertisement0"
        self.service = service
        self.connection = connection
        events = .makeBoxSendingValue(Events(), eventLoop: connection.eventLoop)
    }

    /// Exports the objects on the bus; they answer until ``unexport()``.
    func export() async throws(DBusError) {
        let exported = try await connection.export(path) { [self] call in handle(call) }
        registration.withLockedValue { $0 = exported }
    }

    /// Stops answering for the objects; the consumer gets nil after the events held.
    func unexport() {
        registration.withLockedValue { registration in
            registration?.cancel()
            registration = nil
        }
        let events = events
        connection.eventLoop.execute {
            events.value.hasEnded = true
            if events.value.held.isEmpty, let consumer = events.value.consumer { consumer(nil) }
        }
    }

    /// Hands the events held, then each later one, to `consumer`, and nil once the objects are
    /// gone. On the connection's event loop, once.
    func deliverEvents(to consumer: @escaping @Sendable (Event?) -> Void) {
        while let event = events.value.held.popFirst() { consumer(event) }
        events.value.consumer = consumer
        if events.value.hasEnded { consumer(nil) }
    }

    /// Reports that bluetoothd left the system bus, as an event after those already reported.
    func hostLeft() {
        connection.eventLoop.execute { self.yield(.hostLeft) }
    }

    /// Hands `event` to the consumer, or holds it (on the connection's event loop, where
    /// bluetoothd's calls are handled).
    private func yield(_ event: Event) {
        guard !events.value.hasEnded else { return }
        if let consumer = events.value.consumer {
            consumer(event)
        } else if events.value.held.count < Self.eventLimit {
            events.value.held.append(event)
        }
    }

    /// Sends `value` as a notification of `characteristic`: PropertiesChanged of its Value,
    /// which bluetoothd turns into an ATT Handle Value Notification to the subscribed client.
    func notify(_ characteristic: BluetoothUUID, _ value: [UInt8]) {
        guard let index = service.characteristics.firstIndex(where: { $0.uuid == characteristic }) else { return }
        connection.emit(characteristicPath(index), BlueZInterface.properties, "PropertiesChanged", [
            .string(BlueZInterface.gattCharacteristic),
            .properties([("Value", .bytes(value))]),
            .strings([]),
        ])
    }

    // MARK: Objects

    private var servicePath: String { path + "/service0" }

    private func characteristicPath(_ index: Int) -> String { servicePath + "/char\(index)" }

    private var serviceProperties: [(String, DBusValue)] {
        [("UUID", .string(service.uuid.uuid.uuidString.lowercased())), ("Primary", .boolean(true))]
    }

    private func characteristicProperties(_ characteristic: GATTCharacteristic) -> [(String, DBusValue)] {
        var flags: [String] = []
        if characteristic.properties.contains(.read) { flags.append("read") }
        if characteristic.properties.contains(.writeWithoutResponse) { flags.append("write-without-response") }
        if characteristic.properties.contains(.write) { flags.append("write") }
        if characteristic.properties.contains(.notify) { flags.append("notify") }
        return [
            ("UUID", .string(characteristic.uuid.uuid.uuidString.lowercased())),
            ("Service", .objectPath(servicePath)),
            ("Flags", .strings(flags)),
        ]
    }

    private var advertisementProperties: [(String, DBusValue)] {
        // Type "peripheral": connectable (org.bluez.LEAdvertisement.rst); the service UUID in
        // the advertising data, as 18013-5 asks (8.3.3.1.1.4).
        [("Type", .string("peripheral")), ("ServiceUUIDs", .strings([service.uuid.uuid.uuidString.lowercased()]))]
    }

    /// The objects under the root with their interfaces' properties (GetManagedObjects).
    private var managedObjects: DBusValue {
        var objects: [DBusDictionaryEntry] = [
            DBusDictionaryEntry(key: .objectPath(servicePath), value: interfaces([(BlueZInterface.gattService, serviceProperties)])),
        ]
        for (index, characteristic) in service.characteristics.enumerated() {
            objects.append(DBusDictionaryEntry(
                key: .objectPath(characteristicPath(index)),
                value: interfaces([(BlueZInterface.gattCharacteristic, characteristicProperties(characteristic))])))
        }
        return .dictionary(key: "o", value: "a{sa{sv}}", objects)
    }

    private func interfaces(_ list: [(String, [(String, DBusValue)])]) -> DBusValue {
        .dictionary(key: "s", value: "a{sv}", list.map { DBusDictionaryEntry(key: .string($0.0), value: .properties($0.1)) })
    }

    /// The interface → properties of the object at `objectPath`, nil for none of ours.
    private func properties(at objectPath: String) -> [String: [(String, DBusValue)]]? {
        if objectPath == servicePath { return [BlueZInterface.gattService: serviceProperties] }
        if objectPath == advertisementPath { return [BlueZInterface.advertisement: advertisementProperties] }
        if let index = characteristicIndex(objectPath) {
            return [BlueZInterface.gattCharacteristic: characteristicProperties(service.characteristics[index])]
        }
        return nil
    }

    private func characteristicIndex(_ objectPath: String) -> Int? {
        let prefix = servicePath + "/char"
        guard objectPath.hasPrefix(prefix), let index = Int(objectPath.dropFirst(prefix.count)),
              service.characteristics.indices.contains(index) else { return nil }
        return index
    }

    // MARK: Calls from bluetoothd

    private func handle(_ call: DBusConnection.Delivery) -> DBusConnection.Handling {
        switch (call.interface, call.member) {
        case (BlueZInterface.objectManager, "GetManagedObjects") where call.path == path:
            return .reply([managedObjects])
        case (BlueZInterface.properties, "GetAll"):
            guard let interface = call.arguments.first?.stringValue, let all = properties(at: call.path)?[interface] else {
                return .error(DBusError(named: "org.freedesktop.DBus.Error.UnknownInterface", message: "no such interface"))
            }
            return .reply([.properties(all)])
        case (BlueZInterface.properties, "Get"):
            guard call.arguments.count == 2, let interface = call.arguments[0].stringValue, let name = call.arguments[1].stringValue,
                  let value = properties(at: call.path)?[interface]?.first(where: { $0.0 == name })?.1 else {
                return .error(DBusError(named: "org.freedesktop.DBus.Error.UnknownProperty", message: "no such property"))
            }
            return .reply([.variant(value)])
        case (BlueZInterface.advertisement, "Release") where call.path == advertisementPath:
            yield(.advertisementReleased)
            return .reply([])
        case (BlueZInterface.gattCharacteristic, let member):
            guard let index = characteristicIndex(call.path) else { return .notHandled }
            return handleCharacteristic(service.characteristics[index], member, call.arguments)
        default:
            return .notHandled
        }
    }

    /// org.bluez.GattCharacteristic1's methods (doc/org.bluez.GattCharacteristic.rst).
    private func handleCharacteristic(_ characteristic: GATTCharacteristic, _ member: String, _ arguments: [DBusValue]) -> DBusConnection.Handling {
        switch member {
        case "ReadValue":
            guard characteristic.properties.contains(.read) else { return .error(Self.notPermitted("Read not permitted")) }
            let offset = arguments.first?.dictionaryValue?["offset"]?.intValue ?? 0
            guard offset <= characteristic.value.count else {
                return .error(DBusError(named: "org.bluez.Error.InvalidOffset", message: "offset \(offset) beyond the value"))
            }
            yield(.read(characteristic: characteristic.uuid))
            return .reply([.bytes(Array(characteristic.value[offset...]))])
        case "WriteValue":
            guard characteristic.properties.contains(.writeWithoutResponse) || characteristic.properties.contains(.write) else {
                return .error(Self.notPermitted("Write not permitted"))
            }
            guard let value = arguments.first?.bytesValue else {
                return .error(DBusError.malformed("WriteValue needs a value (ay)"))
            }
            let options = arguments.dropFirst().first?.dictionaryValue
            yield(.written(characteristic: characteristic.uuid, value: value, mtu: options?["mtu"]?.intValue ?? 0,
                                     device: options?["device"]?.stringValue))
            return .reply([])
        case "StartNotify", "StopNotify":
            guard characteristic.properties.contains(.notify) else { return .error(Self.notPermitted("Notify not supported")) }
            yield(.notifying(characteristic: characteristic.uuid, enabled: member == "StartNotify"))
            return .reply([])
        default:
            return .notHandled
        }
    }

    private static func notPermitted(_ message: String) -> DBusError {
        DBusError(named: BlueZInterface.notPermittedError, message: message)
    }
}
