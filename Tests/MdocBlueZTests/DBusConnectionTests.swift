@testable import MdocBLE
@testable import MdocBlueZ
import MdocDBus
import MdocTestSupport
import Testing

/// The D-Bus connection under the BlueZ transport, against a real dbus-daemon on a private bus:
/// every D-Bus type BlueZ uses survives a method call and its reply, errors come back with their
/// names, and signals arrive in order.
@Suite("D-Bus connection on a private dbus-daemon", .timeLimit(.minutes(1)))
struct DBusConnectionTests {
    static let path = "/org/swiftmdoc/test"
    static let interface = "org.swiftmdoc.Test"

    /// A server connection answering `Echo` with its arguments and `Fail` with an error.
    static func echoServer(on bus: PrivateBus) async throws -> (DBusConnection, DBusConnection.Registration) {
        let server = try await DBusConnection.bus(at: bus.address)
        let registration = try await server.export(path) { call in
            switch call.member {
            case "Echo": return .reply(call.arguments)
            case "Fail": return .error(DBusError(named: "org.swiftmdoc.Error.Test", message: "as asked"))
            default: return .notHandled
            }
        }
        return (server, registration)
    }

    @Test("every type BlueZ uses survives a call and its reply")
    func roundTrip() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let (server, _) = try await Self.echoServer(on: bus)
        defer { server.close() }
        let client = try await DBusConnection.bus(at: bus.address)
        defer { client.close() }
        let reply = try await client.call(server.uniqueName, Self.path, Self.interface, "Echo", DBusSamples.everyType)
        #expect(reply == DBusSamples.everyType)
        #expect(reply[16].dictionaryValue?["MTU"]?.intValue == 517)
        #expect(reply[19].unwrapped == .boolean(true))
    }

    @Test("error replies keep their names; unknown methods and names are errors")
    func errors() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let (server, registration) = try await Self.echoServer(on: bus)
        defer { server.close() }
        let client = try await DBusConnection.bus(at: bus.address)
        defer { client.close() }

        let failed = await #expect(throws: DBusError.self) {
            try await client.call(server.uniqueName, Self.path, Self.interface, "Fail")
        }
        #expect(failed?.name == "org.swiftmdoc.Error.Test")
        #expect(failed?.message == "as asked")
        let unknown = await #expect(throws: DBusError.self) {
            try await client.call(server.uniqueName, Self.path, Self.interface, "Missing")
        }
        #expect(unknown?.name == DBusError.unknownMethodName || unknown?.name == "org.freedesktop.DBus.Error.UnknownObject")
        let nobody = await #expect(throws: DBusError.self) {
            try await client.call("org.bluez", "/", BlueZInterface.objectManager, "GetManagedObjects")
        }
        #expect(nobody?.name == DBusError.serviceUnknownName)

        // After the registration is cancelled the object is gone.
        registration.cancel()
        let gone = await #expect(throws: DBusError.self) {
            try await client.call(server.uniqueName, Self.path, Self.interface, "Echo", [.byte(1)])
        }
        #expect(gone?.name != nil)
    }

    @Test("signals arrive in the order they were emitted")
    func signalsInOrder() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try await DBusConnection.bus(at: bus.address)
        defer { server.close() }
        let client = try await DBusConnection.bus(at: bus.address)
        defer { client.close() }
        let (stream, sink) = AsyncStream.makeStream(of: DBusValue.self)
        let count = 200
        let rule = DBusMatchRule(sender: await server.uniqueName, interface: BlueZInterface.properties, member: "PropertiesChanged")
        let registration = try await client.subscribe(rule) { signal in
                if let value = signal.arguments.dropFirst().first?.dictionaryValue?["Value"] { sink.yield(value) }
            }
        defer { registration.cancel() }
        for index in 0..<count {
            server.emit(Self.path, BlueZInterface.properties, "PropertiesChanged", [
                .string(BlueZInterface.gattCharacteristic), .properties([("Value", .bytes([UInt8(index % 256), UInt8(index / 256)]))]),
                .strings([]),
            ])
        }
        var received: [[UInt8]] = []
        for await value in stream {
            received.append(value.bytesValue ?? [])
            if received.count == count { break }
        }
        let expected: [[UInt8]] = (0..<count).map { index in [UInt8(index % 256), UInt8(index / 256)] }
        #expect(received == expected)
    }

    @Test("the watch of bluetoothd's name takes the bus's NameOwnerChanged about org.bluez only, and tells its leaving")
    func bluetoothdOwnerChanged() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let watcher = try await DBusConnection.bus(at: bus.address)
        defer { watcher.close() }
        let daemon = try await DBusConnection.bus(at: bus.address)
        defer { daemon.close() }
        let (stream, sink) = AsyncStream.makeStream(of: (name: String, left: Bool).self)
        let registration = try await watcher.subscribe(BlueZInterface.bluetoothdOwnerChanged) { signal in
            sink.yield((signal.arguments.first?.stringValue ?? "", BlueZInterface.saysBluetoothdLeft(signal)))
        }
        defer { registration.cancel() }
        for (member, name) in [("RequestName", "org.bluez.other"), ("RequestName", "org.bluez"), ("ReleaseName", "org.bluez.other"),
                               ("ReleaseName", "org.bluez"), ("RequestName", "org.bluez")] {
            let arguments: [DBusValue] = member == "RequestName" ? [.string(name), .uint32(0)] : [.string(name)]
            _ = try await daemon.call(BlueZInterface.bus, BlueZInterface.busPath, BlueZInterface.bus, member, arguments)
        }
        var received: [(name: String, left: Bool)] = []
        for await signal in stream {
            received.append(signal)
            if received.count == 3 { break }
        }
        #expect(received.map(\.name) == ["org.bluez", "org.bluez", "org.bluez"])
        #expect(received.map(\.left) == [false, true, false])
    }

    @Test("a watch of a name nobody owns is refused: its signals could not be told from another's; once owned, it hears them")
    func aWatchOfAnUnownedNameIsRefused() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let watcher = try await DBusConnection.bus(at: bus.address)
        defer { watcher.close() }
        let daemon = try await DBusConnection.bus(at: bus.address)
        defer { daemon.close() }
        let rule = DBusMatchRule(sender: BlueZInterface.service, interface: BlueZInterface.properties, member: "PropertiesChanged")
        await #expect {
            try await watcher.subscribe(rule) { _ in }
        } throws: { error in
            (error as? DBusError)?.name == DBusError.serviceUnknownName
        }
        _ = try await daemon.call(BlueZInterface.bus, BlueZInterface.busPath, BlueZInterface.bus, "RequestName",
                                  [.string(BlueZInterface.service), .uint32(0)])
        let (stream, sink) = AsyncStream.makeStream(of: String.self)
        let registration = try await watcher.subscribe(rule) { signal in sink.yield(signal.path) }
        defer { registration.cancel() }
        daemon.emit("/org/bluez/hci0", BlueZInterface.properties, "PropertiesChanged", [
            .string(BlueZInterface.adapter), .properties([]), .strings([]),
        ])
        var paths = stream.makeAsyncIterator()
        #expect(await paths.next() == "/org/bluez/hci0")
    }

    @Test("a call on a closed connection fails at once; a bus that is not there is an error")
    func closed() async throws {
        let bus = try PrivateBus()
        let client = try await DBusConnection.bus(at: bus.address)
        client.close()
        let error = await #expect(throws: DBusError.self) {
            try await client.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId")
        }
        #expect(error?.message.contains("closed") == true)
        bus.stop()
        await #expect(throws: DBusError.self) { try await DBusConnection.bus(at: "unix:path=/nonexistent/swift-mdoc-bus") }
    }
}
