/// A command APDU (ISO/IEC 7816-4 5.1): the header CLA INS P1 P2, an optional command data
/// field and an optional expected length Le, in the short form (Lc up to 255, Le up to 256) or
/// the extended form (Lc up to 65535, Le up to 65536).
///
/// ``bytes`` chooses the short form whenever both fields fit in it, as ISO/IEC 7816-4 5.1
/// asks, and the extended form otherwise; ``init(bytes:)`` reads either form and rejects every
/// other layout, naming the offset where the bytes stop making sense.
public struct CommandAPDU: Sendable, Hashable, CustomStringConvertible {
    /// The most command data bytes of a short APDU (Lc is one byte, 1 to 255).
    public static let maximumShortDataLength = 255
    /// The largest Le of a short APDU (one byte, `00` meaning 256).
    public static let maximumShortExpectedLength = 256
    /// The most command data bytes of an extended APDU (Lc is two bytes, 1 to 65535).
    public static let maximumExtendedDataLength = 65535
    /// The largest Le of an extended APDU (two bytes, `0000` meaning 65536).
    public static let maximumExtendedExpectedLength = 65536
    /// The length of the header CLA INS P1 P2.
    public static let headerLength = 4

    /// The instruction codes this toolkit sends and answers (ISO/IEC 7816-4 table 4).
    public enum Instruction {
        /// SELECT (`A4`): an application by AID (P1 `04`) or an EF by file identifier (P1 `00`).
        public static let select: UInt8 = 0xA4
        /// READ BINARY (`B0`): P1-P2 is the offset, Le the number of bytes.
        public static let readBinary: UInt8 = 0xB0
        /// UPDATE BINARY (`D6`): P1-P2 is the offset, the data what to write.
        public static let updateBinary: UInt8 = 0xD6
        /// ENVELOPE (`C3`): ISO/IEC 18013-5 8.3.3.1.2 carries messages in it.
        public static let envelope: UInt8 = 0xC3
        /// GET RESPONSE (`C0`): fetches what `61XX` announced.
        public static let getResponse: UInt8 = 0xC0
    }

    /// The class byte: `00`, or `10` for a command that a further one of the chain follows
    /// (ISO/IEC 7816-4 5.4.1).
    public var cla: UInt8
    /// The instruction byte.
    public var ins: UInt8
    /// Parameter 1.
    public var p1: UInt8
    /// Parameter 2.
    public var p2: UInt8
    /// The command data field; empty when absent.
    public var data: [UInt8]
    /// Le, the most response data bytes expected, from 1 to 65536; `nil` when absent.
    public var expectedLength: Int?

    /// The class byte of a command that a further one of the chain follows (ISO/IEC 7816-4
    /// 5.4.1, bit 5 of CLA).
    public static let chainingClass: UInt8 = 0x10

    /// A command of its parts. `data` holds at most ``maximumExtendedDataLength`` bytes and
    /// `expectedLength`, when given, is from 1 to ``maximumExtendedExpectedLength``: anything
    /// else is a programming error.
    public init(cla: UInt8 = 0x00, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], expectedLength: Int? = nil) {
        precondition(data.count <= Self.maximumExtendedDataLength, "command data of \(data.count) bytes")
        if let expectedLength {
            precondition((1...Self.maximumExtendedExpectedLength).contains(expectedLength), "Le of \(expectedLength)")
        }
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.expectedLength = expectedLength
    }

    /// Whether ``bytes`` uses the extended form: the data or Le does not fit the short one.
    public var isExtended: Bool {
        data.count > Self.maximumShortDataLength || (expectedLength ?? 0) > Self.maximumShortExpectedLength
    }

    /// P1-P2 as one number (the offset of READ BINARY and UPDATE BINARY).
    public var p1p2: Int { Int(p1) << 8 | Int(p2) }

    /// The encoded command (ISO/IEC 7816-4 5.1, cases 1 to 4 in the short or extended form).
    public var bytes: [UInt8] {
        var bytes = [cla, ins, p1, p2]
        let extended = isExtended
        bytes.reserveCapacity(Self.headerLength + 3 + data.count + 3)
        if !data.isEmpty {
            if extended {
                bytes += [0x00, UInt8(data.count >> 8), UInt8(truncatingIfNeeded: data.count)]
            } else {
                bytes.append(UInt8(data.count))
            }
            bytes += data
        }
        if let expectedLength {
            if extended {
                if data.isEmpty { bytes.append(0x00) }
                let value = expectedLength == Self.maximumExtendedExpectedLength ? 0 : expectedLength
                bytes += [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]
            } else {
                bytes.append(UInt8(truncatingIfNeeded: expectedLength))
            }
        }
        return bytes
    }

    /// Reads a command in the short or the extended form that fills `bytes` exactly.
    public init(bytes: [UInt8]) throws(NFCError) {
        guard bytes.count >= Self.headerLength else {
            throw NFCError(.truncated, "a command APDU has a 4-byte header, \(bytes.count) bytes came", offset: bytes.count)
        }
        cla = bytes[0]
        ins = bytes[1]
        p1 = bytes[2]
        p2 = bytes[3]
        let body = bytes.count - Self.headerLength
        data = []
        expectedLength = nil
        guard body > 0 else { return }
        let first = Int(bytes[4])
        if body == 1 {
            expectedLength = first == 0 ? Self.maximumShortExpectedLength : first
            return
        }
        if first != 0 {
            // Short form: Lc, the data, and perhaps a one-byte Le.
            switch body - 1 - first {
            case 0:
                break
            case 1:
                let le = Int(bytes[bytes.count - 1])
                expectedLength = le == 0 ? Self.maximumShortExpectedLength : le
            case ..<0:
                throw NFCError(.truncated, "Lc declares \(first) data bytes, \(body - 1) follow", offset: 4)
            default:
                throw NFCError(.trailingBytes, "\(body - 2 - first) bytes follow the short Le", offset: Self.headerLength + 2 + first)
            }
            data = Array(bytes[5..<5 + first])
            return
        }
        // Extended form: `00` then a two-byte Lc or, alone, a two-byte Le.
        guard body >= 3 else {
            throw NFCError(.truncated, "an extended length needs 3 bytes, \(body) follow the header", offset: 4)
        }
        let second = Int(bytes[5]) << 8 | Int(bytes[6])
        if body == 3 {
            expectedLength = second == 0 ? Self.maximumExtendedExpectedLength : second
            return
        }
        guard second != 0 else {
            throw NFCError(.malformed, "an extended Lc of 0", offset: 5)
        }
        switch body - 3 - second {
        case 0:
            break
        case 2:
            let le = Int(bytes[bytes.count - 2]) << 8 | Int(bytes[bytes.count - 1])
            expectedLength = le == 0 ? Self.maximumExtendedExpectedLength : le
        case ..<0:
            throw NFCError(.truncated, "Lc declares \(second) data bytes, \(body - 3) follow", offset: 5)
        default:
            throw NFCError(
                .malformed, "\(body - 3 - second) bytes follow the data where an extended Le has 2", offset: 7 + second)
        }
        data = Array(bytes[7..<7 + second])
    }

    /// `CLA INS P1 P2 Lc=… Le=…` in hexadecimal, the data as a byte count.
    public var description: String {
        let header = [cla, ins, p1, p2].map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
        var text = "C-APDU \(header)"
        if !data.isEmpty { text += ", \(data.count) data bytes" }
        if let expectedLength { text += ", Le \(expectedLength)" }
        return text
    }
}

extension CommandAPDU {
    /// SELECT by DF name (ISO/IEC 7816-4 11.2.2, P1 `04`, P2 `00`: first or only occurrence),
    /// `expectedLength` given for an answer with FCI.
    public static func select(application identifier: [UInt8], expectedLength: Int? = nil) -> CommandAPDU {
        CommandAPDU(ins: Instruction.select, p1: 0x04, p2: 0x00, data: identifier, expectedLength: expectedLength)
    }

    /// SELECT of an EF by its file identifier, no response data (P1 `00`, P2 `0C`; NFC Forum
    /// Type 4 Tag 5.4.2, 5.4.3).
    public static func select(file identifier: UInt16) -> CommandAPDU {
        CommandAPDU(ins: Instruction.select, p1: 0x00, p2: 0x0C, data: [UInt8(identifier >> 8), UInt8(truncatingIfNeeded: identifier)])
    }

    /// READ BINARY of `length` bytes at `offset` of the selected EF (offset 0 to 32767).
    public static func readBinary(offset: Int, length: Int) -> CommandAPDU {
        precondition((0...0x7FFF).contains(offset), "READ BINARY offset \(offset)")
        return CommandAPDU(ins: Instruction.readBinary, p1: UInt8(offset >> 8), p2: UInt8(truncatingIfNeeded: offset), expectedLength: length)
    }

    /// UPDATE BINARY of `data` at `offset` of the selected EF (offset 0 to 32767).
    public static func updateBinary(offset: Int, data: [UInt8]) -> CommandAPDU {
        precondition((0...0x7FFF).contains(offset), "UPDATE BINARY offset \(offset)")
        return CommandAPDU(ins: Instruction.updateBinary, p1: UInt8(offset >> 8), p2: UInt8(truncatingIfNeeded: offset), data: data)
    }
}
