@testable import MdocBLE
import MdocTestSupport
import Testing

@Suite("GATTServer: attribute database and ATT server (Core Vol 3 Part G 3-4, Part F 3.4)")
struct GATTServerTests {
    typealias F = GATTTestFixtures

    @Test("handles are assigned in order with a CCCD after each notify characteristic")
    func handleLayout() {
        let server = F.server()
        #expect(server.valueHandle(of: F.state) == 3)
        #expect(server.valueHandle(of: F.client2Server) == 6)
        #expect(server.valueHandle(of: F.server2Client) == 8)
        #expect(server.valueHandle(of: F.ident) == 11)
        #expect(server.valueHandle(of: F.long) == 13)
        #expect(server.valueHandle(of: BluetoothUUID(uint16: 0x1234)) == nil)
        #expect(server.mtu == 23)
        #expect(server.value(of: F.ident) == F.identValue)
    }

    @Test("primary service discovery: Read By Group Type, then Attribute Not Found past the end")
    func readByGroupType() throws {
        var server = F.server()
        let response = try F.answer(&server, .readByGroupTypeRequest(startingHandle: 1, endingHandle: 0xFFFF,
                                                                      attributeGroupType: .primaryService))
        let expected = try ATTGroupDataList([ATTGroupData(handle: 1, endGroupHandle: 13, value: F.service.littleEndianBytes)])
        #expect(response == .readByGroupTypeResponse(expected))
        #expect(try F.answer(&server, .readByGroupTypeRequest(startingHandle: 14, endingHandle: 0xFFFF,
                                                               attributeGroupType: .primaryService))
                == F.error(.readByGroupTypeRequest, 14, .attributeNotFound))
        #expect(try F.answer(&server, .readByGroupTypeRequest(startingHandle: 1, endingHandle: 0xFFFF,
                                                               attributeGroupType: .characteristic))
                == F.error(.readByGroupTypeRequest, 1, .unsupportedGroupType))
    }

    @Test("Read By Group Type lists as many 16-bit services as fit MTU 23")
    func readByGroupTypeTruncation() throws {
        var server = GATTServer(services: (0..<5).map {
            GATTService(uuid: BluetoothUUID(uint16: 0x1800 + UInt16($0)), characteristics: [])
        })
        // 2 + n * (4 + 2) <= 23: three entries.
        guard case .readByGroupTypeResponse(let list) = try F.answer(
            &server, .readByGroupTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeGroupType: .primaryService))
        else { Issue.record("not a Read By Group Type Response"); return }
        #expect(list.entries.map(\.handle) == [1, 2, 3])
        #expect(list.entries.map(\.endGroupHandle) == [1, 2, 3])
    }

    @Test("Find By Type Value finds the service by UUID with its group end")
    func findByTypeValue() throws {
        var server = F.server()
        let request = ATTPDU.findByTypeValueRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: 0x2800,
                                                    attributeValue: F.service.littleEndianBytes)
        #expect(try F.answer(&server, request)
                == .findByTypeValueResponse([ATTHandlesInformation(foundAttributeHandle: 1, groupEndHandle: 13)]))
        let other = ATTPDU.findByTypeValueRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: 0x2800,
                                                  attributeValue: F.state.littleEndianBytes)
        #expect(try F.answer(&server, other) == F.error(.findByTypeValueRequest, 1, .attributeNotFound))
    }

    @Test("characteristic discovery at MTU 23 returns one 128-bit declaration per response")
    func readByTypeAtDefaultMTU() throws {
        var server = F.server()
        var start: UInt16 = 1
        var found: [ATTAttributeData] = []
        while true {
            let response = try F.answer(&server, .readByTypeRequest(startingHandle: start, endingHandle: 13,
                                                                     attributeType: .characteristic))
            guard case .readByTypeResponse(let list) = response else {
                #expect(response == F.error(.readByTypeRequest, start, .attributeNotFound))
                break
            }
            #expect(ATTPDU.readByTypeResponse(list).bytes.count <= 23)
            found += list.entries
            start = list.entries[list.entries.count - 1].handle + 1
        }
        // The four 128-bit characteristics come one per response (2 + 2 + 19 = 23 bytes); the
        // 16-bit one is alone because its value length differs.
        #expect(found.map(\.handle) == [2, 5, 7, 10, 12])
        #expect(found[0].value == [0x14, 0x03, 0x00] + F.state.littleEndianBytes)
        #expect(found[4].value == [0x0A, 0x0D, 0x00, 0x00, 0x2A])
    }

    @Test("after an MTU exchange one Read By Type response holds all equal-length declarations")
    func readByTypeAfterExchange() throws {
        var server = F.server()
        _ = server.receive(ATTPDU.exchangeMTURequest(clientRxMTU: 515).bytes)
        guard case .readByTypeResponse(let list) = try F.answer(
            &server, .readByTypeRequest(startingHandle: 1, endingHandle: 13, attributeType: .characteristic))
        else { Issue.record("not a Read By Type Response"); return }
        #expect(list.entries.map(\.handle) == [2, 5, 7, 10])
    }

    @Test("Read By Type cuts long values to MTU − 4 and refuses unreadable ones")
    func readByTypeValues() throws {
        var server = F.server()
        guard case .readByTypeResponse(let list) = try F.answer(
            &server, .readByTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: F.long))
        else { Issue.record("not a Read By Type Response"); return }
        #expect(list.entries == [ATTAttributeData(handle: 13, value: Array(F.longValue.prefix(19)))])
        #expect(try F.answer(&server, .readByTypeRequest(startingHandle: 1, endingHandle: 0xFFFF,
                                                          attributeType: F.client2Server))
                == F.error(.readByTypeRequest, 6, .readNotPermitted))
    }

    @Test("Find Information finds the CCCD and keeps one UUID format per response")
    func findInformation() throws {
        var server = F.server()
        #expect(try F.answer(&server, .findInformationRequest(startingHandle: 4, endingHandle: 4))
                == .findInformationResponse([ATTHandleUUID(handle: 4, uuid: .clientCharacteristicConfiguration)]))
        // Handle 2 is a 16-bit type, handle 3 a 128-bit one: the response stops at 2.
        #expect(try F.answer(&server, .findInformationRequest(startingHandle: 2, endingHandle: 4))
                == .findInformationResponse([ATTHandleUUID(handle: 2, uuid: .characteristic)]))
        #expect(try F.answer(&server, .findInformationRequest(startingHandle: 3, endingHandle: 4))
                == .findInformationResponse([ATTHandleUUID(handle: 3, uuid: F.state)]))
        #expect(try F.answer(&server, .findInformationRequest(startingHandle: 14, endingHandle: 0xFFFF))
                == F.error(.findInformationRequest, 14, .attributeNotFound))
    }

    @Test("Find Information at MTU 23 lists at most five 16-bit entries")
    func findInformationTruncation() throws {
        var server = GATTServer(services: (0..<8).map {
            GATTService(uuid: BluetoothUUID(uint16: 0x1800 + UInt16($0)), characteristics: [])
        })
        guard case .findInformationResponse(let information) = try F.answer(
            &server, .findInformationRequest(startingHandle: 1, endingHandle: 0xFFFF))
        else { Issue.record("not a Find Information Response"); return }
        // 2 + n * 4 <= 23.
        #expect(information.map(\.handle) == [1, 2, 3, 4, 5])
    }

    @Test("invalid handle ranges are Invalid Handle with the starting handle", arguments: [
        ATTPDU.findInformationRequest(startingHandle: 0, endingHandle: 5),
        ATTPDU.findInformationRequest(startingHandle: 6, endingHandle: 5),
        ATTPDU.readByTypeRequest(startingHandle: 0, endingHandle: 5, attributeType: .characteristic),
        ATTPDU.readByGroupTypeRequest(startingHandle: 9, endingHandle: 1, attributeGroupType: .primaryService),
        ATTPDU.findByTypeValueRequest(startingHandle: 0, endingHandle: 0, attributeType: 0x2800, attributeValue: []),
    ])
    func invalidRanges(request: ATTPDU) throws {
        var server = F.server()
        let start: UInt16 = request.bytes[1] == 9 ? 9 : (request.bytes[1] == 6 ? 6 : 0)
        #expect(try F.answer(&server, request) == F.error(request.opcode, start, .invalidHandle))
    }

    @Test("Read and Read Blob: values cut to MTU − 1, offsets up to the length")
    func readAndBlob() throws {
        var server = F.server()
        #expect(try F.answer(&server, .readRequest(attributeHandle: 11)) == .readResponse(attributeValue: F.identValue))
        #expect(try F.answer(&server, .readRequest(attributeHandle: 13))
                == .readResponse(attributeValue: Array(F.longValue.prefix(22))))
        #expect(try F.answer(&server, .readBlobRequest(attributeHandle: 13, valueOffset: 88))
                == .readBlobResponse(partAttributeValue: Array(F.longValue[88...])))
        #expect(try F.answer(&server, .readBlobRequest(attributeHandle: 13, valueOffset: 100))
                == .readBlobResponse(partAttributeValue: []))
        #expect(try F.answer(&server, .readBlobRequest(attributeHandle: 13, valueOffset: 101))
                == F.error(.readBlobRequest, 13, .invalidOffset))
        #expect(try F.answer(&server, .readRequest(attributeHandle: 4)) == .readResponse(attributeValue: [0, 0]))
    }

    @Test("reads of missing or unreadable attributes fail as Core Part F 3.4.4.3 says")
    func readErrors() throws {
        var server = F.server()
        #expect(try F.answer(&server, .readRequest(attributeHandle: 0)) == F.error(.readRequest, 0, .invalidHandle))
        #expect(try F.answer(&server, .readRequest(attributeHandle: 14)) == F.error(.readRequest, 14, .invalidHandle))
        #expect(try F.answer(&server, .readRequest(attributeHandle: 6)) == F.error(.readRequest, 6, .readNotPermitted))
        #expect(try F.answer(&server, .readBlobRequest(attributeHandle: 8, valueOffset: 0))
                == F.error(.readBlobRequest, 8, .readNotPermitted))
    }

    @Test("Write Request: written, refused where not permitted, 512-byte limit")
    func writeRequest() throws {
        var server = F.server()
        let output = server.receive(ATTPDU.writeRequest(attributeHandle: 13, attributeValue: [1, 2]).bytes)
        #expect(output.responses == [[0x13]])
        #expect(output.events == [.written(characteristic: F.long, value: [1, 2], withResponse: true)])
        #expect(server.value(of: F.long) == [1, 2])
        let largest = [UInt8](repeating: 5, count: GATTServer.maximumAttributeValueLength)
        #expect(try F.answer(&server, .writeRequest(attributeHandle: 13, attributeValue: largest)) == .writeResponse)
        #expect(try F.answer(&server, .writeRequest(attributeHandle: 13, attributeValue: largest + [5]))
                == F.error(.writeRequest, 13, .invalidAttributeValueLength))
        #expect(try F.answer(&server, .writeRequest(attributeHandle: 6, attributeValue: [1]))
                == F.error(.writeRequest, 6, .writeNotPermitted))
        #expect(try F.answer(&server, .writeRequest(attributeHandle: 11, attributeValue: [1]))
                == F.error(.writeRequest, 11, .writeNotPermitted))
        #expect(try F.answer(&server, .writeRequest(attributeHandle: 2, attributeValue: [1]))
                == F.error(.writeRequest, 2, .writeNotPermitted))
        #expect(try F.answer(&server, .writeRequest(attributeHandle: 0x0100, attributeValue: [1]))
                == F.error(.writeRequest, 0x0100, .invalidHandle))
    }

    @Test("Write Command never gets a response, not even on error")
    func writeCommand() {
        var server = F.server()
        let output = server.receive(ATTPDU.writeCommand(attributeHandle: 6, attributeValue: [0x01, 0xAA]).bytes)
        #expect(output.responses.isEmpty)
        #expect(output.events == [.written(characteristic: F.client2Server, value: [0x01, 0xAA], withResponse: false)])
        for bad in [ATTPDU.writeCommand(attributeHandle: 11, attributeValue: [1]),
                    .writeCommand(attributeHandle: 13, attributeValue: [1]),
                    .writeCommand(attributeHandle: 0x0200, attributeValue: [1])] {
            #expect(server.receive(bad.bytes) == GATTServer.Output())
        }
        #expect(server.receive([0x52, 0x06]) == GATTServer.Output())
        #expect(server.receive([0xD2, 0x06, 0x00, 0x01]) == GATTServer.Output())
    }

    @Test("notifications only after the CCCD enables them")
    func notificationGating() throws {
        var server = F.server()
        #expect(throws: BLEError(.notSubscribed, "")) { try server.notification(of: F.server2Client, value: [0]) }
        let output = server.receive(ATTPDU.writeRequest(attributeHandle: 9, attributeValue: [0x01, 0x00]).bytes)
        #expect(output.responses == [[0x13]])
        #expect(output.events == [.subscriptionChanged(characteristic: F.server2Client, notifications: true)])
        #expect(server.isSubscribed(F.server2Client))
        #expect(!server.isSubscribed(F.state))
        #expect(try server.notification(of: F.server2Client, value: [0x00, 0x42]) == [0x1B, 0x08, 0x00, 0x00, 0x42])
        #expect(throws: BLEError(.notSubscribed, "")) { try server.notification(of: F.state, value: [2]) }
        #expect(throws: BLEError(.characteristicNotFound, "")) {
            try server.notification(of: BluetoothUUID(uint16: 0x1234), value: [2])
        }
        #expect(throws: BLEError(.notSubscribed, "")) { try server.notification(of: F.long, value: [2]) }
        _ = server.receive(ATTPDU.writeRequest(attributeHandle: 9, attributeValue: [0x00, 0x00]).bytes)
        #expect(throws: BLEError(.notSubscribed, "")) { try server.notification(of: F.server2Client, value: [0]) }
    }

    @Test("CCCD writes: 2 bytes only, bits for properties the characteristic lacks are dropped")
    func configurationWrites() throws {
        var server = F.server()
        #expect(try F.answer(&server, .writeRequest(attributeHandle: 4, attributeValue: [1]))
                == F.error(.writeRequest, 4, .invalidAttributeValueLength))
        #expect(try F.answer(&server, .writeRequest(attributeHandle: 4, attributeValue: [0x03, 0xFF])) == .writeResponse)
        #expect(try F.answer(&server, .readRequest(attributeHandle: 4)) == .readResponse(attributeValue: [0x01, 0x00]))
        #expect(try F.answer(&server, .writeRequest(attributeHandle: 4, attributeValue: [0x02, 0x00])) == .writeResponse)
        #expect(!server.isSubscribed(F.state))
    }

    @Test("the CCCD state belongs to one server value (one connection)")
    func perConnectionState() throws {
        let database = F.server()
        var first = database
        let second = database
        _ = first.receive(ATTPDU.writeRequest(attributeHandle: 9, attributeValue: [1, 0]).bytes)
        #expect(first.isSubscribed(F.server2Client))
        #expect(!second.isSubscribed(F.server2Client))
    }

    @Test("notifications carry at most MTU − 3 bytes", arguments: [nil, 515, 517] as [Int?])
    func notificationSize(clientMTU: Int?) throws {
        var server = F.server()
        if let clientMTU { _ = server.receive(ATTPDU.exchangeMTURequest(clientRxMTU: UInt16(clientMTU)).bytes) }
        _ = server.receive(ATTPDU.writeRequest(attributeHandle: 9, attributeValue: [1, 0]).bytes)
        let limit = server.mtu - 3
        #expect(try server.notification(of: F.server2Client, value: .init(repeating: 1, count: limit)).count == server.mtu)
        #expect(throws: BLEError(.pduTooLarge, "")) {
            try server.notification(of: F.server2Client, value: .init(repeating: 1, count: limit + 1))
        }
    }

    @Test("MTU exchange: server MTU 517, effective is the minimum, never below 23, set once",
          arguments: [(515, 515), (517, 517), (518, 517), (600, 517), (23, 23), (22, 23), (0, 23)])
    func mtuExchange(clientMTU: Int, effective: Int) {
        var server = F.server()
        let output = server.receive(ATTPDU.exchangeMTURequest(clientRxMTU: UInt16(clientMTU)).bytes)
        #expect(output.responses == [[0x03, 0x05, 0x02]])
        #expect(output.events == [.mtuExchanged(effective)])
        #expect(server.mtu == effective)
        let again = server.receive(ATTPDU.exchangeMTURequest(clientRxMTU: 100).bytes)
        #expect(again.responses == [[0x03, 0x05, 0x02]])
        #expect(again.events.isEmpty)
        #expect(server.mtu == effective)
    }

    @Test("a server taking a smaller ATT_MTU announces it, kept from 23 to 517; the effective ATT_MTU is the minimum",
          arguments: [(23, 515, 23, 23), (22, 515, 23, 23), (185, 515, 185, 185), (185, 100, 185, 100),
                      (517, 515, 517, 515), (518, 600, 517, 517)])
    func smallerReceiveMTU(receiveMTU: Int, clientMTU: Int, announced: Int, effective: Int) {
        var server = F.server()
        server.receiveMTU = receiveMTU
        let output = server.receive(ATTPDU.exchangeMTURequest(clientRxMTU: UInt16(clientMTU)).bytes)
        #expect(output.responses == [ATTPDU.exchangeMTUResponse(serverRxMTU: UInt16(announced)).bytes])
        #expect(output.events == [.mtuExchanged(effective)])
    }

    @Test("unsupported and malformed requests get Error Responses; other PDUs get nothing")
    func unsupportedAndMalformed() {
        var server = F.server()
        #expect(server.receive([0x0E, 0x03, 0x00, 0x0B, 0x00]).responses == [[0x01, 0x0E, 0x00, 0x00, 0x06]])
        #expect(server.receive([0x16, 0x0D, 0x00, 0x00, 0x00, 0x01]).responses == [[0x01, 0x16, 0x00, 0x00, 0x06]])
        #expect(server.receive([0x0A, 0x0B]).responses == [[0x01, 0x0A, 0x00, 0x00, 0x04]])
        #expect(server.receive([0x12]).responses == [[0x01, 0x12, 0x00, 0x00, 0x04]])
        #expect(server.receive([]) == GATTServer.Output())
        #expect(server.receive([0x0B, 0x01]) == GATTServer.Output())
        #expect(server.receive([0x1E]) == GATTServer.Output())
        #expect(server.receive([0x1B, 0x03, 0x00, 0x01]) == GATTServer.Output())
        #expect(server.receive([0x0B]).responses.isEmpty)
        #expect(server.receive([0x7F]) == GATTServer.Output())
    }

    @Test("services fit below handle 0xFFFF; one that does not is left out")
    func handleSpaceLimit() {
        // 1 + 2 * 32767 = 65535 attributes: exactly the handle space.
        let full = GATTService(uuid: BluetoothUUID(uint16: 0x1800), characteristics: (0..<32767).map {
            GATTCharacteristic(uuid: BluetoothUUID(uint16: UInt16($0)), properties: [.read])
        })
        let extra = GATTService(uuid: BluetoothUUID(uint16: 0x1801), characteristics: [
            GATTCharacteristic(uuid: F.ident, properties: [.read]),
        ])
        let server = GATTServer(services: [full, extra])
        #expect(server.attributes.count == GATTServer.maximumHandle)
        #expect(server.valueHandle(of: BluetoothUUID(uint16: 32766)) == 0xFFFF)
        #expect(server.valueHandle(of: F.ident) == nil)
        let fits = GATTServer(services: [extra, GATTService(uuid: BluetoothUUID(uint16: 0x1802), characteristics: [])])
        #expect(fits.attributes.count == 4)
    }
}
