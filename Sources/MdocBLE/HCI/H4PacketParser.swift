/// Splits an HCI UART transport byte stream (H4) into packets: an indicator octet, the packet's
/// header, then as many payload octets as the header declares (Bluetooth Core Vol 4 Part A 2,
/// Part E 5.4). Bytes may arrive in any pieces, one at a time included.
///
/// The stream has no resynchronisation marker, so an unknown indicator or a length above the
/// limits below cannot be skipped: the parser fails and stays failed.
public struct H4PacketParser: Sendable {
    /// The longest ACL data payload accepted from a controller, 1024 octets: LE controllers
    /// send at most 251 (LE Data Length Extension, Core Vol 6 Part B 2.4.2.21) and controllers
    /// that do not fragment towards the host (Bumble) whole L2CAP PDUs of an ATT channel, at
    /// most 521; Linux bounds ACL frames the same way (HCI_MAX_ACL_SIZE).
    public static let maximumACLDataLength = 1024
    /// The longest ISO data payload: its length field has 14 bits (Core Vol 4 Part E 5.4.5).
    public static let maximumISODataLength = 0x3FFF

    private var buffer: [UInt8] = []
    private var failure: BLEError?

    /// A parser at the start of a stream.
    public init() {}

    /// Appends `bytes` and returns every packet they complete, in order, each starting with its
    /// indicator. Throws `malformedPacket` for an unknown indicator or a declared length above
    /// the limits; every later call throws it again.
    public mutating func append(_ bytes: some Collection<UInt8>) throws(BLEError) -> [[UInt8]] {
        if let failure { throw failure }
        buffer.append(contentsOf: bytes)
        var packets: [[UInt8]] = []
        var start = 0
        while let length = try packetLength(at: start) {
            guard buffer.count - start >= length else { break }
            packets.append(Array(buffer[start..<start + length]))
            start += length
        }
        buffer.removeFirst(start)
        return packets
    }

    /// How many octets are held towards the next packet.
    public var pendingCount: Int { buffer.count }

    /// The whole length of the packet starting at `start` (indicator included), or nil when its
    /// header has not fully arrived.
    private mutating func packetLength(at start: Int) throws(BLEError) -> Int? {
        guard start < buffer.count else { return nil }
        guard let indicator = HCIPacketIndicator(rawValue: buffer[start]) else {
            return try fail("unknown H4 packet indicator 0x\(hex(buffer[start])) (expected 0x01 to 0x05)")
        }
        let layout = indicator.headerLayout
        guard buffer.count - start >= 1 + layout.length else { return nil }
        let field = start + 1 + layout.lengthOffset
        var payload = Int(buffer[field])
        if layout.lengthWidth == 2 { payload |= Int(buffer[field + 1]) << 8 }
        switch indicator {
        case .aclData where payload > Self.maximumACLDataLength:
            return try fail("an ACL data packet declares \(payload) octets, above the \(Self.maximumACLDataLength) accepted")
        case .isoData where payload > Self.maximumISODataLength:
            return try fail("an ISO data packet declares \(payload) octets, above the 14-bit maximum \(Self.maximumISODataLength)")
        default:
            break
        }
        return 1 + layout.length + payload
    }

    private mutating func fail(_ reason: String) throws(BLEError) -> Int? {
        let error = BLEError(.malformedPacket, "HCI stream out of step: \(reason)")
        failure = error
        buffer = []
        throw error
    }

    private func hex(_ byte: UInt8) -> String {
        (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
    }
}
