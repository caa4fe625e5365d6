/// An ATT PDU of the kinds the GATT client and server of this module exchange
/// (Bluetooth Core Vol 3 Part F 3.4). Multi-octet fields are little-endian (3.3).
///
/// `init(bytes:)` decodes, checking every length; `bytes` encodes. Parameters are named after
/// the Core specification's fields.
public enum ATTPDU: Sendable, Hashable {
    /// ATT_ERROR_RSP: the request with `requestOpcode` on `handle` failed with `error` (3.4.1.1).
    case errorResponse(requestOpcode: ATTOpcode, handle: UInt16, error: ATTErrorCode)
    /// ATT_EXCHANGE_MTU_REQ: the client's receive MTU (3.4.2.1).
    case exchangeMTURequest(clientRxMTU: UInt16)
    /// ATT_EXCHANGE_MTU_RSP: the server's receive MTU (3.4.2.2).
    case exchangeMTUResponse(serverRxMTU: UInt16)
    /// ATT_FIND_INFORMATION_REQ over a handle range (3.4.3.1).
    case findInformationRequest(startingHandle: UInt16, endingHandle: UInt16)
    /// ATT_FIND_INFORMATION_RSP (3.4.3.2). Encoded in the 16-bit format (0x01) when every UUID
    /// has a 16-bit form, else in the 128-bit format (0x02) with all UUIDs in 128-bit form.
    case findInformationResponse([ATTHandleUUID])
    /// ATT_FIND_BY_TYPE_VALUE_REQ: attributes of 16-bit type `attributeType` whose value equals
    /// `attributeValue` (3.4.3.3).
    case findByTypeValueRequest(startingHandle: UInt16, endingHandle: UInt16, attributeType: UInt16,
                                attributeValue: [UInt8])
    /// ATT_FIND_BY_TYPE_VALUE_RSP (3.4.3.4).
    case findByTypeValueResponse([ATTHandlesInformation])
    /// ATT_READ_BY_TYPE_REQ (3.4.4.1).
    case readByTypeRequest(startingHandle: UInt16, endingHandle: UInt16, attributeType: BluetoothUUID)
    /// ATT_READ_BY_TYPE_RSP (3.4.4.2).
    case readByTypeResponse(ATTAttributeDataList)
    /// ATT_READ_REQ (3.4.4.3).
    case readRequest(attributeHandle: UInt16)
    /// ATT_READ_RSP: the value, or its first ATT_MTU − 1 octets (3.4.4.4).
    case readResponse(attributeValue: [UInt8])
    /// ATT_READ_BLOB_REQ: the value from `valueOffset` on (3.4.4.5).
    case readBlobRequest(attributeHandle: UInt16, valueOffset: UInt16)
    /// ATT_READ_BLOB_RSP (3.4.4.6).
    case readBlobResponse(partAttributeValue: [UInt8])
    /// ATT_READ_BY_GROUP_TYPE_REQ (3.4.4.9).
    case readByGroupTypeRequest(startingHandle: UInt16, endingHandle: UInt16, attributeGroupType: BluetoothUUID)
    /// ATT_READ_BY_GROUP_TYPE_RSP (3.4.4.10).
    case readByGroupTypeResponse(ATTGroupDataList)
    /// ATT_WRITE_REQ (3.4.5.1).
    case writeRequest(attributeHandle: UInt16, attributeValue: [UInt8])
    /// ATT_WRITE_RSP (3.4.5.2).
    case writeResponse
    /// ATT_WRITE_CMD: a write that gets no response (3.4.5.3).
    case writeCommand(attributeHandle: UInt16, attributeValue: [UInt8])
    /// ATT_HANDLE_VALUE_NTF (3.4.7.1).
    case handleValueNotification(attributeHandle: UInt16, attributeValue: [UInt8])
    /// ATT_HANDLE_VALUE_IND: a notification the client confirms (3.4.7.2).
    case handleValueIndication(attributeHandle: UInt16, attributeValue: [UInt8])
    /// ATT_HANDLE_VALUE_CFM (3.4.7.3).
    case handleValueConfirmation

    /// The PDU's opcode (Core Vol 3 Part F 3.4.8).
    public var opcode: ATTOpcode {
        switch self {
        case .errorResponse: .errorResponse
        case .exchangeMTURequest: .exchangeMTURequest
        case .exchangeMTUResponse: .exchangeMTUResponse
        case .findInformationRequest: .findInformationRequest
        case .findInformationResponse: .findInformationResponse
        case .findByTypeValueRequest: .findByTypeValueRequest
        case .findByTypeValueResponse: .findByTypeValueResponse
        case .readByTypeRequest: .readByTypeRequest
        case .readByTypeResponse: .readByTypeResponse
        case .readRequest: .readRequest
        case .readResponse: .readResponse
        case .readBlobRequest: .readBlobRequest
        case .readBlobResponse: .readBlobResponse
        case .readByGroupTypeRequest: .readByGroupTypeRequest
        case .readByGroupTypeResponse: .readByGroupTypeResponse
        case .writeRequest: .writeRequest
        case .writeResponse: .writeResponse
        case .writeCommand: .writeCommand
        case .handleValueNotification: .handleValueNotification
        case .handleValueIndication: .handleValueIndication
        case .handleValueConfirmation: .handleValueConfirmation
        }
    }

    /// The encoded PDU: opcode then parameters (Core Vol 3 Part F 3.3).
    public var bytes: [UInt8] {
        var out: [UInt8] = [opcode.rawValue]
        func put(_ value: UInt16) {
            out.append(UInt8(value & 0xFF))
            out.append(UInt8(value >> 8))
        }
        switch self {
        case .errorResponse(let requestOpcode, let handle, let error):
            out.append(requestOpcode.rawValue)
            put(handle)
            out.append(error.rawValue)
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
            put(mtu)
        case .findInformationRequest(let start, let end):
            put(start)
            put(end)
        case .findInformationResponse(let information):
            let short = information.allSatisfy { $0.uuid.uint16 != nil }
            out.append(short ? Self.informationFormat16Bit : Self.informationFormat128Bit)
            for entry in information {
                put(entry.handle)
                out += short ? entry.uuid.littleEndianBytes : entry.uuid.longLittleEndianBytes
            }
        case .findByTypeValueRequest(let start, let end, let type, let value):
            put(start)
            put(end)
            put(type)
            out += value
        case .findByTypeValueResponse(let handles):
            for entry in handles {
                put(entry.foundAttributeHandle)
                put(entry.groupEndHandle)
            }
        case .readByTypeRequest(let start, let end, let type),
             .readByGroupTypeRequest(let start, let end, let type):
            put(start)
            put(end)
            out += type.littleEndianBytes
        case .readByTypeResponse(let list):
            out.append(UInt8(2 + list.valueLength))
            for entry in list.entries {
                put(entry.handle)
                out += entry.value
            }
        case .readByGroupTypeResponse(let list):
            out.append(UInt8(4 + list.valueLength))
            for entry in list.entries {
                put(entry.handle)
                put(entry.endGroupHandle)
                out += entry.value
            }
        case .readRequest(let handle):
            put(handle)
        case .readResponse(let value), .readBlobResponse(let value):
            out += value
        case .readBlobRequest(let handle, let offset):
            put(handle)
            put(offset)
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
             .handleValueNotification(let handle, let value), .handleValueIndication(let handle, let value):
            put(handle)
            out += value
        case .writeResponse, .handleValueConfirmation:
            break
        }
        return out
    }

    /// Find Information Response format: handles with 16-bit UUIDs (Core Vol 3 Part F 3.4.3.2).
    static let informationFormat16Bit: UInt8 = 0x01
    /// Find Information Response format: handles with 128-bit UUIDs.
    static let informationFormat128Bit: UInt8 = 0x02
}
