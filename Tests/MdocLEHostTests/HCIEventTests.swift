@testable import MdocBLE
@testable import MdocLEHost
import MdocTestSupport
import Testing

@Suite("HCI commands and events (Core Vol 4 Part E 7)")
struct HCIEventTests {
    static let peer = BluetoothAddress(octets: [0xC5, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5], type: .random)!

    @Test("commands carry their opcode and parameters as Core Vol 4 Part E 7 lays them out")
    func commands() throws {
        #expect(HCICommand.reset.packet == [0x03, 0x0C, 0x00])
        #expect(HCICommand.leSetRandomAddress(Self.peer).packet == [0x05, 0x20, 0x06, 0xE5, 0xD4, 0xC3, 0xB2, 0xA1, 0xC5])
        #expect(HCICommand.disconnect(handle: 0x0040, reason: .remoteUserTerminatedConnection).packet
            == [0x06, 0x04, 0x03, 0x40, 0x00, 0x13])
        #expect(HCICommand.leSetScanEnable(true).packet == [0x0C, 0x20, 0x02, 0x01, 0x00])
        let create = HCICommand.leCreateConnection(to: Self.peer, ownAddressType: .random, parameters: .mdocSession)
        #expect(create.parameters.count == 25)
        #expect(Array(create.parameters[6..<12]) == [0xE5, 0xD4, 0xC3, 0xB2, 0xA1, 0xC5])
        #expect(create.parameters[5] == 0x01 && create.parameters[12] == 0x01)
        #expect(HCICommand.leSetAdvertisingParameters(intervalMin: 0x30, intervalMax: 0x60, ownAddressType: .public).parameters.count == 15)
        #expect(try HCICommand(packet: create.packet) == create)
        #expect(HCIOpcode.leCreateConnection.rawValue == 0x200D && HCIOpcode.leCreateConnection.ogf == 0x08)
        #expect("\(HCIOpcode(rawValue: 0xFC01))" == "HCI command 0xFC01")
    }

    @Test("Command Complete and Command Status give credits, opcode and result")
    func commandEvents() throws {
        #expect(try HCIEvent(code: 0x0E, parameters: [0x01, 0x02, 0x20, 0x00, 0x1B, 0x00, 0x40])
            == .commandComplete(numberOfCommandPackets: 1, opcode: .leReadBufferSize, returnParameters: [0x00, 0x1B, 0x00, 0x40]))
        #expect(try HCIEvent(code: 0x0F, parameters: [0x0C, 0x01, 0x0D, 0x20])
            == .commandStatus(status: .commandDisallowed, numberOfCommandPackets: 1, opcode: .leCreateConnection))
        #expect(throws: BLEError(.malformedPacket, "")) { try HCIEvent(code: 0x0F, parameters: [0x00, 0x01, 0x0D]) }
    }

    @Test("Number Of Completed Packets lists handle and count pairs")
    func completedPackets() throws {
        let event = try HCIEvent(code: 0x13, parameters: [0x02, 0x40, 0x00, 0x03, 0x00, 0x41, 0x00, 0x01, 0x00])
        #expect(event == .numberOfCompletedPackets([.init(handle: 0x40, count: 3), .init(handle: 0x41, count: 1)]))
        #expect(throws: BLEError(.malformedPacket, "")) { try HCIEvent(code: 0x13, parameters: [0x02, 0x40, 0x00, 0x03, 0x00]) }
    }

    @Test("LE Connection Complete and its enhanced form decode alike")
    func connectionComplete() throws {
        let common: [UInt8] = [0x00, 0x01, 0x00, 0x01, 0x01, 0xE5, 0xD4, 0xC3, 0xB2, 0xA1, 0xC5]
        let tail: [UInt8] = [0x18, 0x00, 0x00, 0x00, 0xF4, 0x01, 0x00]
        for (subevent, middle) in [(UInt8(0x01), [UInt8]()), (0x0A, [UInt8](repeating: 0, count: 12))] {
            guard case .leConnectionComplete(let complete) = try HCIEvent(code: 0x3E, parameters: [subevent] + common + middle + tail) else {
                Issue.record("not a connection complete")
                continue
            }
            #expect(complete.status == .success && complete.handle == 1 && complete.role == .peripheral)
            #expect(complete.peerAddress == Self.peer)
            #expect(complete.connectionInterval == 0x18 && complete.supervisionTimeout == 0x01F4)
        }
        #expect(throws: BLEError(.malformedPacket, "")) {
            try HCIEvent(code: 0x3E, parameters: [0x01, 0x00, 0x01, 0x00, 0x07] + common.dropFirst(5) + tail)
        }
    }

    @Test("legacy and extended advertising reports give address, connectability, RSSI and data")
    func advertisingReports() throws {
        let data = AdvertisingData.advertising(serviceUUID: GATTTestFixtures.service.uuid).bytes
        let legacy: [UInt8] = [0x02, 0x01, 0x00, 0x01, 0xE5, 0xD4, 0xC3, 0xB2, 0xA1, 0xC5, UInt8(data.count)] + data + [0xCE]
        let extended: [UInt8] = [0x0D, 0x01, 0x13, 0x00, 0x01, 0xE5, 0xD4, 0xC3, 0xB2, 0xA1, 0xC5, 0x01, 0x00, 0xFF, 0x7F, 0xCE,
                                 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, UInt8(data.count)] + data
        for parameters in [legacy, extended] {
            guard case .leAdvertisingReports(let reports) = try HCIEvent(code: 0x3E, parameters: parameters) else {
                Issue.record("not an advertising report")
                continue
            }
            #expect(reports.count == 1)
            #expect(reports[0].address == Self.peer && reports[0].isConnectable && reports[0].rssi == -50)
            #expect(try AdvertisingData(bytes: reports[0].data).serviceUUIDs == [GATTTestFixtures.service.uuid])
        }
        #expect(throws: BLEError(.malformedPacket, "")) { try HCIEvent(code: 0x3E, parameters: Array(legacy.dropLast(2))) }
    }

    @Test("status codes print their names from Core Vol 1 Part F")
    func statusNames() {
        #expect("\(HCIStatus.remoteUserTerminatedConnection)" == "Remote User Terminated Connection (0x13)")
        #expect("\(HCIStatus(rawValue: 0x7E))" == "HCI error 0x7E")
    }

    @Test("a static random address has its top bits set and is random")
    func randomAddress() {
        var seen = Set<[UInt8]>()
        for _ in 0..<100 {
            let address = BluetoothAddress.randomStatic()
            #expect(address.type == .random && address.octets[0] & 0xC0 == 0xC0 && !address.isZero)
            seen.insert(address.octets)
        }
        #expect(seen.count == 100)
        #expect("\(Self.peer)" == "C5:A1:B2:C3:D4:E5 (random)")
    }
}
