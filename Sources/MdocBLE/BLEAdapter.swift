#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an ISO/IEC 18013-5 BLE session needs of a radio (Table A.1, 8.3.3.1.1.4): advertise a
/// service UUID and accept the central that connects (GAP peripheral), or find a peripheral
/// advertising a service UUID and connect to it (GAP central, Bluetooth Core Vol 3 Part C 9.3);
/// either way the result is an ATT bearer for the GATT server or client above.
///
/// `SimAdapter` is the `sim` transport; `LEHost` drives a real or virtual controller over
/// HCI. Every adapter is an ``MdocRadio`` (its scan and close, and the 18013-5 links
/// ``MdocBLEConnector`` makes over it).
public protocol BLEAdapter: MdocRadio {
    /// Starts advertising `serviceUUID`, connectable. Throws when advertising cannot start.
    func advertise(serviceUUID: UUID) async throws(BLEError) -> any BLEAdvertisement

    /// Scans for a connectable peripheral advertising `serviceUUID` and connects to the first
    /// found. Throws `peerNotFound` or `timeout` when none was found or connected within
    /// `timeout`.
    func connect(serviceUUID: UUID, timeout: Duration) async throws(BLEError) -> any ATTBearer
}

/// A service being advertised by a ``BLEAdapter``; like an 18013-5 GATT server, it stops
/// advertising once a central connected (8.3.3.1.1.4).
public protocol BLEAdvertisement: AnyObject, Sendable {
    /// Waits up to `timeout` for a central to connect and returns the link. Throws `timeout`
    /// when nobody connected in time, `linkClosed` after advertising stopped.
    func accept(timeout: Duration) async throws(BLEError) -> any ATTBearer

    /// Stops advertising. Idempotent.
    func stop() async
}

/// A peripheral a scan saw.
public struct BLEPeripheralSighting: Sendable, Hashable {
    /// Where it is: a Bluetooth device address, or the sim socket name.
    public let address: String
    /// The strongest received signal strength in dBm, when the radio measured it.
    public let rssi: Int?
    /// The 128-bit service UUIDs it advertised.
    public let serviceUUIDs: [UUID]
    /// The local name it advertised, if any.
    public let name: String?
    /// Whether it accepts connections.
    public let isConnectable: Bool

    /// A sighting of `address`.
    public init(address: String, rssi: Int?, serviceUUIDs: [UUID], name: String?, isConnectable: Bool) {
        self.address = address
        self.rssi = rssi
        self.serviceUUIDs = serviceUUIDs
        self.name = name
        self.isConnectable = isConnectable
    }
}
