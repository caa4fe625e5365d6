import MdocCBOR
import MdocModel
import MdocNFC
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("Connection Handover messages and the ISO/IEC 18013-5 8.2.2.1 records")
struct HandoverTests {
    @Test("Annex D: the Handover Select message holds the NFC DeviceEngagement and a BLE carrier")
    func annexDSelect() throws {
        let bytes = Vectors.annexD("nfc_handover_select")
        let select = try HandoverSelectMessage(bytes: bytes)
        #expect(select.bytes == bytes)
        #expect(select.version == 0x15)
        #expect(select.deviceEngagement == Vectors.annexD("device_engagement_nfc"))
        #expect(select.alternativeCarriers.count == 1)
        #expect(select.alternativeCarriers[0].auxiliaryDataReferences == [Array("mdoc".utf8)])
        guard case .bluetoothLE(let ble) = select.carriers.first else {
            Issue.record("no BLE carrier: \(select.carriers)")
            return
        }
        #expect(ble.leRole == .centralOnly)
        let options = try ble.options(sender: .mdoc)
        #expect(options.centralClientModeSupported && !options.peripheralServerModeSupported)
        #expect(ble.deviceAddress == hex("2828378B1228"))
        #expect(select.handover(request: nil) == .nfc(handoverSelect: bytes, handoverRequest: nil))
    }

    @Test("Annex D: the Handover Request message: collision resolution, BLE, NFC and Wi-Fi Aware carriers")
    func annexDRequest() throws {
        let bytes = Vectors.annexD("nfc_handover_request")
        let request = try HandoverRequestMessage(bytes: bytes)
        #expect(request.bytes == bytes)
        #expect(request.collisionResolutionNumber == 0x0102)
        #expect(request.alternativeCarriers.map(\.carrierDataReference) == [Array("0".utf8), Array("nfc".utf8), Array("W".utf8)])
        #expect(request.readerEngagement == nil)
        guard request.carriers.count == 3, case .bluetoothLE(let ble) = request.carriers[0], case .nfc(let nfc) = request.carriers[1],
              case .other(let wifi) = request.carriers[2] else {
            Issue.record("carriers: \(request.carriers)")
            return
        }
        #expect(ble.leRole == .peripheralPreferred)
        #expect(ble.serviceUUIDs.count == 1)
        #expect(nfc.maximumCommandDataLength == nil && nfc.maximumResponseDataLength == nil)
        #expect(wifi.typeText == NDEFRecord.wifiAwareType)
        let options = try ble.options(sender: .reader)
        #expect(options.centralClientModeSupported && options.peripheralServerModeSupported)
        #expect(options.centralClientModeUUID == ble.serviceUUIDs.first)
    }

    @Test("Multipaz's static Handover Select: built byte for byte from its parts, and read back")
    func multipazStaticSelect() throws {
        let uuid = try #require(UUID(uuidString: Multipaz.bleUUID))
        let ble = try BluetoothLECarrier(options: BleOptions(
            peripheralServerModeSupported: true, centralClientModeSupported: true,
            peripheralServerModeUUID: uuid, centralClientModeUUID: uuid), sender: .mdoc)
        let nfc = NFCCarrier(maximumCommandDataLength: 0xFFFF, maximumResponseDataLength: 0x10000)
        let built = HandoverSelectMessage(deviceEngagement: hex(Multipaz.deviceEngagement), carriers: [.bluetoothLE(ble), .nfc(nfc)])
        #expect(built.bytes == hex(Multipaz.staticHandoverSelect))
        let parsed = try HandoverSelectMessage(bytes: hex(Multipaz.staticHandoverSelect))
        #expect(parsed == built)
        #expect(parsed.deviceEngagement == hex(Multipaz.deviceEngagement))
        #expect(try parsed.carriers.map { (carrier) throws(NFCError) in try carrier.retrievalMethod(sender: .mdoc) } == [
            .ble(BleOptions(peripheralServerModeSupported: true, centralClientModeSupported: true,
                            peripheralServerModeUUID: uuid, centralClientModeUUID: uuid)),
            .nfc(NfcOptions(maxLengthCommandData: 0xFFFF, maxLengthResponseData: 0x10000)),
        ])
    }

    @Test("Multipaz's negotiated handover messages: the Request and the Select built byte for byte")
    func multipazNegotiated() throws {
        let uuid = try #require(UUID(uuidString: Multipaz.bleUUID))
        let readerBLE = try BluetoothLECarrier(options: BleOptions(
            peripheralServerModeSupported: true, centralClientModeSupported: true,
            peripheralServerModeUUID: uuid, centralClientModeUUID: uuid), sender: .reader)
        let readerEngagement = hex("a10063312e30")  // {0: "1.0"}
        let request = HandoverRequestMessage(
            readerEngagement: readerEngagement,
            carriers: [.bluetoothLE(readerBLE), .nfc(NFCCarrier(maximumCommandDataLength: 0xFFFF, maximumResponseDataLength: 0x10000))],
            collisionResolutionNumber: nil)
        #expect(request.bytes == hex(Multipaz.handoverRequest))
        #expect(try HandoverRequestMessage(bytes: hex(Multipaz.handoverRequest)) == request)
        let mdocBLE = try BluetoothLECarrier(options: BleOptions(centralClientModeSupported: true), sender: .mdoc)
        let select = HandoverSelectMessage(deviceEngagement: hex(Multipaz.deviceEngagement), carriers: [.bluetoothLE(mdocBLE)])
        #expect(select.bytes == hex(Multipaz.negotiatedHandoverSelect))
        #expect(select.handover(request: request) == .nfc(handoverSelect: select.bytes, handoverRequest: request.bytes))
    }

    @Test("a Handover Request with a collision resolution record round-trips")
    func collisionResolution() throws {
        let request = HandoverRequestMessage(readerEngagement: nil, carriers: [.nfc(NFCCarrier(maximumCommandDataLength: 255, maximumResponseDataLength: 256))],
                                             collisionResolutionNumber: 0xBEEF)
        let parsed = try HandoverRequestMessage(bytes: request.bytes)
        #expect(parsed.collisionResolutionNumber == 0xBEEF)
        #expect(parsed.carriers == request.carriers)
    }

    @Test("the BLE carrier: LE roles by sender, the address, UUIDs, and two UUIDs refused")
    func bluetoothCarrier() throws {
        let uuid = try #require(UUID(uuidString: Multipaz.bleUUID))
        let other = try #require(UUID(uuidString: "B3D52AC4-A1B6-4B51-A22E-78EE55EF6EB7"))
        let server = BleOptions(peripheralServerModeSupported: true, peripheralServerModeUUID: uuid, mdocBLEDeviceAddress: hex("112233445566"))
        let carrier = try BluetoothLECarrier(options: server, sender: .mdoc)
        #expect(carrier.leRole == .peripheralOnly)
        #expect(carrier.deviceAddress == hex("112233445566"))
        #expect(try carrier.options(sender: .mdoc) == server)
        #expect(try BluetoothLECarrier(payload: carrier.payload) == carrier)
        #expect(try BluetoothLECarrier(options: server, sender: .reader).leRole == .centralOnly)
        let client = BleOptions(centralClientModeSupported: true, centralClientModeUUID: uuid)
        #expect(try BluetoothLECarrier(options: client, sender: .mdoc).leRole == .centralOnly)
        #expect(try BluetoothLECarrier(options: client, sender: .reader).leRole == .peripheralOnly)
        let both = BleOptions(peripheralServerModeSupported: true, centralClientModeSupported: true,
                              peripheralServerModeUUID: uuid, centralClientModeUUID: other)
        #expect(errorCode { try BluetoothLECarrier(options: both, sender: .mdoc) } == .invalidHandover)
        #expect(errorCode { try BluetoothLECarrier(options: BleOptions(), sender: .mdoc) } == .invalidHandover)
        #expect(errorCode { try BluetoothLECarrier(payload: hex("021C")) } == .truncated)
        #expect(errorCode { try BluetoothLECarrier(payload: hex("00")) } == .malformed)
        #expect(errorCode { try BluetoothLECarrier(payload: hex("02010A")).options(sender: .mdoc) } == .invalidHandover)
        #expect(errorCode { try BluetoothLECarrier(payload: hex("021C04")).options(sender: .mdoc) } == .invalidHandover)
    }

    @Test("the NFC carrier: lengths in the fewest bytes, the limits of each length on both sides")
    func nfcCarrier() throws {
        #expect(NFCCarrier(maximumCommandDataLength: 255, maximumResponseDataLength: 256).payload == hex("01 0201FF 03020100"))
        #expect(try NFCCarrier(payload: hex("01 03010100 0402010000")).maximumResponseDataLength == 65536)
        #expect(try NFCCarrier(payload: hex("01 0301FFFF")).maximumCommandDataLength == 65535)
        #expect(errorCode { try NFCCarrier(payload: hex("01 0401010000")) } == .limitExceeded)
        #expect(errorCode { try NFCCarrier(payload: hex("01 0402010001")) } == .limitExceeded)
        #expect(errorCode { try NFCCarrier(payload: hex("01 020100")) } == .limitExceeded)
        #expect(errorCode { try NFCCarrier(payload: hex("01 050201000000")) } == .malformed)
        #expect(errorCode { try NFCCarrier(payload: hex("01 0101")) } == .malformed)
        #expect(errorCode { try NFCCarrier(payload: hex("01 0301FF")) } == .truncated)
        #expect(errorCode { try NFCCarrier(payload: hex("02")) } == .invalidHandover)
        #expect(errorCode { try NFCCarrier(payload: []) } == .truncated)
        #expect(errorCode { try NFCCarrier(payload: hex("01 0201FF 0201FF")) } == .malformed)
        #expect(try NFCCarrier(payload: hex("01 02097F")) == NFCCarrier(maximumCommandDataLength: nil, maximumResponseDataLength: nil))
    }

    @Test("TNEP records: Multipaz's Service Parameter, Service Select and status byte for byte")
    func tnepRecords() throws {
        let parameter = ServiceParameterRecord(minimumWaitingTime: 0, maximumWaitingTimeExtensions: 15, maximumNDEFMessageSize: 0xFFFF)
        #expect(NDEFMessage(records: [parameter.record]).bytes == hex(Multipaz.serviceParameter))
        #expect(NDEFMessage(records: [ServiceSelectRecord().record]).bytes == hex(Multipaz.serviceSelect))
        #expect(NDEFMessage(records: [TNEPStatusRecord(status: 0).record]).bytes == hex(Multipaz.tnepStatus))
        #expect(try ServiceParameterRecord(payload: parameter.payload) == parameter)
        #expect(parameter.waitingTime == .microseconds(500))
        #expect(ServiceParameterRecord(minimumWaitingTime: 8, maximumWaitingTimeExtensions: 0, maximumNDEFMessageSize: 1).waitingTime == .milliseconds(2))
        #expect(ServiceParameterRecord(minimumWaitingTime: 63, maximumWaitingTimeExtensions: 0, maximumNDEFMessageSize: 1).waitingTime
            == .microseconds(27_554_494))
        var bytes = parameter.payload
        bytes[bytes.count - 4] = 64
        #expect(errorCode { try ServiceParameterRecord(payload: bytes) } == .malformed)
        bytes = parameter.payload
        bytes[bytes.count - 3] = 16
        #expect(errorCode { try ServiceParameterRecord(payload: bytes) } == .malformed)
        #expect(errorCode { try ServiceParameterRecord(payload: parameter.payload.dropLast()) } == .truncated)
        #expect(errorCode { try ServiceParameterRecord(payload: parameter.payload + [0]) } == .trailingBytes)
        #expect(errorCode { try ServiceParameterRecord(payload: [0x20, 0]) } == .truncated)
        #expect(errorCode { try ServiceSelectRecord(payload: hex("0561")) } == .truncated)
        #expect(errorCode { try ServiceSelectRecord(payload: hex("016162")) } == .trailingBytes)
        #expect(errorCode { try TNEPStatusRecord(payload: []) } == .truncated)
        #expect(errorCode { try TNEPStatusRecord(payload: [0, 0]) } == .trailingBytes)
    }

    @Test("a service name that is not UTF-8 is refused: read as text it would not write back the same (FuzzNDEFHandover)")
    func serviceNameNotUTF8() {
        // FuzzTesting/Regressions/FuzzNDEFHandover/crash-036c227f…: a Tp payload whose name holds FF bytes.
        #expect(errorCode { try ServiceParameterRecord(payload: hex("1013 75726e3a6e66633a73ffffffff6e646f766572 00000fffff")) } == .malformed)
        #expect(errorCode { try ServiceSelectRecord(payload: hex("0275ff")) } == .malformed)
    }

    @Test("hostile handover messages", arguments: [
        // Not NDEF.
        ("", NFCError.Code.invalidHandover),
        // A DeviceEngagement record alone: no Hs record first.
        ("dc1e0004 69736f2e6f72673a31383031333a646576696365656e676167656d656e74 6d646f63", .invalidHandover),
        // Hs version 2.0.
        ("d102014873 20", .invalidHandover),
        // Hs without payload.
        ("d1020048 73", .truncated),
        // Hs 1.5 alone: no DeviceEngagement record.
        ("d102014873 15", .invalidHandover),
        // An ac record whose carrier is missing.
        ("91020b487315d102046163 01013000 5c1e0004 69736f2e6f72673a31383031333a646576696365656e676167656d656e74 6d646f63",
         .invalidHandover),
        // An ac record with trailing bytes.
        ("91020b487315d102056163 0101300000 5c1e0004 69736f2e6f72673a31383031333a646576696365656e676167656d656e74 6d646f63",
         .trailingBytes),
        // A local message that is not NDEF.
        ("910202487315 00 5c1e0004 69736f2e6f72673a31383031333a646576696365656e676167656d656e74 6d646f63", .invalidHandover),
    ] as [(String, NFCError.Code)])
    func hostileSelect(_ text: String, _ code: NFCError.Code) {
        #expect(errorCode { try HandoverSelectMessage(bytes: hex(text)) } == code, "\(text)")
    }

    @Test("hostile alternative carrier records")
    func hostileAlternativeCarrier() throws {
        #expect(errorCode { try AlternativeCarrierRecord(payload: hex("0101")) } == .truncated)
        #expect(errorCode { try AlternativeCarrierRecord(payload: hex("05013000")) } == .malformed)
        #expect(errorCode { try AlternativeCarrierRecord(payload: hex("01003000")) } == .malformed)
        #expect(errorCode { try AlternativeCarrierRecord(payload: hex("010530")) } == .truncated)
        #expect(errorCode { try AlternativeCarrierRecord(payload: hex("010130")) } == .truncated)
        #expect(errorCode { try AlternativeCarrierRecord(payload: hex("01013002016d")) } == .truncated)
        let record = AlternativeCarrierRecord(powerState: .activating, carrierDataReference: [0x30], auxiliaryDataReferences: [[1], [2, 3]])
        #expect(try AlternativeCarrierRecord(payload: record.payload) == record)
    }

    @Test("a handover message with two DeviceEngagement records or two ReaderEngagement records fails")
    func duplicates() throws {
        let select = try HandoverSelectMessage(bytes: Vectors.annexD("nfc_handover_select"))
        let doubled = NDEFMessage(records: select.message.records + [select.message.records.last!])
        #expect(errorCode { try HandoverSelectMessage(bytes: doubled.bytes) } == .invalidHandover)
        let request = try HandoverRequestMessage(bytes: hex(Multipaz.handoverRequest))
        let twice = NDEFMessage(records: request.message.records + [request.message.records[1]])
        #expect(errorCode { try HandoverRequestMessage(bytes: twice.bytes) } == .invalidHandover)
    }

    @Test("NDEF encoding: long payloads use a 4-byte length, IDs set IL, and it reads back")
    func ndefEncoding() throws {
        let long = NDEFRecord(typeNameFormat: .external, type: Array("a:b".utf8), id: [0x41], payload: [UInt8](repeating: 9, count: 300))
        let short = NDEFRecord(typeNameFormat: .wellKnown, type: Array("T".utf8), payload: [1])
        let message = NDEFMessage(records: [long, short])
        let bytes = message.bytes
        #expect(bytes[0] == 0x8C)
        #expect(Array(bytes[2..<6]) == [0, 0, 1, 0x2C])
        #expect(try NDEFMessage(bytes: bytes) == message)
    }
}

@Suite("The capability container of a Type 4 Tag (Type 4 Tag 2.0, 5.1)")
struct CapabilityContainerTests {
    @Test("Multipaz's capability containers read and write back byte for byte")
    func multipaz() throws {
        let fixed = try CapabilityContainer(bytes: hex(Multipaz.staticCapabilityContainer))
        #expect(fixed.maximumResponseDataLength == 0x7FFF && fixed.maximumCommandDataLength == 0x7FFF)
        #expect(fixed.ndefFileIdentifier == 0xE104 && fixed.maximumNDEFFileSize == 0x7FFF)
        #expect(!fixed.isWritable)
        #expect(fixed.bytes == hex(Multipaz.staticCapabilityContainer))
        let writable = try CapabilityContainer(bytes: hex(Multipaz.negotiatedCapabilityContainer))
        #expect(writable.isWritable)
        #expect(writable.bytes == hex(Multipaz.negotiatedCapabilityContainer))
    }

    @Test("hostile capability containers, and the limits on both sides", arguments: [
        ("000f207fff7fff0406e1047fff00", NFCError.Code.truncated, 14),
        ("000e207fff7fff0406e1047fff00ff", .malformed, 0),
        ("0010207fff7fff0406e1047fff00ff", .truncated, 0),
        ("000f107fff7fff0406e1047fff00ff", .malformed, 2),
        ("000f20000e7fff0406e1047fff00ff", .malformed, 3),
        ("000f207fff00000406e1047fff00ff", .malformed, 5),
        ("000f207fff7fff0506e1047fff00ff", .malformed, 7),
        ("000f207fff7fff0405e1047fff00ff", .malformed, 7),
        ("000f207fff7fff0406e1037fff00ff", .malformed, 9),
        ("000f207fff7fff0406e1040004 00ff", .malformed, 11),
        ("000f207fff7fff0406e104ffff00ff", .malformed, 11),
    ] as [(String, NFCError.Code, Int)])
    func hostile(_ text: String, _ code: NFCError.Code, _ offset: Int) {
        do {
            _ = try CapabilityContainer(bytes: hex(text))
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.code == code, "\(text): \(error)")
            #expect(error.offset == offset, "\(text): \(error)")
        }
    }

    @Test("the smallest MLe, MLc and file sizes that are allowed")
    func lowerLimits() throws {
        let smallest = try CapabilityContainer(bytes: hex("000f20000f00010406e10400050000"))
        #expect(smallest.maximumResponseDataLength == CapabilityContainer.minimumMaximumResponseDataLength)
        #expect(smallest.maximumCommandDataLength == 1)
        #expect(smallest.maximumNDEFFileSize == CapabilityContainer.minimumNDEFFileSize)
        #expect(try CapabilityContainer(bytes: hex("000f20000f00010406e104fffe0000")).maximumNDEFFileSize == CapabilityContainer.maximumNDEFFileSize)
        // A longer CCLEN with further TLVs after the NDEF File Control TLV.
        #expect(try CapabilityContainer(bytes: hex("001120000f00010406e104fffe0000 0500")).maximumNDEFFileSize == 0xFFFE)
    }
}

@Suite("The data object 53 of NFC data retrieval (ISO/IEC 18013-5 8.3.3.1.2)")
struct DiscretionaryDataTests {
    @Test("each length form at its limits, encoded shortest and decoded back", arguments: [
        (0, 2), (127, 2), (128, 3), (255, 3), (256, 4), (65535, 4), (65536, 5),
    ])
    func lengths(_ count: Int, _ header: Int) throws {
        let message = [UInt8](repeating: 0xA5, count: count)
        let encoded = DiscretionaryData.encode(message)
        #expect(encoded.count == header + count)
        #expect(try DiscretionaryData.decode(encoded) == message)
        #expect(try DiscretionaryData.declaredLength(encoded) == encoded.count)
    }

    @Test("the largest message: 83 FFFFFF is read as a declared length, never allocated from it")
    func largest() throws {
        #expect(DiscretionaryData.maximumLength == 0xFF_FFFF)
        #expect(try DiscretionaryData.declaredLength(hex("5383FFFFFF")) == 5 + 0xFF_FFFF)
        #expect(errorCode { try DiscretionaryData.decode(hex("5383FFFFFF00")) } == .truncated)
    }

    @Test("hostile data objects", arguments: [
        ("", NFCError.Code.truncated), ("54", .malformed), ("53", .truncated), ("5380", .malformed), ("5384000000000000", .malformed),
        ("538200", .truncated), ("530201", .truncated), ("5301010203", .trailingBytes), ("53810200", .truncated),
    ] as [(String, NFCError.Code)])
    func hostile(_ text: String, _ code: NFCError.Code) {
        #expect(errorCode { try DiscretionaryData.decode(hex(text)) } == code, "\(text)")
    }

    @Test("a longer length form than needed is read, as BER allows")
    func longerForms() throws {
        #expect(try DiscretionaryData.decode(hex("5381020102")) == [1, 2])
        #expect(try DiscretionaryData.decode(hex("538300000101")) == [1])
    }
}
