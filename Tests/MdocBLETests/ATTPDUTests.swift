@testable import MdocBLE
import MdocTestSupport
import Testing

@Suite("ATT PDU codec (Core Vol 3 Part F 3.4)")
struct ATTPDUTests {
    static let long = GATTTestFixtures.state
    static let longBytes = GATTTestFixtures.state.littleEndianBytes

    /// Every PDU kind with its exact encoding.
    static let vectors: [(ATTPDU, [UInt8])] = {
        let dataList = try? ATTAttributeDataList([ATTAttributeData(handle: 2, value: [0x14, 0x03, 0x00]),
                                                  ATTAttributeData(handle: 5, value: [0x04, 0x06, 0x00])])
        let groupList = try? ATTGroupDataList([ATTGroupData(handle: 1, endGroupHandle: 0x0B, value: [0x0F, 0x18])])
        guard let dataList, let groupList else { return [] }
        return [
            (.errorResponse(requestOpcode: .readRequest, handle: 0x0102, error: .readNotPermitted),
             [0x01, 0x0A, 0x02, 0x01, 0x02]),
            (.exchangeMTURequest(clientRxMTU: 515), [0x02, 0x03, 0x02]),
            (.exchangeMTUResponse(serverRxMTU: 517), [0x03, 0x05, 0x02]),
            (.findInformationRequest(startingHandle: 4, endingHandle: 0xFFFF), [0x04, 0x04, 0x00, 0xFF, 0xFF]),
            (.findInformationResponse([ATTHandleUUID(handle: 4, uuid: .clientCharacteristicConfiguration),
                                       ATTHandleUUID(handle: 5, uuid: .characteristic)]),
             [0x05, 0x01, 0x04, 0x00, 0x02, 0x29, 0x05, 0x00, 0x03, 0x28]),
            (.findInformationResponse([ATTHandleUUID(handle: 3, uuid: long)]), [0x05, 0x02, 0x03, 0x00] + longBytes),
            (.findByTypeValueRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: 0x2800,
                                     attributeValue: longBytes),
             [0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28] + longBytes),
            (.findByTypeValueResponse([ATTHandlesInformation(foundAttributeHandle: 1, groupEndHandle: 0x0D)]),
             [0x07, 0x01, 0x00, 0x0D, 0x00]),
            (.readByTypeRequest(startingHandle: 1, endingHandle: 0x0D, attributeType: .characteristic),
             [0x08, 0x01, 0x00, 0x0D, 0x00, 0x03, 0x28]),
            (.readByTypeRequest(startingHandle: 1, endingHandle: 2, attributeType: long),
             [0x08, 0x01, 0x00, 0x02, 0x00] + longBytes),
            (.readByTypeResponse(dataList),
             [0x09, 0x05, 0x02, 0x00, 0x14, 0x03, 0x00, 0x05, 0x00, 0x04, 0x06, 0x00]),
            (.readRequest(attributeHandle: 0x0B), [0x0A, 0x0B, 0x00]),
            (.readResponse(attributeValue: [1, 2, 3]), [0x0B, 1, 2, 3]),
            (.readResponse(attributeValue: []), [0x0B]),
            (.readBlobRequest(attributeHandle: 0x0D, valueOffset: 22), [0x0C, 0x0D, 0x00, 0x16, 0x00]),
            (.readBlobResponse(partAttributeValue: [9]), [0x0D, 9]),
            (.readByGroupTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeGroupType: .primaryService),
             [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]),
            (.readByGroupTypeResponse(groupList), [0x11, 0x06, 0x01, 0x00, 0x0B, 0x00, 0x0F, 0x18]),
            (.writeRequest(attributeHandle: 4, attributeValue: [1, 0]), [0x12, 0x04, 0x00, 0x01, 0x00]),
            (.writeResponse, [0x13]),
            (.writeCommand(attributeHandle: 3, attributeValue: [1]), [0x52, 0x03, 0x00, 0x01]),
            (.writeCommand(attributeHandle: 3, attributeValue: []), [0x52, 0x03, 0x00]),
            (.handleValueNotification(attributeHandle: 8, attributeValue: [0, 1]), [0x1B, 0x08, 0x00, 0, 1]),
            (.handleValueIndication(attributeHandle: 8, attributeValue: [2]), [0x1D, 0x08, 0x00, 2]),
            (.handleValueConfirmation, [0x1E]),
        ]
    }()

    @Test("every PDU encodes to its bytes and decodes back")
    func roundTrips() throws {
        #expect(Self.vectors.count == 25)
        for (pdu, bytes) in Self.vectors {
            #expect(pdu.bytes == bytes, "\(pdu.opcode)")
            #expect(try ATTPDU(bytes: bytes) == pdu, "\(pdu.opcode)")
            #expect(pdu.opcode.rawValue == bytes[0])
        }
    }

    @Test("Find Information with mixed UUID sizes uses the 128-bit format for all")
    func mixedInformationFormat() throws {
        let pdu = ATTPDU.findInformationResponse([ATTHandleUUID(handle: 2, uuid: .characteristic),
                                                  ATTHandleUUID(handle: 3, uuid: Self.long)])
        let bytes = pdu.bytes
        #expect(bytes.count == 2 + 2 * 18)
        #expect(bytes[1] == 0x02)
        #expect(try ATTPDU(bytes: bytes) == pdu)
    }

    /// Malformed encodings of each implemented opcode.
    static let malformed: [[UInt8]] = [
        [],
        [0x01, 0x0A, 0x02, 0x01], [0x01, 0x0A, 0x02, 0x01, 0x02, 0x00],
        [0x02, 0x17], [0x02, 0x17, 0x00, 0x00],
        [0x03], [0x03, 0x17, 0x00, 0x01],
        [0x04, 0x01, 0x00, 0xFF], [0x04, 0x01, 0x00, 0xFF, 0xFF, 0x00],
        [0x05], [0x05, 0x01], [0x05, 0x03, 0x01, 0x00, 0x00, 0x28], [0x05, 0x01, 0x01, 0x00, 0x00],
        [0x05, 0x02, 0x01, 0x00, 0x00, 0x28],
        [0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00],
        [0x07], [0x07, 0x01, 0x00, 0x02],
        [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x00], [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x00],
        [0x08, 0x01, 0x00], [0x08],
        [0x09], [0x09, 0x02], [0x09, 0x01, 0x02, 0x00], [0x09, 0x03, 0x02, 0x00, 0x01, 0x03],
        [0x0A, 0x01], [0x0A, 0x01, 0x00, 0x00],
        [0x0C, 0x01, 0x00, 0x00], [0x0C, 0x01, 0x00, 0x00, 0x00, 0x00],
        [0x10, 0x01, 0x00, 0xFF, 0xFF], [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x00, 0x00],
        [0x11], [0x11, 0x03, 0x01, 0x00, 0x02], [0x11, 0x06, 0x01, 0x00, 0x0B, 0x00, 0x0F],
        [0x12, 0x01], [0x13, 0x00], [0x52, 0x01],
        [0x1B, 0x08], [0x1D], [0x1E, 0x00],
    ]

    @Test("malformed PDUs are rejected with malformedPDU, never a crash")
    func malformedPDUs() {
        for bytes in Self.malformed {
            #expect(throws: ATTError(.malformedPDU, ""), "\(bytes)") { try ATTPDU(bytes: bytes) }
        }
    }

    @Test("opcodes this codec does not implement are unknownOpcode and answered Request Not Supported",
          arguments: [0x00, 0x0E, 0x16, 0x18, 0x20, 0x23, 0xD2, 0xFF] as [UInt8])
    func unknownOpcodes(opcode: UInt8) {
        do {
            _ = try ATTPDU(bytes: [opcode, 0x01, 0x00])
            Issue.record("decoded an unknown opcode")
        } catch {
            #expect(error.code == .unknownOpcode)
            #expect(error.responseErrorCode == .requestNotSupported)
            #expect(error.opcode?.rawValue == opcode)
        }
    }

    @Test("a malformed request maps to Invalid PDU")
    func malformedMapsToInvalidPDU() {
        #expect(ATTError(.malformedPDU, "x").responseErrorCode == .invalidPDU)
    }

    @Test("decoding errors name the PDU and the sizes")
    func errorMessages() {
        do {
            _ = try ATTPDU(bytes: [0x0A, 0x01])
        } catch {
            #expect(error.description == "malformedPDU: Read Request (0x0A): expected 3 bytes, got 2")
        }
    }

    @Test("the command flag marks Write Command and Signed Write Command")
    func commandFlag() {
        #expect(ATTOpcode.writeCommand.isCommand)
        #expect(ATTOpcode(rawValue: 0xD2).isCommand)
        #expect(!ATTOpcode.writeRequest.isCommand)
        #expect(!ATTOpcode.handleValueNotification.isCommand)
        #expect(ATTOpcode.readRequest.responseOpcode == .readResponse)
        #expect(ATTOpcode.handleValueIndication.responseOpcode == nil)
        #expect(ATTOpcode(rawValue: 0x99).description == "opcode 0x99")
    }

    @Test("error codes print their Core names")
    func errorCodeNames() {
        #expect(ATTErrorCode.attributeNotFound.description == "Attribute Not Found (0x0A)")
        #expect(ATTErrorCode.invalidHandle.description == "Invalid Handle (0x01)")
        #expect(ATTErrorCode(rawValue: 0x80).description == "Application Error (0x80)")
        #expect(ATTErrorCode(rawValue: 0x50).description == "Reserved (0x50)")
    }
}

@Suite("ATT attribute data lists: equal lengths within the Length octet (Core Vol 3 Part F 3.4.4.2, 3.4.4.10)")
struct ATTDataListTests {
    @Test("Read By Type values up to 253 bytes; 254 is refused")
    func attributeDataLimit() throws {
        let limit = ATTAttributeDataList.maximumValueLength
        #expect(limit == 253)
        let list = try ATTAttributeDataList([ATTAttributeData(handle: 1, value: .init(repeating: 7, count: limit))])
        #expect(ATTPDU.readByTypeResponse(list).bytes[1] == 255)
        #expect(throws: ATTError(.invalidParameter, "")) {
            try ATTAttributeDataList([ATTAttributeData(handle: 1, value: .init(repeating: 7, count: limit + 1))])
        }
    }

    @Test("Read By Group Type values up to 251 bytes; 252 is refused")
    func groupDataLimit() throws {
        let limit = ATTGroupDataList.maximumValueLength
        #expect(limit == 251)
        let list = try ATTGroupDataList([ATTGroupData(handle: 1, endGroupHandle: 2, value: .init(repeating: 7, count: limit))])
        #expect(ATTPDU.readByGroupTypeResponse(list).bytes[1] == 255)
        #expect(throws: ATTError(.invalidParameter, "")) {
            try ATTGroupDataList([ATTGroupData(handle: 1, endGroupHandle: 2, value: .init(repeating: 7, count: limit + 1))])
        }
    }

    @Test("empty lists and lists of unequal lengths are refused")
    func inconsistentLists() {
        #expect(throws: ATTError(.invalidParameter, "")) { try ATTAttributeDataList([]) }
        #expect(throws: ATTError(.invalidParameter, "")) { try ATTGroupDataList([]) }
        #expect(throws: ATTError(.invalidParameter, "")) {
            try ATTAttributeDataList([ATTAttributeData(handle: 1, value: [1]), ATTAttributeData(handle: 2, value: [1, 2])])
        }
        #expect(throws: ATTError(.invalidParameter, "")) {
            try ATTGroupDataList([ATTGroupData(handle: 1, endGroupHandle: 1, value: [1]),
                                  ATTGroupData(handle: 2, endGroupHandle: 2, value: [])])
        }
    }
}
