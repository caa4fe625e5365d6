/// Something a GATT client did that the server's owner acts on.
public enum GATTServerEvent: Sendable, Hashable {
    /// The client wrote `value` to the characteristic, with a Write Request (`withResponse`) or a
    /// Write Command (Core Vol 3 Part G 4.9.1, 4.9.3).
    case written(characteristic: BluetoothUUID, value: [UInt8], withResponse: Bool)
    /// The client wrote the characteristic's Client Characteristic Configuration descriptor;
    /// `notifications` tells whether notifications are now enabled (Part G 3.3.3.3).
    case subscriptionChanged(characteristic: BluetoothUUID, notifications: Bool)
    /// The client exchanged MTUs; the effective ATT_MTU is now the value (Part F 3.4.2).
    case mtuExchanged(Int)
}
