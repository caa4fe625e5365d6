import NIOCore

/// One D-Bus message (D-Bus Specification, "Message Format"): its header fields and its body,
/// the arguments as `DBusValue`s.
public struct DBusMessage: Sendable, Hashable {
    /// The message type (Specification: "Message Types").
    package enum Kind: UInt8, Sendable, Hashable {
        case methodCall = 1
        case methodReturn = 2
        case error = 3
        case signal = 4
    }

    /// The header's flags (Specification: "Message Format").
    package struct Flags: OptionSet, Sendable, Hashable {
        package let rawValue: UInt8
        /// Flags of `rawValue`.
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The caller wants no reply.
        package static let noReplyExpected = Flags(rawValue: 0x01)
        /// The bus must not start a service for the destination.
        package static let noAutoStart = Flags(rawValue: 0x02)
    }

    /// The largest message, 128 MiB (Specification: "Message Format").
    package static let maximumLength = 1 << 27
    /// The fixed part of the header: byte order, type, flags, version, body length, serial and
    /// the length of the header field array.
    package static let fixedHeaderLength = 16
    /// The protocol version of the header.
    package static let protocolVersion: UInt8 = 1

    package var kind: Kind
    package var flags: Flags = []
    /// The sender's number for the message, not 0; set by the connection that sends it.
    package var serial: UInt32 = 0
    package var path: String?
    package var interface: String?
    package var member: String?
    package var errorName: String?
    /// The serial of the call a reply answers.
    package var replySerial: UInt32?
    package var destination: String?
    /// The sender's unique bus name, set by the bus.
    package var sender: String?
    /// The arguments.
    package var body: [DBusValue] = []

    /// The body's signature.
    package var signature: String { body.map(\.signature).joined() }

    /// A message of `kind` with these header fields and `body`; the serial is set when sent.
    package init(kind: Kind, path: String? = nil, interface: String? = nil, member: String? = nil, errorName: String? = nil,
         replySerial: UInt32? = nil, destination: String? = nil, sender: String? = nil, body: [DBusValue] = []) {
        self.kind = kind
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.replySerial = replySerial
        self.destination = destination
        self.sender = sender
        self.body = body
    }

    /// A method call of `member` of `interface` on `path` at `destination`.
    package static func methodCall(_ destination: String, _ path: String, _ interface: String, _ member: String,
                           _ arguments: [DBusValue]) -> DBusMessage {
        DBusMessage(kind: .methodCall, path: path, interface: interface, member: member, destination: destination, body: arguments)
    }

    /// A signal `member` of `interface` from `path`.
    package static func signal(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) -> DBusMessage {
        DBusMessage(kind: .signal, path: path, interface: interface, member: member, body: arguments)
    }

    /// The method return answering `call` with `arguments`.
    package static func methodReturn(to call: DBusMessage, _ arguments: [DBusValue]) -> DBusMessage {
        DBusMessage(kind: .methodReturn, replySerial: call.serial, destination: call.sender, body: arguments)
    }

    /// The error reply `error` answering `call`.
    package static func error(to call: DBusMessage, _ error: DBusError) -> DBusMessage {
        DBusMessage(kind: .error, errorName: error.name, replySerial: call.serial, destination: call.sender,
                    body: error.message.isEmpty ? [] : [.string(error.message)])
    }

    /// The error an error reply carries: its name, and its first argument when that is a string.
    package var carriedError: DBusError {
        DBusError(name: errorName ?? DBusError.connectionErrorName, message: body.first?.stringValue ?? "")
    }

    // MARK: Header fields

    /// The header field codes (Specification: "Header Fields").
    private enum Field: UInt8 {
        case path = 1, interface, member, errorName, replySerial, destination, sender, signature, unixFDs
    }

    /// The message as it goes on the wire, little-endian. Throws `InvalidArgs` for a body or a
    /// field D-Bus cannot carry, or a message above ``maximumLength``.
    package func encoded(allocator: ByteBufferAllocator = ByteBufferAllocator()) throws(DBusError) -> ByteBuffer {
        var fields: [DBusValue] = []
        func field(_ code: Field, _ value: DBusValue?) {
            if let value { fields.append(.structure([.byte(code.rawValue), .variant(value)])) }
        }
        field(.path, path.map(DBusValue.objectPath))
        field(.interface, interface.map(DBusValue.string))
        field(.member, member.map(DBusValue.string))
        field(.errorName, errorName.map(DBusValue.string))
        field(.replySerial, replySerial.map(DBusValue.uint32))
        field(.destination, destination.map(DBusValue.string))
        field(.sender, sender.map(DBusValue.string))
        if !body.isEmpty { field(.signature, .signature(signature)) }

        var bodyWriter = DBusWireWriter(buffer: allocator.buffer(capacity: 64))
        for value in body { try bodyWriter.write(value) }
        var writer = DBusWireWriter(buffer: allocator.buffer(capacity: 128 + bodyWriter.count))
        try writer.write(.byte(UInt8(ascii: "l")))
        try writer.write(.byte(kind.rawValue))
        try writer.write(.byte(flags.rawValue))
        try writer.write(.byte(Self.protocolVersion))
        try writer.write(.uint32(UInt32(bodyWriter.count)))
        try writer.write(.uint32(serial))
        try writer.write(.array(element: "(yv)", fields))
        writer.pad(to: 8)
        var message = writer.buffer
        var body = bodyWriter.buffer
        message.writeBuffer(&body)
        guard message.readableBytes <= Self.maximumLength else {
            throw DBusError.malformed("a message of \(message.readableBytes) octets, above the \(Self.maximumLength) D-Bus allows")
        }
        return message
    }

    /// The whole length of the message at the start of `buffer`, nil while its fixed header has
    /// not arrived. Throws `InvalidArgs` for a byte order marker other than `l` or `B` and a
    /// message above ``maximumLength``.
    package static func length(at buffer: ByteBuffer) throws(DBusError) -> Int? {
        guard buffer.readableBytes >= fixedHeaderLength, let marker = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else {
            return nil
        }
        let endianness = try Self.endianness(marker)
        let index = buffer.readerIndex
        let bodyLength = Int(buffer.getInteger(at: index + 4, endianness: endianness, as: UInt32.self) ?? 0)
        let fieldsLength = Int(buffer.getInteger(at: index + 12, endianness: endianness, as: UInt32.self) ?? 0)
        let header = fixedHeaderLength + fieldsLength
        let length = header + (8 - header % 8) % 8 + bodyLength
        guard length <= maximumLength else {
            throw DBusError.malformed("a message of \(length) octets, above the \(maximumLength) D-Bus allows")
        }
        return length
    }

    private static func endianness(_ marker: UInt8) throws(DBusError) -> Endianness {
        switch marker {
        case UInt8(ascii: "l"): return .little
        case UInt8(ascii: "B"): return .big
        default: throw DBusError.malformed("a message starting with 0x\(String(marker, radix: 16)), not a byte order marker")
        }
    }

    /// Decodes the whole message in `buffer` (``length(at:)`` octets). Throws `InvalidArgs` for
    /// anything D-Bus does not allow, and for a message that lacks the fields its type requires.
    package init(decoding buffer: ByteBuffer) throws(DBusError) {
        guard let marker = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else {
            throw DBusError.malformed("an empty message")
        }
        var reader = DBusWireReader(buffer: buffer, endianness: try Self.endianness(marker))
        _ = try reader.read(.basic(UInt8(ascii: "y")))
        let type: UInt8 = try reader.readInteger()
        let flags: UInt8 = try reader.readInteger()
        let version: UInt8 = try reader.readInteger()
        let bodyLength: UInt32 = try reader.readInteger()
        let serial: UInt32 = try reader.readInteger()
        guard version == Self.protocolVersion else { throw DBusError.malformed("protocol version \(version), not 1") }
        guard serial != 0 else { throw DBusError.malformed("a message with serial 0") }
        guard let kind = Kind(rawValue: type) else { throw DBusError.malformed("message type \(type)") }
        self.kind = kind
        self.flags = Flags(rawValue: flags)
        self.serial = serial
        var signature = ""
        guard case .array(_, let fields) = try reader.read(.array(.structure([.basic(UInt8(ascii: "y")), .variant])))
        else { throw DBusError.malformed("no header fields") }
        for field in fields {
            guard case .structure(let pair) = field, case .byte(let code) = pair[0], case .variant(let value) = pair[1] else { continue }
            try apply(code, value, signature: &signature)
        }
        try reader.align(to: 8)
        guard reader.remaining == Int(bodyLength) else {
            throw DBusError.malformed("a body of \(reader.remaining) octets where the header says \(bodyLength)")
        }
        for type in try DBusType.parse(signature) { body.append(try reader.read(type)) }
        guard reader.remaining == 0 else { throw DBusError.malformed("\(reader.remaining) octets after the body's arguments") }
        try checkRequiredFields()
    }

    /// Takes header field `code` with `value`, checking its type; unknown fields are ignored.
    private mutating func apply(_ code: UInt8, _ value: DBusValue, signature: inout String) throws(DBusError) {
        guard let field = Field(rawValue: code) else { return }
        switch (field, value) {
        case (.path, .objectPath(let text)): path = text
        case (.interface, .string(let text)): interface = text
        case (.member, .string(let text)): member = text
        case (.errorName, .string(let text)): errorName = text
        case (.replySerial, .uint32(let number)): replySerial = number
        case (.destination, .string(let text)): destination = text
        case (.sender, .string(let text)): sender = text
        case (.signature, .signature(let text)): signature = text
        case (.unixFDs, .uint32): throw DBusError.malformed("a message passing file descriptors, which this connection does not take")
        default: throw DBusError.malformed("header field \(code) of type \(value.signature)")
        }
    }

    private func checkRequiredFields() throws(DBusError) {
        let missing: String?
        switch kind {
        case .methodCall: missing = path == nil ? "PATH" : member == nil ? "MEMBER" : nil
        case .signal: missing = path == nil ? "PATH" : interface == nil ? "INTERFACE" : member == nil ? "MEMBER" : nil
        case .error: missing = errorName == nil ? "ERROR_NAME" : replySerial == nil ? "REPLY_SERIAL" : nil
        case .methodReturn: missing = replySerial == nil ? "REPLY_SERIAL" : nil
        }
        if let missing { throw DBusError.malformed("a \(kind) message without the \(missing) header field") }
    }
}
