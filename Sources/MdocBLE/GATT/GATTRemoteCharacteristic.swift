/// A characteristic found on a peer's GATT server (Bluetooth Core Vol 3 Part G 4.6.1, 4.7.1).
public struct GATTRemoteCharacteristic: Sendable, Hashable {
    /// The characteristic UUID.
    public var uuid: BluetoothUUID
    /// The properties its declaration announces.
    public var properties: GATTCharacteristicProperties
    /// The handle of its declaration.
    public var declarationHandle: UInt16
    /// The handle of its value.
    public var valueHandle: UInt16
    /// The handle of its Client Characteristic Configuration descriptor, when it has one.
    public var clientCharacteristicConfigurationHandle: UInt16?

    /// A characteristic with the given fields.
    public init(uuid: BluetoothUUID, properties: GATTCharacteristicProperties, declarationHandle: UInt16,
                valueHandle: UInt16, clientCharacteristicConfigurationHandle: UInt16?) {
        self.uuid = uuid
        self.properties = properties
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.clientCharacteristicConfigurationHandle = clientCharacteristicConfigurationHandle
    }
}
