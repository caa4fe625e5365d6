import NIOCore

/// Unmarshals the values of a D-Bus message of either byte order (D-Bus Specification,
/// "Marshaling (Wire Format)"), checking everything a peer could get wrong: padding that is not
/// zero, booleans other than 0 and 1, strings that are not UTF-8 or hold a NUL, object paths and
/// signatures that are not valid, lengths beyond the message or the limits, nesting too deep.
package struct DBusWireReader {
    /// The deepest nesting of containers and variants together (Specification: "Valid
    /// Signatures", 32 arrays and 32 structures).
    package static let maximumDepth = 64

    private var buffer: ByteBuffer
    /// Where the message starts: alignment counts from there.
    private let start: Int
    private let endianness: Endianness

    /// A reader of the message in `buffer`, from its reader index, in byte order `endianness`.
    package init(buffer: ByteBuffer, endianness: Endianness) {
        self.buffer = buffer
        start = buffer.readerIndex
        self.endianness = endianness
    }

    /// The octets read so far.
    package var offset: Int { buffer.readerIndex - start }
    /// The octets left.
    package var remaining: Int { buffer.readableBytes }

    /// Skips the padding up to the next multiple of `alignment`; it must be zero.
    package mutating func align(to alignment: Int) throws(DBusError) {
        let padding = (alignment - offset % alignment) % alignment
        guard let octets = buffer.readBytes(length: padding) else { throw truncated("padding") }
        guard octets.allSatisfy({ $0 == 0 }) else { throw DBusError.malformed("padding that is not zero at offset \(offset)") }
    }

    /// Reads a value of `type`.
    package mutating func read(_ type: DBusType, depth: Int = 0) throws(DBusError) -> DBusValue {
        guard depth <= Self.maximumDepth else { throw DBusError.malformed("values nested deeper than \(Self.maximumDepth)") }
        switch type {
        case .basic(let code):
            return try readBasic(code)
        case .variant:
            let signature = try readSignature()
            let inner = try DBusType.parseSingle(signature)
            return .variant(try read(inner, depth: depth + 1))
        case .array(let element):
            if case .basic(UInt8(ascii: "y")) = element {
                let length = try readArrayLength(elementAlignment: 1)
                guard let octets = buffer.readBytes(length: length) else { throw truncated("an array of bytes") }
                return .bytes(octets)
            }
            // The length first: reading it moves the offset past it and the padding.
            let length = try readArrayLength(elementAlignment: element.alignment)
            let end = offset + length
            var values: [DBusValue] = []
            while offset < end { values.append(try read(element, depth: depth + 1)) }
            guard offset == end else { throw DBusError.malformed("an array's elements overrun its length") }
            return .array(element: element.signature, values)
        case .dictionary(let key, let value):
            let length = try readArrayLength(elementAlignment: 8)
            let end = offset + length
            var entries: [DBusDictionaryEntry] = []
            while offset < end {
                try align(to: 8)
                entries.append(DBusDictionaryEntry(key: try read(key, depth: depth + 1), value: try read(value, depth: depth + 1)))
            }
            guard offset == end else { throw DBusError.malformed("a dictionary's entries overrun its length") }
            return .dictionary(key: key.signature, value: value.signature, entries)
        case .structure(let fields):
            try align(to: 8)
            var values: [DBusValue] = []
            for field in fields { values.append(try read(field, depth: depth + 1)) }
            return .structure(values)
        }
    }

    /// A signature (`g`): an 8-bit length, the octets, a NUL; checked to be valid.
    package mutating func readSignature() throws(DBusError) -> String {
        guard let length = buffer.readInteger(as: UInt8.self) else { throw truncated("a signature") }
        let text = try readText(length: Int(length), "a signature")
        _ = try DBusType.parse(text)
        return text
    }

    private mutating func readBasic(_ code: UInt8) throws(DBusError) -> DBusValue {
        switch code {
        case UInt8(ascii: "y"):
            guard let byte = buffer.readInteger(as: UInt8.self) else { throw truncated("a byte") }
            return .byte(byte)
        case UInt8(ascii: "b"):
            let flag: UInt32 = try readInteger()
            guard flag <= 1 else { throw DBusError.malformed("a boolean of \(flag), not 0 or 1") }
            return .boolean(flag == 1)
        case UInt8(ascii: "n"): return .int16(try readInteger())
        case UInt8(ascii: "q"): return .uint16(try readInteger())
        case UInt8(ascii: "i"), UInt8(ascii: "h"): return .int32(try readInteger())
        case UInt8(ascii: "u"): return .uint32(try readInteger())
        case UInt8(ascii: "x"): return .int64(try readInteger())
        case UInt8(ascii: "t"): return .uint64(try readInteger())
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try readInteger()))
        case UInt8(ascii: "s"): return .string(try readString())
        case UInt8(ascii: "o"):
            let path = try readString()
            guard DBusObjectPath.isValid(path) else { throw DBusError.malformed("\"\(path)\" is not an object path") }
            return .objectPath(path)
        default:
            return .signature(try readSignature())
        }
    }

    /// A fixed-width integer at its alignment, in the message's byte order.
    package mutating func readInteger<Integer: FixedWidthInteger>() throws(DBusError) -> Integer {
        try align(to: MemoryLayout<Integer>.size)
        guard let value = buffer.readInteger(endianness: endianness, as: Integer.self) else {
            throw truncated("a \(MemoryLayout<Integer>.size)-octet integer")
        }
        return value
    }

    /// `s` or `o`: a 32-bit length, the UTF-8 octets, a NUL.
    private mutating func readString() throws(DBusError) -> String {
        let length: UInt32 = try readInteger()
        guard Int(length) < buffer.readableBytes else { throw truncated("a string of \(length) octets") }
        return try readText(length: Int(length), "a string")
    }

    /// `length` octets of UTF-8 without NUL, then a NUL.
    private mutating func readText(length: Int, _ what: String) throws(DBusError) -> String {
        guard let octets = buffer.readBytes(length: length), buffer.readInteger(as: UInt8.self) == 0 else {
            throw truncated(what)
        }
        guard !octets.contains(0), let text = String(validating: octets, as: UTF8.self) else {
            throw DBusError.malformed("\(what) that is not UTF-8 without NUL")
        }
        return text
    }

    /// An array's length, checked against the limit and what is left, then the padding to its
    /// elements' alignment.
    private mutating func readArrayLength(elementAlignment: Int) throws(DBusError) -> Int {
        let length = Int(try readInteger() as UInt32)
        guard length <= DBusWireWriter.maximumArrayLength else {
            throw DBusError.malformed("an array of \(length) octets, above the \(DBusWireWriter.maximumArrayLength) D-Bus allows")
        }
        try align(to: elementAlignment)
        guard length <= buffer.readableBytes else { throw truncated("an array of \(length) octets") }
        return length
    }

    private func truncated(_ what: String) -> DBusError {
        DBusError.malformed("the message ends inside \(what) (offset \(offset))")
    }
}
