import MdocModel

extension NDEFMessage {
    /// The most bytes of a record's type or ID: each has a one-byte length (NFC Forum NDEF 1.0
    /// 3.2.4, 3.2.5).
    public static let maximumTypeOrIDLength = 255

    /// The encoded message (NFC Forum NDEF 1.0 section 3): MB on the first record, ME on the
    /// last, the short-record form (SR) for payloads under 256 bytes and the IL flag for
    /// records with an ID, never chunked. A type or ID longer than ``maximumTypeOrIDLength``,
    /// or an empty message, is a programming error.
    public var bytes: [UInt8] {
        precondition(!records.isEmpty, "an NDEF message has at least one record")
        var bytes: [UInt8] = []
        for (index, record) in records.enumerated() {
            precondition(record.type.count <= Self.maximumTypeOrIDLength && record.id.count <= Self.maximumTypeOrIDLength,
                         "NDEF record type or ID over 255 bytes")
            let short = record.payload.count < 256
            var header = record.typeNameFormat.rawValue & 0x07
            if index == 0 { header |= 0x80 }
            if index == records.count - 1 { header |= 0x40 }
            if short { header |= 0x10 }
            if !record.id.isEmpty { header |= 0x08 }
            bytes.append(header)
            bytes.append(UInt8(record.type.count))
            if short {
                bytes.append(UInt8(record.payload.count))
            } else {
                let length = UInt32(record.payload.count)
                bytes += [UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8),
                          UInt8(truncatingIfNeeded: length)]
            }
            if !record.id.isEmpty { bytes.append(UInt8(record.id.count)) }
            bytes += record.type
            bytes += record.id
            bytes += record.payload
        }
        return bytes
    }

    /// Reads an NDEF message, its errors told as ``NFCError``s of code
    /// `invalidHandover` with the NDEF error's reason and offset.
    package static func parse(_ bytes: [UInt8], what: String) throws(NFCError) -> NDEFMessage {
        do {
            return try NDEFMessage(bytes: bytes)
        } catch {
            throw NFCError(.invalidHandover, "\(what) is not an NDEF message: \(error.reason)", offset: error.offset)
        }
    }
}

extension NDEFRecord {
    /// Whether the record has type name format `format` and the type `type`.
    package func isType(_ format: TypeNameFormat, _ type: String) -> Bool {
        typeNameFormat == format && self.type.elementsEqual(type.utf8)
    }
}
