@testable import MdocBLE
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A database shaped like the ISO/IEC 18013-5 central-client-mode service, plus helpers.
///
/// Handles: 1 service; State 2 (declaration) 3 (value) 4 (CCCD); Client2Server 5, 6;
/// Server2Client 7, 8, 9 (CCCD); Ident 10, 11; Long 12, 13 (read + write, 100-byte value).
enum GATTTestFixtures {
    static let service = BluetoothUUID(UUID(uuidString: "8E3C4F0A-1B2C-4D5E-8F90-A1B2C3D4E5F6")!)
    static let state = BluetoothUUID(UUID(uuidString: "00000005-A123-48CE-896B-4C76973373E6")!)
    static let client2Server = BluetoothUUID(UUID(uuidString: "00000006-A123-48CE-896B-4C76973373E6")!)
    static let server2Client = BluetoothUUID(UUID(uuidString: "00000007-A123-48CE-896B-4C76973373E6")!)
    static let ident = BluetoothUUID(UUID(uuidString: "00000008-A123-48CE-896B-4C76973373E6")!)
    static let long = BluetoothUUID(uint16: 0x2A00)
    static let identValue: [UInt8] = Array(0..<16)
    static let longValue: [UInt8] = (0..<100).map { UInt8($0) }

    static func server() -> GATTServer {
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
    static func answer(_ server: inout GATTServer, _ request: ATTPDU) throws -> ATTPDU {
        let output = server.receive(request.bytes)
        guard output.responses.count == 1 else { throw FixtureError.responseCount(output.responses.count) }
        return try ATTPDU(bytes: output.responses[0])
    }

    static func error(_ opcode: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU {
        .errorResponse(requestOpcode: opcode, handle: handle, error: code)
    }

    enum FixtureError: Error {
        case responseCount(Int)
    }
}
