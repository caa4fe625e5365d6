/// A characteristic of a ``GATTService`` (Bluetooth Core Vol 3 Part G 3.3): its declaration,
/// value attribute and, when it can notify or indicate, a Client Characteristic Configuration
/// descriptor (3.3.3.3).
public struct GATTCharacteristic: Sendable, Hashable {
    /// The characteristic UUID.
    public var uuid: BluetoothUUID
    /// What clients may do with the value.
    public var properties: GATTCharacteristicProperties
    /// The initial value; writes by the client replace it.
    public var value: [UInt8]

    /// A characteristic `uuid` with `properties` and initial `value`.
    public init(uuid: BluetoothUUID, properties: GATTCharacteristicProperties, value: [UInt8] = []) {
        self.uuid = uuid
        self.properties = properties
        self.value = value
    }
}
