/// A primary service found on a peer's GATT server (Bluetooth Core Vol 3 Part G 4.4.2).
public struct GATTRemoteService: Sendable, Hashable {
    /// The service UUID.
    public var uuid: BluetoothUUID
    /// The handle of the service declaration: the first handle of the service.
    public var handle: UInt16
    /// The last handle of the service.
    public var endGroupHandle: UInt16

    /// The service `uuid` spanning handles `handle` through `endGroupHandle`.
    public init(uuid: BluetoothUUID, handle: UInt16, endGroupHandle: UInt16) {
        self.uuid = uuid
        self.handle = handle
        self.endGroupHandle = endGroupHandle
    }
}
