import MdocBLE

/// One value of the D-Bus type system (D-Bus Specification, "Type System"): what the BlueZ
/// transport sends to and reads from bluetoothd. Arrays of bytes have their own case, as
/// characteristic values are `ay`.
package indirect enum DBusValue: Sendable, Hashable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case boolean(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`
    case double(Double)
    /// `s`
    case string(String)
    /// `o`
    case objectPath(String)
    /// `g`
    case signature(String)
    /// `v`: a value with its own signature.
    case variant(DBusValue)
    /// `ay`
    case bytes([UInt8])
    /// `aX`: elements of signature `element` (not `y`, which is ``bytes(_:)``).
    case array(element: String, [DBusValue])
    /// `a{KV}`: entries in order, keys of signature `key`, values of signature `value`.
    case dictionary(key: String, value: String, [DBusDictionaryEntry])
    /// `(…)`
    case structure([DBusValue])

    /// The value's D-Bus signature.
    package var signature: String {
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .variant: return "v"
        case .bytes: return "ay"
        case .array(let element, _): return "a" + element
        case .dictionary(let key, let value, _): return "a{" + key + value + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// `a{sv}`, the property and option dictionaries of BlueZ, from `entries`.
    package static func properties(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(key: "s", value: "v", entries.map { DBusDictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// `as`
    package static func strings(_ values: [String]) -> DBusValue {
        .array(element: "s", values.map { .string($0) })
    }

    /// The value inside variants.
    package var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The string of `s`, `o` or `g` (inside variants).
    package var stringValue: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): return text
        default: return nil
        }
    }

    /// The value of `b` (inside variants).
    package var boolValue: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    /// The value of an unsigned or signed integer that fits `Int` (inside variants).
    package var intValue: Int? {
        switch unwrapped {
        case .byte(let value): return Int(value)
        case .int16(let value): return Int(value)
        case .uint16(let value): return Int(value)
        case .int32(let value): return Int(value)
        case .uint32(let value): return Int(value)
        case .int64(let value): return Int(exactly: value)
        case .uint64(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The octets of `ay` (inside variants).
    package var bytesValue: [UInt8]? {
        if case .bytes(let value) = unwrapped { return value }
        return nil
    }

    /// The elements of an array (`as`, `ao`, …; inside variants).
    package var arrayValue: [DBusValue]? {
        if case .array(_, let elements) = unwrapped { return elements }
        return nil
    }

    /// The strings of `as` (inside variants).
    package var stringsValue: [String]? {
        arrayValue?.compactMap(\.stringValue)
    }

    /// A dictionary with string or object path keys (`a{sv}`, `a{oa{sa{sv}}}`, …) as a Swift
    /// dictionary; later duplicates win.
    package var dictionaryValue: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            if let key = entry.key.stringValue { result[key] = entry.value }
        }
        return result
    }
}

/// One entry of a D-Bus dictionary (`{KV}`).
package struct DBusDictionaryEntry: Sendable, Hashable {
    /// The key: a basic type.
    package let key: DBusValue
    /// The value.
    package let value: DBusValue

    /// The entry `key` → `value`.
    package init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}
