import MdocBLE
import MdocFiles
import MdocLEHost
import MdocCBOR
import MdocModel
import MdocNFC
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MessageExplainer {
    /// The most Handover Select or Request records nested inside one another that are
    /// explained: Connection Handover nests one level (a Handover record's payload holds the
    /// Alternative Carrier records); deeper nesting is shown as bytes.
    static let maximumHandoverNesting = 2

    /// NDEF message bytes: the message explained, or why the bytes are not one.
    static func ndefBytes(_ label: TerminalText, _ bytes: [UInt8]) -> Explanation {
        do {
            let message = try NDEFMessage(bytes: bytes)
            return Explanation(label, "NDEF message, \(bytes.count) bytes", children: ndefMessage(message, depth: 0))
        } catch {
            return Explanation(label, "not an NDEF message: \(error)", children: [Explanation.bytes("Bytes", bytes)])
        }
    }

    /// An NDEF message (NFC Forum NDEF 1.0) as ISO/IEC 18013-5 8.2.2.1 uses it for NFC
    /// engagement: Handover Select or Request records with their alternative carriers, the
    /// carrier configurations, and the DeviceEngagement record.
    static func ndefMessage(_ message: NDEFMessage, depth: Int) -> [Explanation] {
        message.records.enumerated().map { index, record in
            var label: TerminalText = "Record \(index)"
            if !record.id.isEmpty { label += ", ID \"\(record.idText)\"" }
            return Explanation(label, "\(record.typeNameFormat) \"\(record.typeText)\"", children: ndefRecord(record, depth: depth))
        }
    }

    /// The payload of one record, explained by its type.
    static func ndefRecord(_ record: NDEFRecord, depth: Int) -> [Explanation] {
        let payload = record.payload
        switch (record.typeNameFormat, record.typeText) {
        case (.wellKnown, NDEFRecord.handoverSelectType), (.wellKnown, NDEFRecord.handoverRequestType):
            guard let version = payload.first, depth < maximumHandoverNesting else { return [Explanation.bytes("Payload", payload)] }
            let meaning: TerminalText = record.typeText == NDEFRecord.handoverSelectType
                ? "Handover Select: the carriers the mdoc offers" : "Handover Request: the carriers the reader offers (negotiated handover)"
            var lines = [Explanation("Meaning", meaning), Explanation("Connection Handover version", "\(version >> 4).\(version & 0x0f)")]
            if payload.count > 1 {
                lines.append(ndefBytesNested("Local records", Array(payload.dropFirst()), depth: depth + 1))
            }
            return lines
        case (.wellKnown, NDEFRecord.alternativeCarrierType):
            return alternativeCarrier(payload)
        case (.wellKnown, NDEFRecord.collisionResolutionType):
            guard payload.count == 2 else { return [Explanation.bytes("Payload", payload)] }
            return [Explanation("Collision resolution random number", "\(Int(payload[0]) << 8 | Int(payload[1]))")]
        case (.external, NDEFRecord.deviceEngagementType):
            guard let item = try? CBOR.decode(payload) else { return [Explanation.bytes("Payload, not CBOR", payload)] }
            return [explain(item, as: .deviceEngagement)]
        case (.mediaType, NDEFRecord.bluetoothLEOOBType):
            return bluetoothOOB(payload)
        case (.mediaType, NDEFRecord.wifiAwareType):
            return [Explanation.bytes("Wi-Fi Aware carrier configuration (Wi-Fi Alliance NAN attributes)", payload)]
        case (.external, NDEFRecord.readerNFCType):
            guard let carrier = try? NFCCarrier(payload: payload) else {
                return [Explanation.bytes("NFC carrier data (18013-5 8.2.2.1), not well formed", payload)]
            }
            let length = { (value: Int?) -> TerminalText in value.map { "\($0) bytes" } ?? "not given" }
            return [
                Explanation("Meaning", "NFC data retrieval (18013-5 8.3.3.1.2)"),
                Explanation("Maximum command data length", length(carrier.maximumCommandDataLength)),
                Explanation("Maximum response data length", length(carrier.maximumResponseDataLength)),
            ]
        default:
            return [Explanation.bytes("Payload", payload)]
        }
    }

    /// A nested NDEF message inside a Handover record.
    private static func ndefBytesNested(_ label: TerminalText, _ bytes: [UInt8], depth: Int) -> Explanation {
        do {
            return Explanation(label, children: ndefMessage(try NDEFMessage(bytes: bytes), depth: depth))
        } catch {
            return Explanation(label, "not an NDEF message: \(error)", children: [Explanation.bytes("Bytes", bytes)])
        }
    }

    /// An Alternative Carrier record (Connection Handover 1.5): the carrier power state and the
    /// references to the carrier configuration and auxiliary data records.
    static func alternativeCarrier(_ payload: [UInt8]) -> [Explanation] {
        guard payload.count >= 2 else { return [Explanation.bytes("Payload, too short", payload)] }
        let states: [TerminalText] = ["inactive", "active", "activating", "unknown"]
        var lines = [Explanation("Carrier power state", payload[0] < 4 ? states[Int(payload[0])] : "reserved (\(payload[0]))")]
        var offset = 1
        func reference() -> [UInt8]? {
            guard offset < payload.count else { return nil }
            let length = Int(payload[offset])
            guard payload.count - offset - 1 >= length else { return nil }
            defer { offset += 1 + length }
            return Array(payload[offset + 1..<offset + 1 + length])
        }
        guard let carrier = reference() else { return lines + [Explanation.bytes("Payload, truncated", payload)] }
        lines.append(Explanation("Carrier data reference", "\"\(String(decoding: carrier, as: UTF8.self))\" (the ID of the carrier record)"))
        guard offset < payload.count else { return lines }
        let count = Int(payload[offset])
        offset += 1
        for _ in 0..<count {
            guard let auxiliary = reference() else { return lines + [Explanation.bytes("Payload, truncated", payload)] }
            lines.append(Explanation("Auxiliary data reference", "\"\(String(decoding: auxiliary, as: UTF8.self))\""))
        }
        return lines
    }

    /// A Bluetooth LE out-of-band carrier configuration: AD structures (Bluetooth Core
    /// Specification Supplement Part A), the ones ISO/IEC 18013-5 8.2.2.1 uses named.
    static func bluetoothOOB(_ payload: [UInt8]) -> [Explanation] {
        let data: AdvertisingData
        do {
            data = try AdvertisingData(bytes: payload)
        } catch {
            return [Explanation.bytes("Bluetooth LE OOB data, malformed: \(error)", payload)]
        }
        return data.structures.map { structure in
            switch (structure.type, structure.data.count) {
            case (0x1b, 7):
                let address = structure.data.prefix(6).reversed().map { Hex.encode([$0]) }.joined(separator: ":").uppercased()
                let kind: TerminalText = structure.data[6] == 0 ? "public" : "random"
                return Explanation("LE Bluetooth device address (0x1B)", "\(address) (" + kind + ")")
            case (0x1c, 1):
                let roles: [TerminalText] = [
                    "only the peripheral role", "only the central role",
                    "peripheral and central roles, peripheral preferred", "peripheral and central roles, central preferred",
                ]
                let role = structure.data[0]
                return Explanation("LE role (0x1C)", role < 4 ? "\(role): " + roles[Int(role)] : "reserved (\(role))")
            case (AdvertisingData.complete128BitServiceUUIDsType, _), (AdvertisingData.incomplete128BitServiceUUIDsType, _):
                let uuids = AdvertisingData(structures: [structure]).serviceUUIDs
                return Explanation("128-bit service UUIDs (0x\(Hex.encode([structure.type])))", "\(uuids.map(\.uuidString).joined(separator: ", "))")
            case (AdvertisingData.completeLocalNameType, _), (AdvertisingData.shortenedLocalNameType, _):
                return Explanation("Local name (0x\(Hex.encode([structure.type])))", "\"\(String(decoding: structure.data, as: UTF8.self))\"")
            case (0x22, 16):
                return Explanation.bytes("LE Secure Connections confirmation value (0x22)", structure.data)
            case (0x23, 16):
                return Explanation.bytes("LE Secure Connections random value (0x23)", structure.data)
            case (0x10, 16):
                return Explanation.bytes("Security Manager TK value (0x10)", structure.data)
            default:
                return Explanation.bytes("AD type 0x\(Hex.encode([structure.type]))", structure.data)
            }
        }
    }
}
