/// A GATT server's attribute database and per-connection state, as a pure value
/// (Bluetooth Core Vol 3 Part G 3, with the ATT server rules of Part F 3.4).
///
/// `receive(_:)` takes one PDU from the client and returns the response to send (if any) and
/// what happened. One value serves one connection: the ATT_MTU and the Client Characteristic
/// Configuration values it holds are per connection (Part G 3.3.3.3).
///
/// Handles are assigned from 0x0001 in order: per service its declaration, then per
/// characteristic its declaration, its value and, for notify or indicate, its Client
/// Characteristic Configuration descriptor (initially 0x0000).
public struct GATTServer: Sendable {
    /// The default and minimum ATT_MTU on LE (Core Vol 3 Part F 3.2.8).
    public static let defaultMTU = 23
    /// The Server Rx MTU this server announces: the largest LE ATT_MTU, a 512-octet value plus
    /// the 3-octet Handle Value Notification header, 517 (Core Vol 3 Part F 3.2.8, 3.2.9).
    public static let serverReceiveMTU = 517
    /// The longest attribute value (Core Vol 3 Part F 3.2.9).
    public static let maximumAttributeValueLength = 512
    /// The highest attribute handle (Core Vol 3 Part F 3.2.2); services that would need more are
    /// left out of the database.
    public static let maximumHandle = 0xFFFF

    /// Client Characteristic Configuration bit: notifications enabled (Part G 3.3.3.3).
    static let notificationsEnabled: UInt16 = 0x0001
    /// Client Characteristic Configuration bit: indications enabled (Part G 3.3.3.3).
    static let indicationsEnabled: UInt16 = 0x0002

    /// The Server Rx MTU this server announces in its Exchange MTU Response:
    /// ``serverReceiveMTU`` unless a conformance runner takes less on purpose
    /// (`MdocLinkSizing`); what it announces is kept from 23 (Core Vol 3 Part F 3.2.8) to
    /// ``serverReceiveMTU``.
    package var receiveMTU = GATTServer.serverReceiveMTU

    /// The effective ATT_MTU: 23 until the client exchanges MTUs, then
    /// max(23, min(Client Rx MTU, Server Rx MTU)) (Core Vol 3 Part F 3.4.2.2).
    public internal(set) var mtu = GATTServer.defaultMTU

    /// What one received PDU produced.
    public struct Output: Sendable, Hashable {
        /// PDUs to send to the client, in order (at most one response per request).
        public var responses: [[UInt8]]
        /// What the client did.
        public var events: [GATTServerEvent]

        /// An output of `responses` and `events`.
        public init(responses: [[UInt8]] = [], events: [GATTServerEvent] = []) {
            self.responses = responses
            self.events = events
        }
    }

    /// One attribute of the database (Core Vol 3 Part F 3.2).
    struct Attribute: Sendable {
        enum Role: Sendable {
            /// A «Primary Service» declaration; the group ends at `endGroupHandle`.
            case service(endGroupHandle: UInt16)
            case characteristicDeclaration
            /// The value of `characteristics[index]`.
            case characteristicValue(index: Int)
            /// The Client Characteristic Configuration of `characteristics[index]`.
            case clientCharacteristicConfiguration(index: Int)
        }

        let handle: UInt16
        let type: BluetoothUUID
        var value: [UInt8]
        let role: Role
    }

    /// Where a characteristic's attributes are.
    struct CharacteristicRecord: Sendable {
        let uuid: BluetoothUUID
        let properties: GATTCharacteristicProperties
        let valueHandle: UInt16
        let configurationHandle: UInt16?
    }

    /// The database, in handle order: `attributes[i].handle == i + 1`.
    var attributes: [Attribute] = []
    var characteristics: [CharacteristicRecord] = []
    var hasExchangedMTU = false

    /// A server hosting `services`, with handles assigned in order from 0x0001. A service that
    /// does not fit below ``maximumHandle`` is left out, with every service after it.
    public init(services: [GATTService]) {
        for service in services {
            let needed = 1 + service.characteristics.reduce(0) {
                $0 + 2 + ($1.properties.isDisjoint(with: [.notify, .indicate]) ? 0 : 1)
            }
            guard attributes.count + needed <= Self.maximumHandle else { break }
            add(service)
        }
    }

    private mutating func add(_ service: GATTService) {
        var handle = UInt16(attributes.count + 1)
        let serviceIndex = attributes.count
        attributes.append(Attribute(handle: handle, type: .primaryService, value: service.uuid.littleEndianBytes,
                                    role: .service(endGroupHandle: handle)))
        for characteristic in service.characteristics {
            let needsConfiguration = !characteristic.properties.isDisjoint(with: [.notify, .indicate])
            let valueHandle = handle + 2
            let declaration = [characteristic.properties.rawValue, UInt8(valueHandle & 0xFF), UInt8(valueHandle >> 8)]
                + characteristic.uuid.littleEndianBytes
            attributes.append(Attribute(handle: handle + 1, type: .characteristic, value: declaration,
                                        role: .characteristicDeclaration))
            attributes.append(Attribute(handle: valueHandle, type: characteristic.uuid, value: characteristic.value,
                                        role: .characteristicValue(index: characteristics.count)))
            handle = valueHandle
            if needsConfiguration {
                handle += 1
                attributes.append(Attribute(handle: handle, type: .clientCharacteristicConfiguration, value: [0, 0],
                                            role: .clientCharacteristicConfiguration(index: characteristics.count)))
            }
            characteristics.append(CharacteristicRecord(uuid: characteristic.uuid, properties: characteristic.properties,
                                                        valueHandle: valueHandle,
                                                        configurationHandle: needsConfiguration ? handle : nil))
        }
        attributes[serviceIndex] = Attribute(handle: attributes[serviceIndex].handle, type: .primaryService,
                                             value: service.uuid.littleEndianBytes,
                                             role: .service(endGroupHandle: handle))
    }

    /// The value handle of the first characteristic with `uuid`, nil when there is none.
    public func valueHandle(of uuid: BluetoothUUID) -> UInt16? {
        characteristics.first { $0.uuid == uuid }?.valueHandle
    }

    /// The current value of the first characteristic with `uuid` (its initial value or the
    /// client's last write).
    public func value(of uuid: BluetoothUUID) -> [UInt8]? {
        guard let handle = valueHandle(of: uuid) else { return nil }
        return attribute(at: handle)?.value
    }

    /// Whether the client enabled notifications of the first characteristic with `uuid` in its
    /// Client Characteristic Configuration descriptor (Core Vol 3 Part G 3.3.3.3).
    public func isSubscribed(_ uuid: BluetoothUUID) -> Bool {
        configuration(of: uuid) & Self.notificationsEnabled != 0
    }

    /// A Handle Value Notification of `value` for the first characteristic with `uuid`
    /// (Core Vol 3 Part G 4.10.1, Part F 3.4.7.1).
    ///
    /// Throws `characteristicNotFound` when there is no such characteristic, `notSubscribed`
    /// unless the client enabled notifications, and `pduTooLarge` when `value` exceeds
    /// ATT_MTU − 3 octets.
    public func notification(of uuid: BluetoothUUID, value: [UInt8]) throws(BLEError) -> [UInt8] {
        guard let record = characteristics.first(where: { $0.uuid == uuid }) else {
            throw BLEError(.characteristicNotFound, "no characteristic \(uuid) in the GATT server to notify")
        }
        guard isSubscribed(uuid) else {
            throw BLEError(.notSubscribed, "the client has not enabled notifications of characteristic \(uuid)")
        }
        guard value.count <= mtu - 3 else {
            throw BLEError(.pduTooLarge,
                           "a notification of \(value.count) bytes on \(uuid) exceeds ATT_MTU \(mtu) − 3 = \(mtu - 3)")
        }
        return ATTPDU.handleValueNotification(attributeHandle: record.valueHandle, attributeValue: value).bytes
    }

    func attribute(at handle: UInt16) -> Attribute? {
        let index = Int(handle) - 1
        return attributes.indices.contains(index) ? attributes[index] : nil
    }

    private func configuration(of uuid: BluetoothUUID) -> UInt16 {
        guard let handle = characteristics.first(where: { $0.uuid == uuid })?.configurationHandle,
              let value = attribute(at: handle)?.value, value.count == 2 else { return 0 }
        return UInt16(value[0]) | UInt16(value[1]) << 8
    }
}
