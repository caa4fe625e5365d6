extension ATTPDU {
    /// Decodes one ATT PDU (Bluetooth Core Vol 3 Part F 3.4), checking its length against the
    /// layout its opcode defines.
    ///
    /// Throws `ATTError.Code.unknownOpcode` for an opcode this codec does not implement (or an
    /// empty input) and `malformedPDU` when the parameters do not fit the layout.
    public init(bytes: [UInt8]) throws(ATTError) {
        guard let first = bytes.first else {
            throw ATTError(.malformedPDU, "an ATT PDU needs at least the opcode octet; got 0 bytes")
        }
        let opcode = ATTOpcode(rawValue: first)
        var reader = ATTPDUReader(bytes: bytes, opcode: opcode)
        switch opcode {
        case .errorResponse:
            try reader.expectLength(5)
            self = .errorResponse(requestOpcode: ATTOpcode(rawValue: try reader.uint8()),
                                  handle: try reader.uint16(), error: ATTErrorCode(rawValue: try reader.uint8()))
        case .exchangeMTURequest:
            try reader.expectLength(3)
            self = .exchangeMTURequest(clientRxMTU: try reader.uint16())
        case .exchangeMTUResponse:
            try reader.expectLength(3)
            self = .exchangeMTUResponse(serverRxMTU: try reader.uint16())
        case .findInformationRequest:
            try reader.expectLength(5)
            self = .findInformationRequest(startingHandle: try reader.uint16(), endingHandle: try reader.uint16())
        case .findInformationResponse:
            self = .findInformationResponse(try reader.informationData())
        case .findByTypeValueRequest:
            try reader.expectMinimumLength(7)
            self = .findByTypeValueRequest(startingHandle: try reader.uint16(), endingHandle: try reader.uint16(),
                                           attributeType: try reader.uint16(), attributeValue: reader.rest())
        case .findByTypeValueResponse:
            self = .findByTypeValueResponse(try reader.handlesInformationList())
        case .readByTypeRequest:
            self = .readByTypeRequest(startingHandle: try reader.uint16(), endingHandle: try reader.uint16(),
                                      attributeType: try reader.uuid())
        case .readByTypeResponse:
            self = .readByTypeResponse(try reader.attributeDataList())
        case .readRequest:
            try reader.expectLength(3)
            self = .readRequest(attributeHandle: try reader.uint16())
        case .readResponse:
            self = .readResponse(attributeValue: reader.rest())
        case .readBlobRequest:
            try reader.expectLength(5)
            self = .readBlobRequest(attributeHandle: try reader.uint16(), valueOffset: try reader.uint16())
        case .readBlobResponse:
            self = .readBlobResponse(partAttributeValue: reader.rest())
        case .readByGroupTypeRequest:
            self = .readByGroupTypeRequest(startingHandle: try reader.uint16(), endingHandle: try reader.uint16(),
                                           attributeGroupType: try reader.uuid())
        case .readByGroupTypeResponse:
            self = .readByGroupTypeResponse(try reader.groupDataList())
        case .writeRequest:
            try reader.expectMinimumLength(3)
            self = .writeRequest(attributeHandle: try reader.uint16(), attributeValue: reader.rest())
        case .writeResponse:
            try reader.expectLength(1)
            self = .writeResponse
        case .writeCommand:
            try reader.expectMinimumLength(3)
            self = .writeCommand(attributeHandle: try reader.uint16(), attributeValue: reader.rest())
        case .handleValueNotification:
            try reader.expectMinimumLength(3)
            self = .handleValueNotification(attributeHandle: try reader.uint16(), attributeValue: reader.rest())
        case .handleValueIndication:
            try reader.expectMinimumLength(3)
            self = .handleValueIndication(attributeHandle: try reader.uint16(), attributeValue: reader.rest())
        case .handleValueConfirmation:
            try reader.expectLength(1)
            self = .handleValueConfirmation
        default:
            throw ATTError(.unknownOpcode, "\(opcode) is not an ATT PDU this implementation handles", opcode: opcode)
        }
    }
}

/// A bounds-checked cursor over one PDU's bytes, positioned after the opcode.
struct ATTPDUReader {
    let bytes: [UInt8]
    let opcode: ATTOpcode
    var offset = 1

    init(bytes: [UInt8], opcode: ATTOpcode) {
        self.bytes = bytes
        self.opcode = opcode
    }

    private var remaining: Int { bytes.count - offset }

    private func malformed(_ what: String) -> ATTError {
        ATTError(.malformedPDU, "\(opcode): \(what)", opcode: opcode)
    }

    func expectLength(_ length: Int) throws(ATTError) {
        guard bytes.count == length else {
            throw malformed("expected \(length) bytes, got \(bytes.count)")
        }
    }

    func expectMinimumLength(_ length: Int) throws(ATTError) {
        guard bytes.count >= length else {
            throw malformed("expected at least \(length) bytes, got \(bytes.count)")
        }
    }

    mutating func uint8() throws(ATTError) -> UInt8 {
        guard remaining >= 1 else { throw malformed("truncated at byte \(offset) of \(bytes.count)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() throws(ATTError) -> UInt16 {
        guard remaining >= 2 else { throw malformed("truncated at byte \(offset) of \(bytes.count)") }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func take(_ count: Int) throws(ATTError) -> [UInt8] {
        guard count >= 0, remaining >= count else {
            throw malformed("needs \(count) bytes at byte \(offset), \(remaining) remain")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    /// The rest of the PDU as a 2- or 16-octet UUID (request attribute types, 3.4.4.1 and 3.4.4.9).
    mutating func uuid() throws(ATTError) -> BluetoothUUID {
        let tail = rest()
        guard let uuid = BluetoothUUID(littleEndianBytes: tail) else {
            throw malformed("the attribute type must be 2 or 16 bytes, got \(tail.count)")
        }
        return uuid
    }

    /// Format octet, then (handle, UUID) pairs of 4 or 18 octets (3.4.3.2).
    mutating func informationData() throws(ATTError) -> [ATTHandleUUID] {
        let format = try uint8()
        let uuidLength: Int
        switch format {
        case ATTPDU.informationFormat16Bit: uuidLength = 2
        case ATTPDU.informationFormat128Bit: uuidLength = 16
        default: throw malformed("format \(format) is neither 0x01 (16-bit UUIDs) nor 0x02 (128-bit UUIDs)")
        }
        let pairs = try entries(ofLength: 2 + uuidLength, what: "handle-UUID pairs")
        var information: [ATTHandleUUID] = []
        for _ in 0..<pairs {
            let handle = try uint16()
            guard let uuid = BluetoothUUID(littleEndianBytes: try take(uuidLength)) else {
                throw malformed("a UUID of \(uuidLength) bytes")
            }
            information.append(ATTHandleUUID(handle: handle, uuid: uuid))
        }
        return information
    }

    /// (found handle, group end handle) pairs of 4 octets (3.4.3.4).
    mutating func handlesInformationList() throws(ATTError) -> [ATTHandlesInformation] {
        let count = try entries(ofLength: 4, what: "handle pairs")
        var list: [ATTHandlesInformation] = []
        for _ in 0..<count {
            list.append(ATTHandlesInformation(foundAttributeHandle: try uint16(), groupEndHandle: try uint16()))
        }
        return list
    }

    /// Length octet, then (handle, value) pairs of that length (3.4.4.2).
    mutating func attributeDataList() throws(ATTError) -> ATTAttributeDataList {
        let length = Int(try uint8())
        guard length >= 2 else { throw malformed("the length field \(length) is below the 2-byte handle") }
        let count = try entries(ofLength: length, what: "handle-value pairs")
        var list: [ATTAttributeData] = []
        for _ in 0..<count {
            list.append(ATTAttributeData(handle: try uint16(), value: try take(length - 2)))
        }
        return ATTAttributeDataList(uncheckedEntries: list)
    }

    /// Length octet, then (handle, end group handle, value) entries of that length (3.4.4.10).
    mutating func groupDataList() throws(ATTError) -> ATTGroupDataList {
        let length = Int(try uint8())
        guard length >= 4 else { throw malformed("the length field \(length) is below the two 2-byte handles") }
        let count = try entries(ofLength: length, what: "group entries")
        var list: [ATTGroupData] = []
        for _ in 0..<count {
            list.append(ATTGroupData(handle: try uint16(), endGroupHandle: try uint16(), value: try take(length - 4)))
        }
        return ATTGroupDataList(uncheckedEntries: list)
    }

    /// How many entries of `length` octets fill the rest of the PDU: at least one, no remainder.
    private func entries(ofLength length: Int, what: String) throws(ATTError) -> Int {
        guard remaining > 0, remaining % length == 0 else {
            throw malformed("\(remaining) bytes of \(what) is not a positive multiple of \(length)")
        }
        return remaining / length
    }
}
