import MdocModel

/// The NFC carrier configuration record of ISO/IEC 18013-5 8.2.2.1 (external type
/// `iso.org:18013:nfc`, ID `nfc`): a version, then the data-retrieval options as entries of a
/// length, a type and a big-endian value: type 1 the maximum command data field length, type 2
/// the maximum response data field length. A reader's record may hold the version alone.
public struct NFCCarrier: Sendable, Hashable {
    /// The ID of the record: `nfc`.
    public static let recordID = "nfc"
    /// The version this toolkit writes and reads: 1.
    public static let version: UInt8 = 0x01
    /// The entry type of the maximum command data field length.
    public static let maximumCommandDataLengthType: UInt8 = 0x01
    /// The entry type of the maximum response data field length.
    public static let maximumResponseDataLengthType: UInt8 = 0x02
    /// The most value bytes of one entry: 3 hold 65536, the largest length of an extended
    /// response.
    public static let maximumValueLength = 3

    /// The maximum command data field length the sender takes, when given (1 to 65535).
    public var maximumCommandDataLength: Int?
    /// The maximum response data field length the sender takes, when given (1 to 65536).
    public var maximumResponseDataLength: Int?

    /// A record of the two lengths; out-of-range lengths are a programming error.
    public init(maximumCommandDataLength: Int?, maximumResponseDataLength: Int?) {
        if let maximumCommandDataLength {
            precondition((1...CommandAPDU.maximumExtendedDataLength).contains(maximumCommandDataLength))
        }
        if let maximumResponseDataLength {
            precondition((1...CommandAPDU.maximumExtendedExpectedLength).contains(maximumResponseDataLength))
        }
        self.maximumCommandDataLength = maximumCommandDataLength
        self.maximumResponseDataLength = maximumResponseDataLength
    }

    /// Reads a record's payload: version 1, then entries each of a length of 2 to
    /// 1 + ``maximumValueLength``, a type and the value; unknown types are skipped, a type seen
    /// twice or a length out of range is an error.
    public init(payload: [UInt8]) throws(NFCError) {
        guard let version = payload.first else {
            throw NFCError(.truncated, "the NFC carrier record is empty", offset: 0)
        }
        guard version == Self.version else {
            throw NFCError(.invalidHandover, "NFC carrier version \(version), this toolkit reads \(Self.version)", offset: 0)
        }
        var command: Int?
        var response: Int?
        var offset = 1
        while offset < payload.count {
            let length = Int(payload[offset])
            guard (2...1 + Self.maximumValueLength).contains(length) else {
                throw NFCError(.malformed, "an NFC carrier entry of length \(length)", offset: offset)
            }
            guard payload.count - offset - 1 >= length else {
                throw NFCError(.truncated, "an NFC carrier entry declares \(length) bytes, \(payload.count - offset - 1) follow", offset: offset)
            }
            let type = payload[offset + 1]
            let value = payload[offset + 2..<offset + 1 + length].reduce(0) { $0 << 8 | Int($1) }
            switch type {
            case Self.maximumCommandDataLengthType:
                guard command == nil else { throw NFCError(.malformed, "two maximum command data lengths", offset: offset) }
                guard (1...CommandAPDU.maximumExtendedDataLength).contains(value) else {
                    throw NFCError(.limitExceeded, "a maximum command data length of \(value)", offset: offset)
                }
                command = value
            case Self.maximumResponseDataLengthType:
                guard response == nil else { throw NFCError(.malformed, "two maximum response data lengths", offset: offset) }
                guard (1...CommandAPDU.maximumExtendedExpectedLength).contains(value) else {
                    throw NFCError(.limitExceeded, "a maximum response data length of \(value)", offset: offset)
                }
                response = value
            default:
                break
            }
            offset += 1 + length
        }
        maximumCommandDataLength = command
        maximumResponseDataLength = response
    }

    /// The payload: the version and each length given, its value in as few bytes as hold it.
    public var payload: [UInt8] {
        var bytes = [Self.version]
        for (type, value) in [(Self.maximumCommandDataLengthType, maximumCommandDataLength),
                              (Self.maximumResponseDataLengthType, maximumResponseDataLength)] {
            guard let value else { continue }
            var digits: [UInt8] = []
            var rest = value
            repeat {
                digits.insert(UInt8(truncatingIfNeeded: rest), at: 0)
                rest >>= 8
            } while rest > 0
            bytes += [UInt8(digits.count + 1), type] + digits
        }
        return bytes
    }

    /// The record, with the ID ``recordID``.
    public var record: NDEFRecord {
        NDEFRecord(typeNameFormat: .external, type: Array(NDEFRecord.readerNFCType.utf8), id: Array(Self.recordID.utf8), payload: payload)
    }

    /// The record as the NFC retrieval options of 18013-5 8.2.1.1, when it has both lengths.
    public var options: NfcOptions? {
        guard let maximumCommandDataLength, let maximumResponseDataLength else { return nil }
        return NfcOptions(maxLengthCommandData: UInt64(maximumCommandDataLength), maxLengthResponseData: UInt64(maximumResponseDataLength))
    }
}
