import CSDBus
import Glibc

/// A borrowed sd-bus message (sd_bus_message(3)): reads its header fields and arguments as
/// ``DBusValue``s and appends arguments. Used only on the bus thread of ``DBusConnection``.
struct DBusMessage {
    let pointer: OpaquePointer

    var path: String? { sd_bus_message_get_path(pointer).map { String(cString: $0) } }
    var interface: String? { sd_bus_message_get_interface(pointer).map { String(cString: $0) } }
    var member: String? { sd_bus_message_get_member(pointer).map { String(cString: $0) } }
    var sender: String? { sd_bus_message_get_sender(pointer).map { String(cString: $0) } }

    /// The D-Bus error the message carries when it is an error reply.
    var error: DBusError? {
        guard sd_bus_message_is_method_error(pointer, nil) > 0, let error = sd_bus_message_get_error(pointer) else { return nil }
        return DBusError(name: error.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                         message: error.pointee.message.map { String(cString: $0) } ?? "")
    }

    // MARK: Reading

    /// Every argument from the read position on.
    func readAll() throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try read() { values.append(value) }
        return values
    }

    /// The next argument, or nil at the end of the message or of the container entered.
    func read() throws(DBusError) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(pointer, &type, &contents)
        try check(peeked, "reading the message")
        if peeked == 0 { return nil }
        let code = UInt8(bitPattern: type)
        switch code {
        case UInt8(ascii: "y"): return .byte(try readBasic(type, UInt8(0)))
        case UInt8(ascii: "b"): return .boolean(try readBasic(type, Int32(0)) != 0)
        case UInt8(ascii: "n"): return .int16(try readBasic(type, Int16(0)))
        case UInt8(ascii: "q"): return .uint16(try readBasic(type, UInt16(0)))
        case UInt8(ascii: "i"): return .int32(try readBasic(type, Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try readBasic(type, UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try readBasic(type, Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try readBasic(type, UInt64(0)))
        case UInt8(ascii: "d"): return .double(try readBasic(type, Double(0)))
        case UInt8(ascii: "h"): return .int32(try readBasic(type, Int32(0)))
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var text: UnsafePointer<CChar>?
            try check(sd_bus_message_read_basic(pointer, type, &text), "reading a string")
            let value = text.map { String(cString: $0) } ?? ""
            return code == UInt8(ascii: "s") ? .string(value) : code == UInt8(ascii: "o") ? .objectPath(value) : .signature(value)
        case UInt8(ascii: "a"):
            let element = contents.map { String(cString: $0) } ?? ""
            if element == "y" {
                var data: UnsafeRawPointer?
                var size = 0
                try check(sd_bus_message_read_array(pointer, CChar(UInt8(ascii: "y")), &data, &size), "reading an ay")
                guard let data, size > 0 else { return .bytes([]) }
                return .bytes(Array(UnsafeRawBufferPointer(start: data, count: size)))
            }
            let inner = try readContainer(type, contents)
            if element.hasPrefix("{") {
                let entries = inner.compactMap { entry -> DBusDictionaryEntry? in
                    guard case .structure(let pair) = entry, pair.count == 2 else { return nil }
                    return DBusDictionaryEntry(key: pair[0], value: pair[1])
                }
                let types = Self.entryTypes(of: element)
                return .dictionary(key: types.key, value: types.value, entries)
            }
            return .array(element: element, inner)
        case UInt8(ascii: "v"):
            let inner = try readContainer(type, contents)
            guard let value = inner.first else { throw DBusError.malformed("an empty variant") }
            return .variant(value)
        case UInt8(ascii: "r"), UInt8(ascii: "e"):
            return .structure(try readContainer(type, contents))
        default:
            throw DBusError.malformed("an argument of unknown type \(Character(UnicodeScalar(code)))")
        }
    }

    private func readBasic<Value: BitwiseCopyable>(_ type: CChar, _ initial: Value) throws(DBusError) -> Value {
        var value = initial
        try check(sd_bus_message_read_basic(pointer, type, &value), "reading a basic value")
        return value
    }

    private func readContainer(_ type: CChar, _ contents: UnsafePointer<CChar>?) throws(DBusError) -> [DBusValue] {
        try check(sd_bus_message_enter_container(pointer, type, contents), "entering a container")
        let values = try readAll()
        try check(sd_bus_message_exit_container(pointer), "leaving a container")
        return values
    }

    /// The key and value signatures of a dict entry signature `{KV}`.
    static func entryTypes(of element: String) -> (key: String, value: String) {
        let inner = element.dropFirst().dropLast()
        guard let key = inner.first else { return ("", "") }
        return (String(key), String(inner.dropFirst()))
    }

    // MARK: Appending

    /// Appends `values` as the next arguments.
    func append(_ values: [DBusValue]) throws(DBusError) {
        for value in values { try append(value) }
    }

    /// Appends one argument.
    func append(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .byte(let v): try appendBasic("y", v)
        case .boolean(let v): try appendBasic("b", Int32(v ? 1 : 0))
        case .int16(let v): try appendBasic("n", v)
        case .uint16(let v): try appendBasic("q", v)
        case .int32(let v): try appendBasic("i", v)
        case .uint32(let v): try appendBasic("u", v)
        case .int64(let v): try appendBasic("x", v)
        case .uint64(let v): try appendBasic("t", v)
        case .double(let v): try appendBasic("d", v)
        case .string(let text): try appendText("s", text)
        case .objectPath(let text): try appendText("o", text)
        case .signature(let text): try appendText("g", text)
        case .bytes(let octets):
            let result = octets.withUnsafeBytes { sd_bus_message_append_array(pointer, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count) }
            try check(result, "appending an ay")
        case .variant(let inner):
            try container("v", inner.signature) { () throws(DBusError) in try append(inner) }
        case .array(let element, let elements):
            try container("a", element) { () throws(DBusError) in try append(elements) }
        case .dictionary(let key, let valueType, let entries):
            try container("a", "{" + key + valueType + "}") { () throws(DBusError) in
                for entry in entries {
                    try container("e", key + valueType) { () throws(DBusError) in try append([entry.key, entry.value]) }
                }
            }
        case .structure(let fields):
            try container("r", fields.map(\.signature).joined()) { () throws(DBusError) in try append(fields) }
        }
    }

    private func appendBasic<Value: BitwiseCopyable>(_ type: Unicode.Scalar, _ value: Value) throws(DBusError) {
        var copy = value
        try check(sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: type)), &copy), "appending a \(type)")
    }

    private func appendText(_ type: Unicode.Scalar, _ text: String) throws(DBusError) {
        // sd_bus_message_append_basic takes the string itself for s, o and g.
        let result = text.withCString { sd_bus_message_append_basic(pointer, CChar(UInt8(ascii: type)), $0) }
        try check(result, "appending \(type) \"\(text)\"")
    }

    private func container(_ type: Unicode.Scalar, _ contents: String, _ body: () throws(DBusError) -> Void) throws(DBusError) {
        try check(contents.withCString { sd_bus_message_open_container(pointer, CChar(UInt8(ascii: type)), $0) },
                  "opening a \(type) of \(contents)")
        try body()
        try check(sd_bus_message_close_container(pointer), "closing a \(type) of \(contents)")
    }

    private func check(_ result: Int32, _ what: String) throws(DBusError) {
        if result < 0 { throw DBusError.library(result, what) }
    }
}
