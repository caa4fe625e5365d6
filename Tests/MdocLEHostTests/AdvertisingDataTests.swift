@testable import MdocBLE
@testable import MdocLEHost
import MdocTestSupport
import Testing

@Suite("Advertising data (Core Vol 3 Part C 11)")
struct AdvertisingDataTests {
    static let uuid = GATTTestFixtures.service.uuid

    @Test("an 18013-5 advertisement is Flags and the UUID little-endian, 21 octets")
    func mdocAdvertisement() throws {
        let bytes = AdvertisingData.advertising(serviceUUID: Self.uuid).bytes
        #expect(bytes.count == 21)
        #expect(Array(bytes[0..<5]) == [0x02, 0x01, 0x06, 0x11, 0x07])
        #expect(Array(bytes[5...]) == GATTTestFixtures.service.littleEndianBytes)
        let parsed = try AdvertisingData(bytes: bytes + [0, 0, 0])
        #expect(parsed.serviceUUIDs == [Self.uuid] && parsed.localName == nil)
    }

    @Test("names and incomplete lists are read; a structure past the end fails")
    func parse() throws {
        let name = Array("mdoc".utf8)
        let data = try AdvertisingData(bytes: [UInt8(name.count + 1), 0x09] + name + [0x11, 0x06] + GATTTestFixtures.service.littleEndianBytes)
        #expect(data.localName == "mdoc" && data.serviceUUIDs == [Self.uuid])
        #expect(throws: BLEError(.malformedPacket, "")) { try AdvertisingData(bytes: [0x05, 0x09, 0x41]) }
    }

    @Test("legacy data of 31 octets fits the command; 32 does not")
    func legacyLimit() {
        let limit = AdvertisingData.maximumLegacyLength
        let fits = AdvertisingData(structures: [.init(type: 0xFF, data: [UInt8](repeating: 1, count: limit - 2))])
        let over = AdvertisingData(structures: [.init(type: 0xFF, data: [UInt8](repeating: 1, count: limit - 1))])
        #expect(HCICommand.leSetAdvertisingData(fits)?.parameters.count == 32)
        #expect(HCICommand.leSetAdvertisingData(over) == nil)
        #expect(HCICommand.leSetScanResponseData(over) == nil)
    }
}
