import MdocBLE

/// Reads the little-endian fields of an HCI or L2CAP packet (Bluetooth Core Vol 4 Part E 5.2:
/// multi-octet fields are sent least significant octet first), failing with a
/// `malformedPacket` error that names the packet and the offset when the bytes run out.
struct PacketReader {
    /// What is being read, for messages: "Command Complete event", "L2CAP frame".
    let packetName: String
    private let bytes: [UInt8]
    private(set) var offset: Int

    /// A reader of `bytes` from `offset`.
    init(_ bytes: [UInt8], from offset: Int = 0, packetName: String) {
        self.bytes = bytes
        self.offset = offset
        self.packetName = packetName
    }

    /// How many octets are left.
    var remaining: Int { bytes.count - offset }

    mutating func uint8() throws(BLEError) -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func int8() throws(BLEError) -> Int8 {
        Int8(bitPattern: try uint8())
    }

    mutating func uint16() throws(BLEError) -> UInt16 {
        try need(2)
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func bytes(_ count: Int) throws(BLEError) -> [UInt8] {
        try need(count)
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Every octet left.
    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    private func need(_ count: Int) throws(BLEError) {
        guard count >= 0, remaining >= count else {
            throw BLEError(.malformedPacket,
                           "\(packetName): needs \(count) more octets at offset \(offset), only \(max(remaining, 0)) left")
        }
    }
}

/// Appends little-endian fields to a packet being built (Bluetooth Core Vol 4 Part E 5.2).
struct PacketWriter {
    private(set) var bytes: [UInt8] = []

    mutating func uint8(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8(value >> 8))
    }

    mutating func uint64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
    }

    mutating func append(_ other: some Sequence<UInt8>) {
        bytes.append(contentsOf: other)
    }
}
