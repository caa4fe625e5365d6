/// An NDEF message: records, the first with MB and the last with ME set (NFC Forum NDEF
/// Technical Specification 1.0, section 3), as ISO/IEC 18013-5 8.2.2.1 exchanges them for NFC
/// engagement: the Handover Select message (with DeviceEngagement and the carrier
/// configurations) and, for negotiated handover, the Handover Request message.
///
/// Reading bounds every length by the bytes that remain, never allocates by a declared length,
/// and accepts at most ``maximumRecordCount`` records. A Handover Select or Request record's
/// payload is a version octet followed by an NDEF message of its own (Connection Handover 1.5),
/// read with this type again.
public struct NDEFMessage: Sendable, Hashable {
    /// The most records read from one message: a Handover Select message with
    /// DeviceEngagement and the three carriers of 18013-5 holds five; 64 leaves room for
    /// anything real and bounds the work of a hostile message.
    public static let maximumRecordCount = 64

    /// The records, in order.
    public var records: [NDEFRecord]

    /// A message of `records`.
    public init(records: [NDEFRecord]) {
        self.records = records
    }

    /// Reads one NDEF message that fills `bytes` exactly.
    public init(bytes: [UInt8]) throws(NDEFError) {
        var records: [NDEFRecord] = []
        var offset = 0
        var ended = false
        while offset < bytes.count {
            guard !ended else {
                throw NDEFError(.notOneMessage, "\(bytes.count - offset) bytes follow the record with ME set", offset: offset)
            }
            guard records.count < Self.maximumRecordCount else {
                throw NDEFError(.tooManyRecords, "more than \(Self.maximumRecordCount) records", offset: offset)
            }
            let header = bytes[offset]
            let isFirst = records.isEmpty
            guard (header & 0x80 != 0) == isFirst else {
                throw NDEFError(
                    .badMessageBoundary, isFirst ? "the first record lacks the MB flag" : "a record after the first has the MB flag",
                    offset: offset)
            }
            guard header & 0x20 == 0 else {
                throw NDEFError(.chunkedRecord, "chunked records (CF flag) are not supported", offset: offset)
            }
            ended = header & 0x40 != 0
            let shortRecord = header & 0x10 != 0
            let hasID = header & 0x08 != 0
            var cursor = offset + 1
            let typeLength = try Self.length(bytes, at: &cursor, octets: 1, record: offset)
            let payloadLength = try Self.length(bytes, at: &cursor, octets: shortRecord ? 1 : 4, record: offset)
            let idLength = hasID ? try Self.length(bytes, at: &cursor, octets: 1, record: offset) : 0
            let type = try Self.field(bytes, at: &cursor, count: typeLength, name: "type", record: offset)
            let id = try Self.field(bytes, at: &cursor, count: idLength, name: "ID", record: offset)
            let payload = try Self.field(bytes, at: &cursor, count: payloadLength, name: "payload", record: offset)
            records.append(NDEFRecord(
                typeNameFormat: NDEFRecord.TypeNameFormat(rawValue: header & 0x07), type: type, id: id, payload: payload))
            offset = cursor
        }
        guard ended else {
            throw NDEFError(
                records.isEmpty ? .notOneMessage : .badMessageBoundary,
                records.isEmpty ? "the message is empty" : "no record has the ME flag", offset: offset)
        }
        self.records = records
    }

    /// A big-endian length of `octets` octets at `cursor`.
    private static func length(_ bytes: [UInt8], at cursor: inout Int, octets: Int, record: Int) throws(NDEFError) -> Int {
        guard bytes.count - cursor >= octets else {
            throw NDEFError(.truncated, "the header of the record at byte \(record) runs past the end", offset: cursor)
        }
        var value = 0
        for byte in bytes[cursor..<cursor + octets] {
            value = value << 8 | Int(byte)
        }
        cursor += octets
        return value
    }

    /// `count` bytes at `cursor`, checked against what remains before anything is copied.
    private static func field(_ bytes: [UInt8], at cursor: inout Int, count: Int, name: String, record: Int) throws(NDEFError) -> [UInt8] {
        guard bytes.count - cursor >= count else {
            throw NDEFError(
                .truncated,
                "the \(name) of the record at byte \(record) declares \(count) bytes, \(bytes.count - cursor) follow", offset: cursor)
        }
        defer { cursor += count }
        return Array(bytes[cursor..<cursor + count])
    }
}
