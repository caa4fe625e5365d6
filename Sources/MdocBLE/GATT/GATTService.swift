/// A primary service a ``GATTServer`` hosts (Bluetooth Core Vol 3 Part G 3.1).
public struct GATTService: Sendable, Hashable {
    /// The service UUID (the value of its «Primary Service» declaration).
    public var uuid: BluetoothUUID
    /// The service's characteristics, in the order their handles are assigned.
    public var characteristics: [GATTCharacteristic]

    /// A primary service `uuid` with `characteristics`.
    public init(uuid: BluetoothUUID, characteristics: [GATTCharacteristic]) {
        self.uuid = uuid
        self.characteristics = characteristics
    }
}
