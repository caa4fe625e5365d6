#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The GATT service of ISO/IEC 18013-5 BLE data retrieval: characteristic UUIDs per mode
/// (8.3.3.1.1.4, Tables 11 and 12), the State values (Table 13) and the service definition a
/// GATT server hosts.
public enum MdocGATTProfile: Sendable {
    /// The State value the GATT client writes to start a session (ISO/IEC 18013-5 Table 13).
    public static let stateStart: UInt8 = 0x01
    /// The State value that ends the session, written by the client or notified by the server
    /// (ISO/IEC 18013-5 Table 13, 8.3.3.1.1.5).
    public static let stateEnd: UInt8 = 0x02
    /// The length of the Ident value: the 16-octet HKDF output over EDeviceKeyBytes
    /// (ISO/IEC 18013-5 8.3.3.1.1.4).
    public static let identLength = 16

    /// State: notify and write without response (ISO/IEC 18013-5 Tables 11 and 12).
    public static func state(mode: MdocBLEMode) -> BluetoothUUID {
        characteristicUUID(mode == .peripheralServer ? 0x01 : 0x05)
    }

    /// Client2Server: write without response; the GATT client's message chunks
    /// (ISO/IEC 18013-5 Tables 11 and 12).
    public static func client2Server(mode: MdocBLEMode) -> BluetoothUUID {
        characteristicUUID(mode == .peripheralServer ? 0x02 : 0x06)
    }

    /// Server2Client: notify; the GATT server's message chunks (ISO/IEC 18013-5 Tables 11 and 12).
    public static func server2Client(mode: MdocBLEMode) -> BluetoothUUID {
        characteristicUUID(mode == .peripheralServer ? 0x03 : 0x07)
    }

    /// Ident: read; served by the mdoc reader in mdoc central client mode only
    /// (ISO/IEC 18013-5 Table 12, 8.3.3.1.1.4).
    public static let ident = characteristicUUID(0x08)

    /// The 18013-5 service `serviceUUID` as a GATT server hosts it in `mode`: State
    /// (notify + write without response), Client2Server (write without response), Server2Client
    /// (notify) and, in mdoc central client mode, Ident (read) holding `ident`
    /// (ISO/IEC 18013-5 8.3.3.1.1.4). `ident` is ignored in peripheral server mode; the GATT
    /// server adds the Client Characteristic Configuration descriptors of the notifying ones.
    public static func service(mode: MdocBLEMode, serviceUUID: UUID, ident: [UInt8]?) -> GATTService {
        var characteristics = [
            GATTCharacteristic(uuid: state(mode: mode), properties: [.notify, .writeWithoutResponse]),
            GATTCharacteristic(uuid: client2Server(mode: mode), properties: [.writeWithoutResponse]),
            GATTCharacteristic(uuid: server2Client(mode: mode), properties: [.notify]),
        ]
        if mode == .centralClient {
            characteristics.append(GATTCharacteristic(uuid: Self.ident, properties: [.read], value: ident ?? []))
        }
        return GATTService(uuid: BluetoothUUID(serviceUUID), characteristics: characteristics)
    }

    /// `0000000N-A123-48CE-896B-4C76973373E6`, the base all 18013-5 characteristic UUIDs share.
    private static func characteristicUUID(_ number: UInt8) -> BluetoothUUID {
        BluetoothUUID(UUID(uuid: (0x00, 0x00, 0x00, number, 0xA1, 0x23, 0x48, 0xCE,
                                  0x89, 0x6B, 0x4C, 0x76, 0x97, 0x33, 0x73, 0xE6)))
    }
}
