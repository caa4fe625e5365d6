import MdocModel

/// An Alternative Carrier record, well-known type `ac` (NFC Forum Connection Handover 1.5,
/// 6.2): inside a Handover Select or Request record, it names a carrier by the ID of its
/// configuration record, with the carrier's power state and references to auxiliary data
/// records (ISO/IEC 18013-5 8.2.2.1 refers to the DeviceEngagement record, ID `mdoc`, this way).
public struct AlternativeCarrierRecord: Sendable, Hashable {
    /// The carrier power state (Connection Handover 1.5, 6.2.1): two bits.
    public struct PowerState: RawRepresentable, Sendable, Hashable {
        public var rawValue: UInt8

        /// The state of value `rawValue` (0 to 3).
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// 0: inactive.
        public static let inactive = PowerState(rawValue: 0)
        /// 1: active.
        public static let active = PowerState(rawValue: 1)
        /// 2: activating.
        public static let activating = PowerState(rawValue: 2)
        /// 3: unknown.
        public static let unknown = PowerState(rawValue: 3)
    }

    /// The carrier power state.
    public var powerState: PowerState
    /// The ID of the carrier configuration record.
    public var carrierDataReference: [UInt8]
    /// The IDs of the auxiliary data records.
    public var auxiliaryDataReferences: [[UInt8]]

    /// A record of its parts. Each reference holds 1 to 255 bytes and there are at most 255
    /// auxiliary references: anything else is a programming error.
    public init(powerState: PowerState = .active, carrierDataReference: [UInt8], auxiliaryDataReferences: [[UInt8]] = []) {
        precondition((1...255).contains(carrierDataReference.count), "carrier data reference of \(carrierDataReference.count) bytes")
        precondition(auxiliaryDataReferences.count <= 255 && auxiliaryDataReferences.allSatisfy { (1...255).contains($0.count) },
                     "auxiliary data references")
        self.powerState = powerState
        self.carrierDataReference = carrierDataReference
        self.auxiliaryDataReferences = auxiliaryDataReferences
    }

    /// Reads the payload of an `ac` record: CPS, the carrier data reference, the auxiliary
    /// data references, and nothing after them.
    public init(payload: [UInt8]) throws(NFCError) {
        guard payload.count >= 3 else {
            throw NFCError(.truncated, "an alternative carrier record has at least 3 bytes, \(payload.count) came", offset: payload.count)
        }
        guard payload[0] & 0xFC == 0 else {
            throw NFCError(.malformed, "the reserved bits of the carrier power state are set", offset: 0)
        }
        powerState = PowerState(rawValue: payload[0] & 0x03)
        var offset = 1
        carrierDataReference = try Self.reference(payload, at: &offset)
        guard offset < payload.count else {
            throw NFCError(.truncated, "no auxiliary data reference count", offset: offset)
        }
        let count = Int(payload[offset])
        offset += 1
        var auxiliary: [[UInt8]] = []
        for _ in 0..<count {
            auxiliary.append(try Self.reference(payload, at: &offset))
        }
        guard offset == payload.count else {
            throw NFCError(.trailingBytes, "\(payload.count - offset) bytes follow the alternative carrier record", offset: offset)
        }
        auxiliaryDataReferences = auxiliary
    }

    /// One reference: a length of 1 to 255 and that many bytes.
    private static func reference(_ payload: [UInt8], at offset: inout Int) throws(NFCError) -> [UInt8] {
        guard offset < payload.count else {
            throw NFCError(.truncated, "a reference's length is missing", offset: offset)
        }
        let length = Int(payload[offset])
        guard length > 0 else {
            throw NFCError(.malformed, "an empty reference", offset: offset)
        }
        guard payload.count - offset - 1 >= length else {
            throw NFCError(.truncated, "a reference declares \(length) bytes, \(payload.count - offset - 1) follow", offset: offset)
        }
        defer { offset += 1 + length }
        return Array(payload[offset + 1..<offset + 1 + length])
    }

    /// The payload.
    public var payload: [UInt8] {
        var bytes = [powerState.rawValue, UInt8(carrierDataReference.count)] + carrierDataReference
        bytes.append(UInt8(auxiliaryDataReferences.count))
        for reference in auxiliaryDataReferences {
            bytes.append(UInt8(reference.count))
            bytes += reference
        }
        return bytes
    }

    /// The `ac` record.
    public var record: NDEFRecord {
        NDEFRecord(typeNameFormat: .wellKnown, type: Array(NDEFRecord.alternativeCarrierType.utf8), payload: payload)
    }
}
