#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MdocBLE
import Testing

@Suite("18013-5 GATT service profile (ISO/IEC 18013-5 8.3.3.1.1.4, Tables 11-13)")
struct MdocGATTProfileTests {
    @Test("characteristic UUIDs of peripheral server mode")
    func peripheralUUIDs() {
        #expect(MdocGATTProfile.state(mode: .peripheralServer).description == "00000001-A123-48CE-896B-4C76973373E6")
        #expect(MdocGATTProfile.client2Server(mode: .peripheralServer).description == "00000002-A123-48CE-896B-4C76973373E6")
        #expect(MdocGATTProfile.server2Client(mode: .peripheralServer).description == "00000003-A123-48CE-896B-4C76973373E6")
    }

    @Test("characteristic UUIDs of central client mode, Ident included")
    func centralUUIDs() {
        #expect(MdocGATTProfile.state(mode: .centralClient).description == "00000005-A123-48CE-896B-4C76973373E6")
        #expect(MdocGATTProfile.client2Server(mode: .centralClient).description == "00000006-A123-48CE-896B-4C76973373E6")
        #expect(MdocGATTProfile.server2Client(mode: .centralClient).description == "00000007-A123-48CE-896B-4C76973373E6")
        #expect(MdocGATTProfile.ident.description == "00000008-A123-48CE-896B-4C76973373E6")
    }

    @Test("State values: 0x01 start, 0x02 end (Table 13)")
    func stateValues() {
        #expect(MdocGATTProfile.stateStart == 0x01)
        #expect(MdocGATTProfile.stateEnd == 0x02)
    }

    @Test("mode names as the programs accept them")
    func modeNames() {
        #expect(MdocBLEMode(rawValue: "peripheral") == .peripheralServer)
        #expect(MdocBLEMode(rawValue: "central") == .centralClient)
        #expect(MdocBLEMode(rawValue: "both") == nil)
    }

    @Test("peripheral server mode service: State, Client2Server, Server2Client; no Ident")
    func peripheralService() {
        let uuid = UUID()
        let service = MdocGATTProfile.service(mode: .peripheralServer, serviceUUID: uuid, ident: [UInt8](repeating: 1, count: 16))
        #expect(service.uuid == BluetoothUUID(uuid))
        #expect(service.characteristics.map(\.uuid) == [
            MdocGATTProfile.state(mode: .peripheralServer),
            MdocGATTProfile.client2Server(mode: .peripheralServer),
            MdocGATTProfile.server2Client(mode: .peripheralServer),
        ])
        #expect(service.characteristics.map(\.properties) == [[.notify, .writeWithoutResponse], [.writeWithoutResponse], [.notify]])
    }

    @Test("central client mode service: Ident is readable and holds the given 16 bytes")
    func centralService() throws {
        let ident: [UInt8] = Array(0..<16)
        let service = MdocGATTProfile.service(mode: .centralClient, serviceUUID: UUID(), ident: ident)
        #expect(service.characteristics.count == 4)
        let identCharacteristic = try #require(service.characteristics.last)
        #expect(identCharacteristic.uuid == MdocGATTProfile.ident)
        #expect(identCharacteristic.properties == [.read])
        #expect(identCharacteristic.value == ident)
        #expect(service.characteristics[0].uuid == MdocGATTProfile.state(mode: .centralClient))
    }
}
