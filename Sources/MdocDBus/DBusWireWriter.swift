import NIOCore

/// Marshals values into a D-Bus message, little-endian (D-Bus Specification, "Marshaling (Wire
/// Format)"): each value at its type's alignment, counted from the start of the message.
package struct DBusWireWriter {
    /// The largest array, in octets (Specification: "Valid Signatures").
    package static let maximumArrayLength = 1 << 26

    /// The message written so far.
    package private(set) var buffer: ByteBuffer
    /// Where the message starts in ``buffer``: alignment counts from there.
    private let start: Int

    /// A writer appending a message to `buffer`.
    package init(buffer: ByteBuffer) {
        self.buffer = buffer
        start = buffer.writerIndex
    }

    /// The octets written so far.
    package var count: Int { buffer.writerIndex - start }

    /// Writes zero octets up to the next multiple of `alignment`.
    package mutating func pad(to alignment: Int) {
        let padding = (alignment - count % alignment) % alignment
        buffer.writeRepeatingByte(0, count: padding)
    }

    /// Writes `value`. Throws `InvalidArgs` for a value D-Bus cannot carry: an array element or
    /// dictionary entry of another type than the array's, a string with a NUL, a signature that
    /// is not valid, an array above ``maximumArrayLength``.
    package mutating func write(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .byte(let byte): buffer.writeInteger(byte)
        case .boolean(let flag): writeInteger(UInt32(flag ? 1 : 0))
        case .int16(let number): writeInteger(number)
        case .uint16(let number): writeInteger(number)
        case .int32(let number): writeInteger(number)
        case .uint32(let number): writeInteger(number)
        case .int64(let number): writeInteger(number)
        case .uint64(let number): writeInteger(number)
        case .double(let number): writeInteger(number.bitPattern)
        case .string(let text), .objectPath(let text):
            try writeString(text)
        case .signature(let text):
            _ = try DBusType.parse(text)
            try writeSignature(text)
        case .variant(let inner):
            try writeSignature(inner.signature)
            try write(inner)
        case .bytes(let octets):
            try writeArray(elementAlignment: 1) { (writer) throws(DBusError) in writer.buffer.writeBytes(octets) }
        case .array(let element, let elements):
            let type = try DBusType.parseSingle(element)
            try writeArray(elementAlignment: type.alignment) { (writer) throws(DBusError) in
                for item in elements {
                    guard item.signature == element else {
                        throw DBusError.malformed("an element of type \(item.signature) in an array of \(element)")
                    }
                    try writer.write(item)
                }
            }
        case .dictionary(let key, let valueType, let entries):
            try writeArray(elementAlignment: 8) { (writer) throws(DBusError) in
                for entry in entries {
                    guard entry.key.signature == key, entry.value.signature == valueType else {
                        throw DBusError.malformed("an entry {\(entry.key.signature)\(entry.value.signature)} in a dictionary of {\(key)\(valueType)}")
                    }
                    writer.pad(to: 8)
                    try writer.write(entry.key)
                    try writer.write(entry.value)
                }
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusError.malformed("an empty structure") }
            pad(to: 8)
            for field in fields { try write(field) }
        }
    }

    private mutating func writeInteger<Integer: FixedWidthInteger>(_ value: Integer) {
        pad(to: MemoryLayout<Integer>.size)
        buffer.writeInteger(value, endianness: .little)
    }

    /// `s` or `o`: a 32-bit length, the UTF-8 octets, a NUL.
    private mutating func writeString(_ text: String) throws(DBusError) {
        let octets = Array(text.utf8)
        guard !octets.contains(0) else { throw DBusError.malformed("a string with a NUL character") }
        writeInteger(UInt32(octets.count))
        buffer.writeBytes(octets)
        buffer.writeInteger(UInt8(0))
    }

    /// `g`: an 8-bit length, the octets, a NUL.
    private mutating func writeSignature(_ text: String) throws(DBusError) {
        let octets = Array(text.utf8)
        guard octets.count <= DBusType.maximumSignatureLength else {
            throw DBusError.invalidSignature(text, "longer than \(DBusType.maximumSignatureLength) characters")
        }
        buffer.writeInteger(UInt8(octets.count))
        buffer.writeBytes(octets)
        buffer.writeInteger(UInt8(0))
    }

    /// An array: its 32-bit length in octets, then the padding to its elements' alignment and
    /// the elements `body` writes; the length counts neither the padding nor itself.
    private mutating func writeArray(elementAlignment: Int, _ body: (inout DBusWireWriter) throws(DBusError) -> Void) throws(DBusError) {
        pad(to: 4)
        let lengthIndex = buffer.writerIndex
        buffer.writeInteger(UInt32(0))
        pad(to: elementAlignment)
        let elementsStart = buffer.writerIndex
        try body(&self)
        let length = buffer.writerIndex - elementsStart
        guard length <= Self.maximumArrayLength else {
            throw DBusError.malformed("an array of \(length) octets, above the \(Self.maximumArrayLength) D-Bus allows")
        }
        buffer.setInteger(UInt32(length), at: lengthIndex, endianness: .little)
    }
}
