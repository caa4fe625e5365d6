extension GATTClient {
    /// The «Primary Service» attribute type as Find By Type Value carries it (Core Vol 3 Part G 3.1).
    static let primaryServiceType: UInt16 = 0x2800
    /// The lowest and highest attribute handles (Core Vol 3 Part F 3.2.2).
    static let handleRange: ClosedRange<UInt16> = 0x0001...0xFFFF

    /// Discover Primary Service by Service UUID (Core Vol 3 Part G 4.4.2): a Find By Type Value
    /// Request over all handles; the first match. Throws `serviceNotFound` when the server has
    /// none.
    public func discoverPrimaryService(_ uuid: BluetoothUUID) async throws(BLEError) -> GATTRemoteService {
        let request = ATTPDU.findByTypeValueRequest(startingHandle: Self.handleRange.lowerBound,
                                                    endingHandle: Self.handleRange.upperBound,
                                                    attributeType: Self.primaryServiceType,
                                                    attributeValue: uuid.littleEndianBytes)
        let response: ATTPDU
        do {
            response = try await transact(request)
        } catch where error.attErrorCode == .attributeNotFound {
            throw BLEError(.serviceNotFound, "the GATT server has no primary service \(uuid)")
        }
        guard case .findByTypeValueResponse(let found) = response, let first = found.first else {
            throw unexpected(response, for: .findByTypeValueRequest)
        }
        guard first.foundAttributeHandle != 0, first.groupEndHandle >= first.foundAttributeHandle else {
            throw BLEError(.protocolViolation,
                           "service \(uuid) found at handles \(first.foundAttributeHandle)...\(first.groupEndHandle), not a valid range")
        }
        return GATTRemoteService(uuid: uuid, handle: first.foundAttributeHandle, endGroupHandle: first.groupEndHandle)
    }

    /// Discover All Characteristics of a Service (Core Vol 3 Part G 4.6.1: Read By Type
    /// Requests for «Characteristic» over the service's range until "Attribute Not Found"), then
    /// for each characteristic that notifies or indicates, Discover All Characteristic
    /// Descriptors (4.7.1: Find Information) up to the next declaration, for its Client
    /// Characteristic Configuration descriptor.
    public func discoverCharacteristics(of service: GATTRemoteService) async throws(BLEError) -> [GATTRemoteCharacteristic] {
        let declarations = try await characteristicDeclarations(of: service)
        var characteristics: [GATTRemoteCharacteristic] = []
        for (index, declaration) in declarations.enumerated() {
            let end = index + 1 < declarations.count ? declarations[index + 1].declarationHandle - 1 : service.endGroupHandle
            var characteristic = declaration
            if !declaration.properties.isDisjoint(with: [.notify, .indicate]), declaration.valueHandle < end {
                characteristic.clientCharacteristicConfigurationHandle =
                    try await configurationDescriptor(from: declaration.valueHandle + 1, to: end)
            }
            characteristics.append(characteristic)
        }
        return characteristics
    }

    private func characteristicDeclarations(of service: GATTRemoteService) async throws(BLEError) -> [GATTRemoteCharacteristic] {
        var declarations: [GATTRemoteCharacteristic] = []
        var start = service.handle
        while start <= service.endGroupHandle {
            let response: ATTPDU
            do {
                response = try await transact(.readByTypeRequest(startingHandle: start, endingHandle: service.endGroupHandle,
                                                                 attributeType: .characteristic))
            } catch where error.attErrorCode == .attributeNotFound {
                break
            }
            guard case .readByTypeResponse(let list) = response else {
                throw unexpected(response, for: .readByTypeRequest)
            }
            var next = Int(start)
            for entry in list.entries {
                guard entry.handle >= next, entry.handle <= service.endGroupHandle else {
                    throw BLEError(.protocolViolation,
                                   "characteristic declaration at handle \(entry.handle) lies outside \(next)...\(service.endGroupHandle) or out of order")
                }
                let declaration = try Self.declaration(entry, in: service)
                declarations.append(declaration)
                next = Int(entry.handle) + 1
            }
            guard next <= service.endGroupHandle else { break }
            start = UInt16(next)
        }
        return declarations
    }

    /// Decodes a characteristic declaration value: properties, value handle, UUID
    /// (Core Vol 3 Part G 3.3.1).
    private static func declaration(_ entry: ATTAttributeData,
                                    in service: GATTRemoteService) throws(BLEError) -> GATTRemoteCharacteristic {
        let value = entry.value
        guard value.count == 5 || value.count == 19,
              let uuid = BluetoothUUID(littleEndianBytes: value.dropFirst(3)) else {
            throw BLEError(.protocolViolation,
                           "the characteristic declaration at handle \(entry.handle) has \(value.count) bytes; expected 5 or 19")
        }
        let valueHandle = UInt16(value[1]) | UInt16(value[2]) << 8
        guard valueHandle > entry.handle, valueHandle <= service.endGroupHandle else {
            throw BLEError(.protocolViolation,
                           "the characteristic \(uuid) declared at handle \(entry.handle) names value handle \(valueHandle), outside its service")
        }
        return GATTRemoteCharacteristic(uuid: uuid, properties: GATTCharacteristicProperties(rawValue: value[0]),
                                        declarationHandle: entry.handle, valueHandle: valueHandle,
                                        clientCharacteristicConfigurationHandle: nil)
    }

    /// The handle of the first Client Characteristic Configuration descriptor in `start...end`.
    private func configurationDescriptor(from start: UInt16, to end: UInt16) async throws(BLEError) -> UInt16? {
        var start = start
        while start <= end {
            let response: ATTPDU
            do {
                response = try await transact(.findInformationRequest(startingHandle: start, endingHandle: end))
            } catch where error.attErrorCode == .attributeNotFound {
                return nil
            }
            guard case .findInformationResponse(let information) = response else {
                throw unexpected(response, for: .findInformationRequest)
            }
            var next = Int(start)
            for entry in information {
                guard entry.handle >= next, entry.handle <= end else {
                    throw BLEError(.protocolViolation,
                                   "descriptor at handle \(entry.handle) lies outside \(next)...\(end) or out of order")
                }
                if entry.uuid == .clientCharacteristicConfiguration { return entry.handle }
                next = Int(entry.handle) + 1
            }
            guard next <= end else { return nil }
            start = UInt16(next)
        }
        return nil
    }
}
