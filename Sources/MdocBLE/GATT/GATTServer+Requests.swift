extension GATTServer {
    /// Why a request failed: the Error Response to send (Core Vol 3 Part F 3.4.1.1).
    struct RequestError: Error {
        let errorCode: ATTErrorCode
        let handle: UInt16
        init(_ errorCode: ATTErrorCode, _ handle: UInt16) {
            self.errorCode = errorCode
            self.handle = handle
        }
    }

    /// Processes one PDU from the client (Core Vol 3 Part F 3.3, 3.4; Part G 4).
    ///
    /// A request gets exactly one response: the answer or an Error Response. A command never gets
    /// one, not even when it fails (3.4.5.3). PDUs that are not requests or commands (responses,
    /// confirmations) and empty input produce nothing. An unknown opcode without the command flag
    /// gets "Request Not Supported"; a malformed request gets "Invalid PDU".
    public mutating func receive(_ pdu: [UInt8]) -> Output {
        guard let first = pdu.first else { return Output() }
        let opcode = ATTOpcode(rawValue: first)
        let request: ATTPDU
        do {
            request = try ATTPDU(bytes: pdu)
        } catch {
            let isRequest = error.code == .unknownOpcode ? !opcode.isCommand : opcode.responseOpcode != nil
            guard isRequest else { return Output() }
            return Output(responses: [Self.errorResponse(opcode, 0, error.responseErrorCode)])
        }
        if case .writeCommand(let handle, let value) = request {
            let events = (try? write(value, at: handle, withResponse: false)) ?? []
            return Output(events: events)
        }
        do {
            switch request {
            case .exchangeMTURequest(let clientRxMTU):
                return exchangeMTU(clientRxMTU: Int(clientRxMTU))
            case .readByGroupTypeRequest(let start, let end, let type):
                return Output(responses: [try readByGroupType(start, end, type).bytes])
            case .findByTypeValueRequest(let start, let end, let type, let value):
                return Output(responses: [try findByTypeValue(start, end, BluetoothUUID(uint16: type), value).bytes])
            case .readByTypeRequest(let start, let end, let type):
                return Output(responses: [try readByType(start, end, type).bytes])
            case .findInformationRequest(let start, let end):
                return Output(responses: [try findInformation(start, end).bytes])
            case .readRequest(let handle):
                let value = try readableAttribute(at: handle).value
                return Output(responses: [ATTPDU.readResponse(attributeValue: Array(value.prefix(mtu - 1))).bytes])
            case .readBlobRequest(let handle, let offset):
                return Output(responses: [try readBlob(handle, Int(offset)).bytes])
            case .writeRequest(let handle, let value):
                let events = try write(value, at: handle, withResponse: true)
                return Output(responses: [ATTPDU.writeResponse.bytes], events: events)
            default:
                return Output()
            }
        } catch {
            return Output(responses: [Self.errorResponse(opcode, error.handle, error.errorCode)])
        }
    }

    private static func errorResponse(_ opcode: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> [UInt8] {
        ATTPDU.errorResponse(requestOpcode: opcode, handle: handle, error: code).bytes
    }

    /// Exchange MTU (Part F 3.4.2): answer with ``receiveMTU``; the first exchange sets
    /// the ATT_MTU, a Client Rx MTU below 23 leaving it at 23. Later exchanges change nothing
    /// (the client sends it once per connection, 3.4.2.1).
    private mutating func exchangeMTU(clientRxMTU: Int) -> Output {
        let serverRxMTU = min(max(receiveMTU, Self.defaultMTU), Self.serverReceiveMTU)
        let response = ATTPDU.exchangeMTUResponse(serverRxMTU: UInt16(serverRxMTU)).bytes
        guard !hasExchangedMTU else { return Output(responses: [response]) }
        hasExchangedMTU = true
        mtu = clientRxMTU < Self.defaultMTU ? Self.defaultMTU : min(clientRxMTU, serverRxMTU)
        return Output(responses: [response], events: [.mtuExchanged(mtu)])
    }

    /// Checks a request's handle range (Part F 3.4.3.1, 3.4.4.1, 3.4.4.9) and returns the
    /// attributes in it.
    private func attributes(from start: UInt16, to end: UInt16) throws(RequestError) -> ArraySlice<Attribute> {
        guard start != 0, start <= end else { throw RequestError(.invalidHandle, start) }
        let lower = min(Int(start) - 1, attributes.count)
        let upper = min(Int(end), attributes.count)
        return attributes[lower..<upper]
    }

    /// Read By Group Type (Part F 3.4.4.9, Part G 4.4.1): service declarations in the range, as
    /// many as fit ATT_MTU, all with values of the first one's length.
    private func readByGroupType(_ start: UInt16, _ end: UInt16, _ type: BluetoothUUID) throws(RequestError) -> ATTPDU {
        let candidates = try attributes(from: start, to: end)
        guard type == .primaryService || type == .secondaryService else {
            throw RequestError(.unsupportedGroupType, start)
        }
        let found = candidates.filter { $0.type == type }
        guard let first = found.first else { throw RequestError(.attributeNotFound, start) }
        let length = min(first.value.count, mtu - 6, ATTGroupDataList.maximumValueLength)
        var entries: [ATTGroupData] = []
        for attribute in found {
            guard attribute.value.count == first.value.count,
                  2 + (entries.count + 1) * (4 + length) <= mtu else { break }
            entries.append(ATTGroupData(handle: attribute.handle, endGroupHandle: groupEnd(of: attribute),
                                        value: Array(attribute.value.prefix(length))))
        }
        return .readByGroupTypeResponse(ATTGroupDataList(uncheckedEntries: entries))
    }

    /// Find By Type Value (Part F 3.4.3.3, Part G 4.4.2): readable attributes of the type whose
    /// value equals the given one, as many as fit ATT_MTU.
    private func findByTypeValue(_ start: UInt16, _ end: UInt16, _ type: BluetoothUUID,
                                 _ value: [UInt8]) throws(RequestError) -> ATTPDU {
        let found = try attributes(from: start, to: end).filter {
            $0.type == type && $0.value == value && isReadable($0)
        }
        guard !found.isEmpty else { throw RequestError(.attributeNotFound, start) }
        let information = found.prefix((mtu - 1) / 4).map {
            ATTHandlesInformation(foundAttributeHandle: $0.handle, groupEndHandle: groupEnd(of: $0))
        }
        return .findByTypeValueResponse(information)
    }

    /// Read By Type (Part F 3.4.4.1, Part G 4.6.1): attributes of the type, values of the first
    /// one's length, each cut to min(ATT_MTU − 4, 253) octets, as many as fit ATT_MTU; stops
    /// before the first one that cannot be read.
    private func readByType(_ start: UInt16, _ end: UInt16, _ type: BluetoothUUID) throws(RequestError) -> ATTPDU {
        let found = try attributes(from: start, to: end).filter { $0.type == type }
        guard let first = found.first else { throw RequestError(.attributeNotFound, start) }
        guard isReadable(first) else { throw RequestError(.readNotPermitted, first.handle) }
        let length = min(first.value.count, mtu - 4, ATTAttributeDataList.maximumValueLength)
        var entries: [ATTAttributeData] = []
        for attribute in found {
            guard isReadable(attribute), attribute.value.count == first.value.count,
                  2 + (entries.count + 1) * (2 + length) <= mtu else { break }
            entries.append(ATTAttributeData(handle: attribute.handle, value: Array(attribute.value.prefix(length))))
        }
        return .readByTypeResponse(ATTAttributeDataList(uncheckedEntries: entries))
    }

    /// Find Information (Part F 3.4.3.1, Part G 4.7.1): handles and types in the range, all of
    /// the first one's UUID size, as many as fit ATT_MTU.
    private func findInformation(_ start: UInt16, _ end: UInt16) throws(RequestError) -> ATTPDU {
        let found = try attributes(from: start, to: end)
        guard let first = found.first else { throw RequestError(.attributeNotFound, start) }
        let short = first.type.uint16 != nil
        let entryLength = short ? 4 : 18
        var information: [ATTHandleUUID] = []
        for attribute in found {
            guard (attribute.type.uint16 != nil) == short,
                  2 + (information.count + 1) * entryLength <= mtu else { break }
            information.append(ATTHandleUUID(handle: attribute.handle, uuid: attribute.type))
        }
        return .findInformationResponse(information)
    }

    /// Read Blob (Part F 3.4.4.5): the value from `offset`, at most ATT_MTU − 1 octets; an
    /// offset past the end is "Invalid Offset".
    private func readBlob(_ handle: UInt16, _ offset: Int) throws(RequestError) -> ATTPDU {
        let value = try readableAttribute(at: handle).value
        guard offset <= value.count else { throw RequestError(.invalidOffset, handle) }
        return .readBlobResponse(partAttributeValue: Array(value[offset..<min(value.count, offset + mtu - 1)]))
    }

    private func readableAttribute(at handle: UInt16) throws(RequestError) -> Attribute {
        guard let attribute = attribute(at: handle) else { throw RequestError(.invalidHandle, handle) }
        guard isReadable(attribute) else { throw RequestError(.readNotPermitted, handle) }
        return attribute
    }

    /// Writes a characteristic value (Part G 4.9.1, 4.9.3) or a Client Characteristic
    /// Configuration descriptor (Part G 4.12.3, 3.3.3.3; bits for notify and indicate are kept
    /// only when the characteristic has that property).
    private mutating func write(_ value: [UInt8], at handle: UInt16,
                                withResponse: Bool) throws(RequestError) -> [GATTServerEvent] {
        guard let attribute = attribute(at: handle) else { throw RequestError(.invalidHandle, handle) }
        let index = Int(handle) - 1
        switch attribute.role {
        case .characteristicValue(let characteristic):
            let record = characteristics[characteristic]
            guard record.properties.contains(withResponse ? .write : .writeWithoutResponse) else {
                throw RequestError(.writeNotPermitted, handle)
            }
            guard value.count <= Self.maximumAttributeValueLength else {
                throw RequestError(.invalidAttributeValueLength, handle)
            }
            attributes[index].value = value
            return [.written(characteristic: record.uuid, value: value, withResponse: withResponse)]
        case .clientCharacteristicConfiguration(let characteristic):
            guard value.count == 2 else { throw RequestError(.invalidAttributeValueLength, handle) }
            let record = characteristics[characteristic]
            var allowed: UInt16 = 0
            if record.properties.contains(.notify) { allowed |= Self.notificationsEnabled }
            if record.properties.contains(.indicate) { allowed |= Self.indicationsEnabled }
            let configuration = (UInt16(value[0]) | UInt16(value[1]) << 8) & allowed
            attributes[index].value = [UInt8(configuration & 0xFF), UInt8(configuration >> 8)]
            return [.subscriptionChanged(characteristic: record.uuid,
                                         notifications: configuration & Self.notificationsEnabled != 0)]
        case .service, .characteristicDeclaration:
            throw RequestError(.writeNotPermitted, handle)
        }
    }

    private func isReadable(_ attribute: Attribute) -> Bool {
        if case .characteristicValue(let index) = attribute.role {
            return characteristics[index].properties.contains(.read)
        }
        return true
    }

    private func groupEnd(of attribute: Attribute) -> UInt16 {
        if case .service(let endGroupHandle) = attribute.role { return endGroupHandle }
        return attribute.handle
    }
}
