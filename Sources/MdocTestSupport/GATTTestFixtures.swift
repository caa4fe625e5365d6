import MdocBLE
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A GATT database shaped like the ISO/IEC 18013-5 central-client-mode service, plus helpers,
/// for the tests of the GATT layer and of the bearers under it.
///
/// Handles: 1 service; State 2 (declaration) 3 (value) 4 (CCCD); Client2Server 5, 6;
/// Server2Client 7, 8, 9 (CCCD); Ident 10, 11; Long 12, 13 (read + write, 100-byte value).
package enum GATTTestFixtures {
    /// The service UUID.
    package static let service = BluetoothUUID(UUID(uuidString: "8E3C4F0A-1B2C-4D5E-8F90-A1B2C3D4E5F6")!)
    /// State (notify, write without response).
    package static let state = BluetoothUUID(UUID(uuidString: "00000005-A123-48CE-896B-4C76973373E6")!)
    /// Client2Server (write without response).
    package static let client2Server = BluetoothUUID(UUID(uuidString: "00000006-A123-48CE-896B-4C76973373E6")!)
    /// Server2Client (notify).
    package static let server2Client = BluetoothUUID(UUID(uuidString: "00000007-A123-48CE-896B-4C76973373E6")!)
    /// Ident (read).
    package static let ident = BluetoothUUID(UUID(uuidString: "00000008-A123-48CE-896B-4C76973373E6")!)
    /// A characteristic with a value longer than one read (read, write).
    package static let long = BluetoothUUID(uint16: 0x2A00)
    /// The Ident value.
    package static let identValue: [UInt8] = Array(0..<16)
    /// The long value.
    package static let longValue: [UInt8] = (0..<100).map { UInt8($0) }

    /// A server with the database.
    package static func server() -> GATTServer {
        GATTServer(services: [
            GATTService(uuid: service, characteristics: [
                GATTCharacteristic(uuid: state, properties: [.notify, .writeWithoutResponse]),
                GATTCharacteristic(uuid: client2Server, properties: [.writeWithoutResponse]),
                GATTCharacteristic(uuid: server2Client, properties: [.notify]),
                GATTCharacteristic(uuid: ident, properties: [.read], value: identValue),
                GATTCharacteristic(uuid: long, properties: [.read, .write], value: longValue),
            ]),
        ])
    }

    /// The PDU a server answers `request` with (exactly one).
    package static func answer(_ server: inout GATTServer, _ request: ATTPDU) throws -> ATTPDU {
        let output = server.receive(request.bytes)
        guard output.responses.count == 1 else { throw FixtureError.responseCount(output.responses.count) }
        return try ATTPDU(bytes: output.responses[0])
    }

    /// An Error Response to `opcode` on `handle`.
    package static func error(_ opcode: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU {
        .errorResponse(requestOpcode: opcode, handle: handle, error: code)
    }

    /// A server that did not answer with exactly one PDU.
    package enum FixtureError: Error {
        /// How many PDUs it answered with.
        case responseCount(Int)
    }
}
