/// The BER-TLV data object `53` (discretionary data, ISO/IEC 7816-4 table 9) that ISO/IEC
/// 18013-5 8.3.3.1.2 wraps each message in for NFC data retrieval: tag `53`, a length of one
/// byte (0 to 127) or `81`, `82`, `83` and one to three length bytes, then the message.
public enum DiscretionaryData {
    /// The tag.
    public static let tag: UInt8 = 0x53
    /// The longest message a length of up to three bytes carries: 16 777 215 bytes.
    public static let maximumLength = 0xFF_FFFF
    /// The longest header: the tag, `83` and three length bytes.
    public static let maximumHeaderLength = 5

    /// `message` wrapped: its length in the shortest form.
    public static func encode(_ message: [UInt8]) -> [UInt8] {
        precondition(message.count <= maximumLength, "a message of \(message.count) bytes")
        let count = message.count
        let length: [UInt8]
        switch count {
        case ..<0x80: length = [UInt8(count)]
        case ..<0x100: length = [0x81, UInt8(count)]
        case ..<0x1_0000: length = [0x82, UInt8(count >> 8), UInt8(truncatingIfNeeded: count)]
        default: length = [0x83, UInt8(count >> 16), UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        }
        return [tag] + length + message
    }

    /// The total length (header and value) the header at the start of `bytes` declares, once
    /// `bytes` holds the whole header; `nil` while it does not.
    package static func declaredLength(_ bytes: [UInt8]) throws(NFCError) -> Int? {
        guard let first = bytes.first else { return nil }
        guard first == tag else {
            throw NFCError(.malformed, "the message is not in a data object 53", offset: 0)
        }
        guard bytes.count >= 2 else { return nil }
        let lengthByte = bytes[1]
        switch lengthByte {
        case ..<0x80:
            return 2 + Int(lengthByte)
        case 0x81...0x83:
            let octets = Int(lengthByte - 0x80)
            guard bytes.count >= 2 + octets else { return nil }
            let value = bytes[2..<2 + octets].reduce(0) { $0 << 8 | Int($1) }
            return 2 + octets + value
        default:
            throw NFCError(.malformed, "a BER-TLV length byte \(lengthByte) (80 is indefinite, 84 and over are too long)", offset: 1)
        }
    }

    /// The length of the value the header at the start of `bytes` declares, once `bytes` holds
    /// the whole header; `nil` while it does not.
    package static func declaredValueLength(_ bytes: [UInt8]) throws(NFCError) -> Int? {
        guard let total = try declaredLength(bytes) else { return nil }
        return total - (bytes[1] < 0x80 ? 2 : 2 + Int(bytes[1] - 0x80))
    }

    /// The message in `bytes`, one data object `53` that fills them exactly. Lengths in a longer
    /// form than needed are read, as BER allows.
    public static func decode(_ bytes: [UInt8]) throws(NFCError) -> [UInt8] {
        guard let total = try declaredLength(bytes) else {
            throw NFCError(.truncated, "the data object 53 header is incomplete", offset: bytes.count)
        }
        guard total == bytes.count else {
            throw NFCError(total > bytes.count ? .truncated : .trailingBytes,
                           "the data object 53 declares \(total) bytes in all, \(bytes.count) came", offset: min(total, bytes.count))
        }
        let header = bytes[1] < 0x80 ? 2 : 2 + Int(bytes[1] - 0x80)
        return Array(bytes[header...])
    }
}
