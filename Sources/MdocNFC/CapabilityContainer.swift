/// The capability container of an NFC Forum Type 4 Tag (Type 4 Tag Technical Specification 2.0,
/// 5.1), the 15 bytes of file `E103`: its length, the mapping version, the most bytes one READ
/// BINARY returns (MLe) and one UPDATE BINARY takes (MLc), and the NDEF File Control TLV: the
/// NDEF file's identifier, its maximum size and its read and write access conditions. A write
/// access of `FF` marks a read-only tag, what static handover offers (ISO/IEC 18013-5 8.2.2.1).
public struct CapabilityContainer: Sendable, Hashable {
    /// The file identifier of the capability container.
    public static let fileIdentifier: UInt16 = 0xE103
    /// The length of the capability container with one NDEF File Control TLV.
    public static let length = 15
    /// The mapping version this toolkit writes: 2.0.
    public static let mappingVersion: UInt8 = 0x20
    /// The smallest MLe Type 4 Tag 2.0 allows.
    public static let minimumMaximumResponseDataLength = 0x000F
    /// The smallest maximum NDEF file size Type 4 Tag 2.0 allows.
    public static let minimumNDEFFileSize = 0x0005
    /// The largest maximum NDEF file size Type 4 Tag 2.0 allows.
    public static let maximumNDEFFileSize = 0xFFFE
    /// The tag of the NDEF File Control TLV.
    public static let ndefFileControlTag: UInt8 = 0x04
    /// The access condition granting access.
    public static let accessGranted: UInt8 = 0x00
    /// The access condition denying access (a read-only tag).
    public static let accessDenied: UInt8 = 0xFF

    /// The mapping version, major version in the high nibble.
    public var mappingVersion: UInt8
    /// MLe: the most data bytes one READ BINARY may ask for.
    public var maximumResponseDataLength: Int
    /// MLc: the most data bytes one UPDATE BINARY may carry.
    public var maximumCommandDataLength: Int
    /// The identifier of the NDEF file.
    public var ndefFileIdentifier: UInt16
    /// The NDEF file's maximum size, its 2-byte length field included.
    public var maximumNDEFFileSize: Int
    /// The read access condition: ``accessGranted`` for every tag 18013-5 reads.
    public var readAccess: UInt8
    /// The write access condition: ``accessGranted`` for negotiated handover, ``accessDenied``
    /// for a read-only tag.
    public var writeAccess: UInt8

    /// A capability container of its parts, mapping version 2.0.
    public init(maximumResponseDataLength: Int, maximumCommandDataLength: Int, ndefFileIdentifier: UInt16 = 0xE104,
                maximumNDEFFileSize: Int, readAccess: UInt8 = Self.accessGranted, writeAccess: UInt8) {
        precondition((Self.minimumMaximumResponseDataLength...0xFFFF).contains(maximumResponseDataLength))
        precondition((1...0xFFFF).contains(maximumCommandDataLength))
        precondition((Self.minimumNDEFFileSize...Self.maximumNDEFFileSize).contains(maximumNDEFFileSize))
        mappingVersion = Self.mappingVersion
        self.maximumResponseDataLength = maximumResponseDataLength
        self.maximumCommandDataLength = maximumCommandDataLength
        self.ndefFileIdentifier = ndefFileIdentifier
        self.maximumNDEFFileSize = maximumNDEFFileSize
        self.readAccess = readAccess
        self.writeAccess = writeAccess
    }

    /// Whether the NDEF file can be written: negotiated handover needs it.
    public var isWritable: Bool { writeAccess == Self.accessGranted }

    /// Reads a capability container: CCLEN of at least 15 and no more than the bytes given,
    /// mapping version 2.x or 3.x, MLe and MLc within Type 4 Tag 2.0's ranges, and an NDEF File
    /// Control TLV (tag `04`, length 6) with a valid file identifier and size. Bytes after the
    /// TLV, up to CCLEN, are other TLVs and are not read.
    public init(bytes: [UInt8]) throws(NFCError) {
        guard bytes.count >= Self.length else {
            throw NFCError(.truncated, "a capability container has at least \(Self.length) bytes, \(bytes.count) came", offset: bytes.count)
        }
        let declared = Self.uint16(bytes, 0)
        guard declared >= Self.length else {
            throw NFCError(.malformed, "CCLEN \(declared) is under \(Self.length)", offset: 0)
        }
        guard declared <= bytes.count else {
            throw NFCError(.truncated, "CCLEN \(declared), \(bytes.count) bytes came", offset: 0)
        }
        mappingVersion = bytes[2]
        guard mappingVersion >> 4 == 2 || mappingVersion >> 4 == 3 else {
            throw NFCError(.malformed, "mapping version \(mappingVersion >> 4).\(mappingVersion & 0x0F)", offset: 2)
        }
        maximumResponseDataLength = Self.uint16(bytes, 3)
        guard maximumResponseDataLength >= Self.minimumMaximumResponseDataLength else {
            throw NFCError(.malformed, "MLe \(maximumResponseDataLength) is under \(Self.minimumMaximumResponseDataLength)", offset: 3)
        }
        maximumCommandDataLength = Self.uint16(bytes, 5)
        guard maximumCommandDataLength >= 1 else {
            throw NFCError(.malformed, "MLc 0", offset: 5)
        }
        guard bytes[7] == Self.ndefFileControlTag, bytes[8] == 0x06 else {
            throw NFCError(.malformed, "not an NDEF File Control TLV (tag 04, length 6)", offset: 7)
        }
        ndefFileIdentifier = UInt16(Self.uint16(bytes, 9))
        guard ![0x0000, 0xE102, Self.fileIdentifier, 0x3F00, 0x3FFF, 0xFFFF].contains(ndefFileIdentifier) else {
            throw NFCError(.malformed, "the reserved NDEF file identifier \(ndefFileIdentifier)", offset: 9)
        }
        maximumNDEFFileSize = Self.uint16(bytes, 11)
        guard (Self.minimumNDEFFileSize...Self.maximumNDEFFileSize).contains(maximumNDEFFileSize) else {
            throw NFCError(.malformed, "a maximum NDEF file size of \(maximumNDEFFileSize)", offset: 11)
        }
        readAccess = bytes[13]
        writeAccess = bytes[14]
    }

    /// The 15 bytes.
    public var bytes: [UInt8] {
        [0x00, UInt8(Self.length), mappingVersion] + Self.bytes(maximumResponseDataLength) + Self.bytes(maximumCommandDataLength)
            + [Self.ndefFileControlTag, 0x06] + Self.bytes(Int(ndefFileIdentifier)) + Self.bytes(maximumNDEFFileSize)
            + [readAccess, writeAccess]
    }

    private static func uint16(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    private static func bytes(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
