import MdocDBus
import MdocTestSupport
import NIOCore
import Testing

/// The D-Bus wire format in memory (D-Bus Specification, "Marshaling (Wire Format)", "Message
/// Format"): messages survive encoding and decoding, and every limit holds on both sides.
@Suite("D-Bus messages on the wire: marshaling and its limits")
struct DBusWireTests {
    /// A method call carrying `body`, encoded and decoded again.
    static func roundTrip(_ body: [DBusValue]) throws -> DBusMessage {
        var message = DBusMessage.methodCall("org.swiftmdoc.Test", "/org/swiftmdoc/test", "org.swiftmdoc.Test", "Echo", body)
        message.serial = 7
        let bytes = try message.encoded()
        #expect(try DBusMessage.length(at: bytes) == bytes.readableBytes)
        return try DBusMessage(decoding: bytes)
    }

    /// The header of a little-endian method call with `serial` and `bodyLength`, and a header
    /// field array of `fieldsLength` octets declared (not written).
    static func fixedHeader(serial: UInt32 = 1, bodyLength: UInt32 = 0, fieldsLength: UInt32 = 0) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeBytes([UInt8(ascii: "l"), 1, 0, 1])
        buffer.writeInteger(bodyLength, endianness: .little)
        buffer.writeInteger(serial, endianness: .little)
        buffer.writeInteger(fieldsLength, endianness: .little)
        return buffer
    }

    @Test("every type, containers followed by more arguments, survives encoding and decoding")
    func everyType() throws {
        let decoded = try Self.roundTrip(DBusSamples.everyType + [.string("after the containers")])
        #expect(decoded.body == DBusSamples.everyType + [.string("after the containers")])
        #expect(decoded.serial == 7 && decoded.member == "Echo" && decoded.destination == "org.swiftmdoc.Test")
    }

    @Test("arrays up to maximumArrayLength octets are written; one octet more is refused")
    func arrayLimit() throws {
        let limit = DBusWireWriter.maximumArrayLength
        var writer = DBusWireWriter(buffer: ByteBuffer())
        try writer.write(.bytes([UInt8](repeating: 1, count: limit)))
        #expect(writer.count == 4 + limit)
        var over = DBusWireWriter(buffer: ByteBuffer())
        #expect(throws: DBusError.self) { try over.write(.bytes([UInt8](repeating: 1, count: limit + 1))) }
    }

    @Test("a received array length up to the limit is read up to the message's end; above it is refused")
    func receivedArrayLimit() throws {
        let limit = UInt32(DBusWireWriter.maximumArrayLength)
        for (length, expected) in [(limit, "the message ends inside an array"), (limit + 1, "above the")] {
            var buffer = ByteBuffer()
            buffer.writeInteger(length, endianness: .little)
            var reader = DBusWireReader(buffer: buffer, endianness: .little)
            let error = #expect(throws: DBusError.self) { try reader.read(.array(.basic(UInt8(ascii: "u")))) }
            #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
        }
    }

    @Test("values nested maximumDepth deep are read; one level more is refused")
    func depthLimit() throws {
        func nested(_ depth: Int) -> DBusValue {
            (0..<depth).reduce(DBusValue.byte(1)) { inner, _ in .variant(inner) }
        }
        var fits = DBusWireWriter(buffer: ByteBuffer())
        try fits.write(nested(DBusWireReader.maximumDepth))
        var reader = DBusWireReader(buffer: fits.buffer, endianness: .little)
        #expect(try reader.read(.variant) == nested(DBusWireReader.maximumDepth))
        var deeper = DBusWireWriter(buffer: ByteBuffer())
        try deeper.write(nested(DBusWireReader.maximumDepth + 1))
        var refusing = DBusWireReader(buffer: deeper.buffer, endianness: .little)
        let error = #expect(throws: DBusError.self) { try refusing.read(.variant) }
        #expect(error?.message.contains("nested deeper than \(DBusWireReader.maximumDepth)") == true)
    }

    @Test("signatures up to maximumSignatureLength characters and maximumNesting arrays parse; more fail")
    func signatureLimits() throws {
        let longest = String(repeating: "y", count: DBusType.maximumSignatureLength)
        #expect(try DBusType.parse(longest).count == DBusType.maximumSignatureLength)
        #expect(throws: DBusError.self) { try DBusType.parse(longest + "y") }
        let deepest = String(repeating: "a", count: DBusType.maximumNesting) + "y"
        #expect(try DBusType.parseSingle(deepest).signature == deepest)
        #expect(throws: DBusError.self) { try DBusType.parseSingle("a" + deepest) }
    }

    @Test("a message declaring maximumLength octets is taken; one octet more is refused")
    func messageLimit() throws {
        let fields = UInt32(8)
        let body = UInt32(DBusMessage.maximumLength) - UInt32(DBusMessage.fixedHeaderLength) - fields
        #expect(try DBusMessage.length(at: Self.fixedHeader(bodyLength: body, fieldsLength: fields)) == DBusMessage.maximumLength)
        #expect(throws: DBusError.self) { try DBusMessage.length(at: Self.fixedHeader(bodyLength: body + 1, fieldsLength: fields)) }
        var partial = Self.fixedHeader()
        partial.moveWriterIndex(to: DBusMessage.fixedHeaderLength - 1)
        #expect(try DBusMessage.length(at: partial) == nil)
    }

    @Test("what a peer could get wrong is refused: byte order, serial 0, padding, booleans, NUL in strings")
    func malformed() throws {
        var marker = Self.fixedHeader()
        marker.setInteger(UInt8(ascii: "x"), at: 0)
        #expect(throws: DBusError.self) { try DBusMessage.length(at: marker) }
        #expect(throws: DBusError.self) { try DBusMessage(decoding: Self.fixedHeader(serial: 0)) }

        let padding = ByteBuffer(bytes: [1, 0xFF, 0, 0, 5, 0, 0, 0])
        var paddingReader = DBusWireReader(buffer: padding, endianness: .little)
        _ = try paddingReader.read(.basic(UInt8(ascii: "y")))
        #expect(throws: DBusError.self) { try paddingReader.read(.basic(UInt8(ascii: "u"))) }

        var boolean = DBusWireReader(buffer: ByteBuffer(bytes: [2, 0, 0, 0]), endianness: .little)
        #expect(throws: DBusError.self) { try boolean.read(.basic(UInt8(ascii: "b"))) }
        var string = DBusWireReader(buffer: ByteBuffer(bytes: [3, 0, 0, 0, 0x61, 0, 0x62, 0]), endianness: .little)
        #expect(throws: DBusError.self) { try string.read(.basic(UInt8(ascii: "s"))) }
        var writer = DBusWireWriter(buffer: ByteBuffer())
        #expect(throws: DBusError.self) { try writer.write(.string("a\u{0}b")) }
    }

    @Test("big-endian messages from a peer are read in their byte order")
    func bigEndian() throws {
        var reader = DBusWireReader(buffer: ByteBuffer(bytes: [0, 0, 0x02, 0x05]), endianness: .big)
        #expect(try reader.read(.basic(UInt8(ascii: "u"))) == .uint32(517))
    }
}
