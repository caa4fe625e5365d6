@testable import MdocBLE
import MdocTestSupport
import Testing

@Suite("GATTClient against GATTServerConnection over a loopback bearer (Core Vol 3 Part G 4)")
struct GATTClientTests {
    typealias F = GATTTestFixtures

    /// A client and a served fixture database on one loopback link.
    struct Link {
        let pair = LoopbackBearerPair()
        let client: GATTClient
        let connection: GATTServerConnection

        init() {
            client = GATTClient(bearer: pair.central)
            connection = GATTServerConnection(server: F.server(), bearer: pair.peripheral)
        }

        func characteristics() async throws -> [BluetoothUUID: GATTRemoteCharacteristic] {
            let service = try await client.discoverPrimaryService(F.service)
            let list = try await client.discoverCharacteristics(of: service)
            return Dictionary(uniqueKeysWithValues: list.map { ($0.uuid, $0) })
        }
    }

    @Test("the 18013-5 connection sequence: MTU, discovery, Ident, subscriptions, State, notifications")
    func connectionSequence() async throws {
        let link = Link()
        #expect(try await link.client.exchangeMTU(515) == 515)
        #expect(await link.client.mtu == 515)
        #expect(try await link.connection.nextEvent() == .mtuExchanged(515))
        #expect(await link.connection.mtu == 515)

        let service = try await link.client.discoverPrimaryService(F.service)
        #expect(service == GATTRemoteService(uuid: F.service, handle: 1, endGroupHandle: 13))
        let characteristics = try await link.characteristics()
        let state = try #require(characteristics[F.state])
        let server2Client = try #require(characteristics[F.server2Client])
        let ident = try #require(characteristics[F.ident])
        #expect(state == GATTRemoteCharacteristic(uuid: F.state, properties: [.notify, .writeWithoutResponse],
                                                  declarationHandle: 2, valueHandle: 3,
                                                  clientCharacteristicConfigurationHandle: 4))
        #expect(server2Client.clientCharacteristicConfigurationHandle == 9)
        #expect(characteristics[F.client2Server]?.clientCharacteristicConfigurationHandle == nil)
        #expect(ident.valueHandle == 11)

        #expect(try await link.client.read(ident) == F.identValue)
        try await link.client.setNotifications(true, for: state)
        try await link.client.setNotifications(true, for: server2Client)
        try await link.client.writeWithoutResponse([0x01], to: state)
        #expect(try await link.connection.nextEvent() == .subscriptionChanged(characteristic: F.state, notifications: true))
        #expect(try await link.connection.nextEvent()
                == .subscriptionChanged(characteristic: F.server2Client, notifications: true))
        #expect(try await link.connection.nextEvent() == .written(characteristic: F.state, value: [1], withResponse: false))

        let message = [UInt8](repeating: 0xAB, count: 512)
        try await link.connection.notify(F.server2Client, value: message)
        let notification = try #require(try await link.client.nextNotification())
        #expect(notification.handle == 8)
        #expect(notification.value == message)

        link.client.close()
        #expect(try await link.client.nextNotification() == nil)
        #expect(try await link.connection.nextEvent() == nil)
    }

    @Test("discovery and long reads work at the default MTU 23 (Read By Type and Read Blob loops)")
    func defaultMTU() async throws {
        let link = Link()
        let characteristics = try await link.characteristics()
        #expect(characteristics.count == 5)
        #expect(characteristics[F.server2Client]?.clientCharacteristicConfigurationHandle == 9)
        let long = try #require(characteristics[F.long])
        #expect(try await link.client.read(long) == F.longValue)
        try await link.client.write([9, 8, 7], to: long)
        #expect(try await link.client.read(long) == [9, 8, 7])
        #expect(await link.connection.value(of: F.long) == [9, 8, 7])
    }

    @Test("a read of exactly MTU − 1 bytes ends at an empty blob")
    func readExactMultiple() async throws {
        let pair = LoopbackBearerPair()
        let server = GATTServer(services: [GATTService(uuid: F.service, characteristics: [
            GATTCharacteristic(uuid: F.ident, properties: [.read], value: .init(repeating: 3, count: 44)),
        ])])
        let connection = GATTServerConnection(server: server, bearer: pair.peripheral)
        let client = GATTClient(bearer: pair.central)
        let service = try await client.discoverPrimaryService(F.service)
        let ident = try #require(try await client.discoverCharacteristics(of: service).first)
        #expect(try await client.read(ident) == .init(repeating: 3, count: 44))
        _ = connection
    }

    @Test("a missing service is serviceNotFound; Error Responses surface as attError")
    func errors() async throws {
        let link = Link()
        await #expect(throws: BLEError(.serviceNotFound, "")) {
            try await link.client.discoverPrimaryService(BluetoothUUID(uint16: 0x180F))
        }
        let characteristics = try await link.characteristics()
        let ident = try #require(characteristics[F.ident])
        do {
            try await link.client.write([1], to: ident)
            Issue.record("the write succeeded")
        } catch {
            #expect(error.code == .attError)
            #expect(error.attErrorCode == .writeNotPermitted)
        }
        await #expect(throws: BLEError(.characteristicNotFound, "")) {
            try await link.client.setNotifications(true, for: ident)
        }
    }

    @Test("writes are limited to MTU − 3 bytes")
    func writeSizes() async throws {
        let link = Link()
        let characteristics = try await link.characteristics()
        let client2Server = try #require(characteristics[F.client2Server])
        let long = try #require(characteristics[F.long])
        try await link.client.writeWithoutResponse(.init(repeating: 1, count: 20), to: client2Server)
        await #expect(throws: BLEError(.pduTooLarge, "")) {
            try await link.client.writeWithoutResponse(.init(repeating: 1, count: 21), to: client2Server)
        }
        try await link.client.write(.init(repeating: 1, count: 20), to: long)
        await #expect(throws: BLEError(.pduTooLarge, "")) {
            try await link.client.write(.init(repeating: 1, count: 21), to: long)
        }
        #expect(try await link.connection.nextEvent()
                == .written(characteristic: F.client2Server, value: .init(repeating: 1, count: 20), withResponse: false))
    }

    @Test("the server connection notifies only subscribed clients")
    func notifyRequiresSubscription() async throws {
        let link = Link()
        await #expect(throws: BLEError(.notSubscribed, "")) {
            try await link.connection.notify(F.server2Client, value: [1])
        }
        let characteristics = try await link.characteristics()
        try await link.client.setNotifications(true, for: try #require(characteristics[F.server2Client]))
        #expect(await link.connection.isSubscribed(F.server2Client))
        try await link.connection.notify(F.server2Client, value: [1])
        #expect(try await link.client.nextNotification()?.value == [1])
    }

    @Test("concurrent requests are serialized, one outstanding at a time")
    func concurrentRequests() async throws {
        let link = Link()
        let characteristics = try await link.characteristics()
        let ident = try #require(characteristics[F.ident])
        let long = try #require(characteristics[F.long])
        let first = Task { try await link.client.read(long) }
        let second = Task { try await link.client.read(ident) }
        let third = Task { try await link.client.read(long) }
        #expect(try await [first.value, second.value, third.value] == [F.longValue, F.identValue, F.longValue])
    }

    @Test("MTU exchange clamps to the bearer and happens once")
    func mtuExchangeOnce() async throws {
        let link = Link()
        #expect(try await link.client.exchangeMTU(9000) == 517)
        await #expect(throws: BLEError(.protocolViolation, "")) { try await link.client.exchangeMTU(515) }
    }
}

@Suite("GATTClient against a scripted peer (Core Vol 3 Part F 3.3)")
struct GATTClientProtocolTests {
    static let ident = GATTRemoteCharacteristic(uuid: GATTTestFixtures.ident, properties: [.read], declarationHandle: 10,
                                                valueHandle: 11, clientCharacteristicConfigurationHandle: nil)

    @Test("a request unanswered within the transaction timeout fails and closes the bearer")
    func transactionTimeout() async throws {
        #expect(GATTClient.transactionTimeout == .seconds(30))
        let pair = LoopbackBearerPair()
        let client = GATTClient(bearer: pair.central, transactionTimeout: .milliseconds(50))
        await #expect(throws: BLEError(.timeout, "")) { try await client.read(Self.ident) }
        #expect(try await pair.peripheral.receive() == [0x0A, 0x0B, 0x00])
        #expect(try await pair.peripheral.receive() == nil)
        await #expect(throws: BLEError(.timeout, "")) { try await client.read(Self.ident) }
    }

    @Test("a response within the transaction timeout completes the request")
    func answeredInTime() async throws {
        let pair = LoopbackBearerPair()
        let client = GATTClient(bearer: pair.central)
        let value = Task { try await client.read(Self.ident) }
        #expect(try await pair.peripheral.receive() == [0x0A, 0x0B, 0x00])
        try await pair.peripheral.send([0x0B, 0x01, 0x02])
        #expect(try await value.value == [1, 2])
    }

    @Test("requests from the peer get Request Not Supported; commands get nothing")
    func peerRequests() async throws {
        let pair = LoopbackBearerPair()
        let client = GATTClient(bearer: pair.central)
        try await pair.peripheral.send(ATTPDU.readRequest(attributeHandle: 1).bytes)
        #expect(try await pair.peripheral.receive() == [0x01, 0x0A, 0x00, 0x00, 0x06])
        try await pair.peripheral.send(ATTPDU.writeCommand(attributeHandle: 1, attributeValue: [1]).bytes)
        try await pair.peripheral.send([0x0E, 0x01, 0x00, 0x02, 0x00])
        #expect(try await pair.peripheral.receive() == [0x01, 0x0E, 0x00, 0x00, 0x06])
        try await pair.peripheral.send([0x0A])
        #expect(try await pair.peripheral.receive() == [0x01, 0x0A, 0x00, 0x00, 0x06])
        _ = client
    }

    @Test("indications are queued and confirmed")
    func indications() async throws {
        let pair = LoopbackBearerPair()
        let client = GATTClient(bearer: pair.central)
        try await pair.peripheral.send(ATTPDU.handleValueIndication(attributeHandle: 3, attributeValue: [2]).bytes)
        #expect(try await pair.peripheral.receive() == [0x1E])
        let indication = try #require(try await client.nextNotification())
        #expect(indication.handle == 3 && indication.value == [2])
    }

    @Test("the notification queue holds its limit; one more is queueOverflow after the queued ones",
          arguments: [0, 1])
    func notificationQueueLimit(extra: Int) async throws {
        let pair = LoopbackBearerPair()
        let client = GATTClient(bearer: pair.central)
        let count = GATTClient.maximumQueuedNotifications + extra
        for index in 0..<count {
            try await pair.peripheral.send([0x1B, 0x08, 0x00, UInt8(index & 0xFF)])
        }
        // The answer to a request sent after them shows the client has taken them all in.
        try await pair.peripheral.send(ATTPDU.readRequest(attributeHandle: 1).bytes)
        #expect(try await pair.peripheral.receive() == [0x01, 0x0A, 0x00, 0x00, 0x06])
        pair.peripheral.close()
        for index in 0..<GATTClient.maximumQueuedNotifications {
            #expect(try await client.nextNotification()?.value == [UInt8(index & 0xFF)])
        }
        if extra == 0 {
            #expect(try await client.nextNotification() == nil)
        } else {
            await #expect(throws: BLEError(.queueOverflow, "")) { try await client.nextNotification() }
        }
    }

    @Test("a response nobody asked for is a protocol violation that ends the link")
    func unsolicitedResponse() async throws {
        let pair = LoopbackBearerPair()
        let client = GATTClient(bearer: pair.central)
        try await pair.peripheral.send([0x0B, 0x01])
        #expect(try await pair.peripheral.receive() == nil)
        await #expect(throws: BLEError(.protocolViolation, "")) { try await client.nextNotification() }
        await #expect(throws: BLEError(.protocolViolation, "")) { try await client.read(Self.ident) }
    }

    @Test("a malformed response fails the request; a mismatched one is a protocol violation")
    func malformedResponses() async throws {
        let pair = LoopbackBearerPair()
        let client = GATTClient(bearer: pair.central)
        let first = Task { await outcome { () async throws(BLEError) in try await client.exchangeMTU(515) } }
        _ = try await pair.peripheral.receive()
        try await pair.peripheral.send([0x03, 0x05])
        await #expect(throws: BLEError(.malformedPDU, "")) { try await first.value.get() }
        let second = Task { await outcome { () async throws(BLEError) in try await client.read(Self.ident) } }
        _ = try await pair.peripheral.receive()
        try await pair.peripheral.send([0x01, 0x0A, 0x0B, 0x00, 0x02])
        do {
            _ = try await second.value.get()
            Issue.record("the read succeeded")
        } catch {
            #expect(error.attErrorCode == .readNotPermitted)
            #expect(error.reason == "Read Request (0x0A) on handle 11 failed: Read Not Permitted (0x02)")
        }
        let third = Task { await outcome { () async throws(BLEError) in try await client.read(Self.ident) } }
        _ = try await pair.peripheral.receive()
        try await pair.peripheral.send([0x13])
        await #expect(throws: BLEError(.protocolViolation, "")) { try await third.value.get() }
    }

    @Test("long reads stop at the 512-byte attribute limit; a server sending more is a protocol violation")
    func readLimit() async throws {
        let pair = LoopbackBearerPair()
        let client = GATTClient(bearer: pair.central)
        let value = Task { await outcome { () async throws(BLEError) in try await client.read(Self.ident) } }
        // At MTU 23 every part is 22 bytes: full parts keep the client reading until 512 is passed.
        var offset = 0
        while offset < GATTServer.maximumAttributeValueLength {
            let request = try #require(try await pair.peripheral.receive())
            #expect(request == (offset == 0 ? ATTPDU.readRequest(attributeHandle: 11)
                                            : .readBlobRequest(attributeHandle: 11, valueOffset: UInt16(offset))).bytes)
            try await pair.peripheral.send([offset == 0 ? 0x0B : 0x0D] + .init(repeating: 1, count: 22))
            offset += 22
        }
        await #expect(throws: BLEError(.protocolViolation, "")) { try await value.value.get() }
    }

    @Test("a 512-byte value is read whole through Read Blob")
    func readLargest() async throws {
        let pair = LoopbackBearerPair()
        let largest = (0..<GATTServer.maximumAttributeValueLength).map { UInt8($0 & 0xFF) }
        let server = GATTServer(services: [GATTService(uuid: GATTTestFixtures.service, characteristics: [
            GATTCharacteristic(uuid: GATTTestFixtures.ident, properties: [.read], value: largest),
        ])])
        let connection = GATTServerConnection(server: server, bearer: pair.peripheral)
        let client = GATTClient(bearer: pair.central)
        let service = try await client.discoverPrimaryService(GATTTestFixtures.service)
        let ident = try #require(try await client.discoverCharacteristics(of: service).first)
        #expect(try await client.read(ident) == largest)
        #expect(await connection.mtu == 23)
    }

    @Test("the server connection's event queue holds its limit; one more is queueOverflow", arguments: [0, 1])
    func eventQueueLimit(extra: Int) async throws {
        let pair = LoopbackBearerPair()
        let connection = GATTServerConnection(server: GATTTestFixtures.server(), bearer: pair.peripheral)
        let count = GATTServerConnection.maximumQueuedEvents + extra
        for index in 0..<count {
            try await pair.central.send(ATTPDU.writeCommand(attributeHandle: 6, attributeValue: [UInt8(index & 0xFF)]).bytes)
        }
        // The answer to a request sent after them shows the connection has taken them all in.
        try await pair.central.send(ATTPDU.readRequest(attributeHandle: 11).bytes)
        #expect(try await pair.central.receive() == ATTPDU.readResponse(attributeValue: GATTTestFixtures.identValue).bytes)
        pair.central.close()
        for index in 0..<GATTServerConnection.maximumQueuedEvents {
            #expect(try await connection.nextEvent()
                    == .written(characteristic: GATTTestFixtures.client2Server, value: [UInt8(index & 0xFF)],
                                withResponse: false))
        }
        if extra == 0 {
            #expect(try await connection.nextEvent() == nil)
        } else {
            await #expect(throws: BLEError(.queueOverflow, "")) { try await connection.nextEvent() }
        }
    }

    @Test("a closed link fails the outstanding request with linkClosed")
    func linkClosedDuringRequest() async throws {
        let pair = LoopbackBearerPair()
        let client = GATTClient(bearer: pair.central)
        let value = Task { await outcome { () async throws(BLEError) in try await client.read(Self.ident) } }
        _ = try await pair.peripheral.receive()
        pair.peripheral.close()
        await #expect(throws: BLEError(.linkClosed, "")) { try await value.value.get() }
        #expect(try await client.nextNotification() == nil)
    }

    @Test("a discovery answer outside the service range is a protocol violation")
    func discoveryOutOfRange() async throws {
        let pair = LoopbackBearerPair()
        let client = GATTClient(bearer: pair.central)
        let service = GATTRemoteService(uuid: GATTTestFixtures.service, handle: 1, endGroupHandle: 5)
        let characteristics = Task {
            await outcome { () async throws(BLEError) in try await client.discoverCharacteristics(of: service) }
        }
        _ = try await pair.peripheral.receive()
        // A declaration naming value handle 9, beyond the service's last handle 5.
        let list = try ATTAttributeDataList([ATTAttributeData(handle: 2, value: [0x02, 0x09, 0x00, 0x00, 0x2A])])
        try await pair.peripheral.send(ATTPDU.readByTypeResponse(list).bytes)
        await #expect(throws: BLEError(.protocolViolation, "")) { try await characteristics.value.get() }
    }
}

/// Runs `body`, keeping its typed error.
func outcome<T>(_ body: () async throws(BLEError) -> T) async -> Result<T, BLEError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
