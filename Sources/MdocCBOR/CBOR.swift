/// One CBOR data item: the RFC 8949 data model (section 2) as a Swift value.
///
/// Integers keep their major type: ``unsignedInt(_:)`` holds 0...2^64-1 (major type 0) and
/// ``negativeInt(_:)`` holds the argument `n` of major type 1, whose value is `-1 - n`, so the
/// full range -2^64...-1 is representable. Maps keep their entries in the order they were received
/// or built (``CBORMap``). Floating-point values of every width are held as `Double`, which
/// represents half and single precision exactly; the encoder picks the shortest width that
/// preserves the value (RFC 8949 section 4.2.1).
///
/// Byte-exactness: an embedded data item (tag 24, RFC 8949 section 3.4.5.1) is held as
/// `.tagged(24, .byteString(bytes))`, so `bytes` are exactly the bytes that were received, and
/// encoding the value writes them back unchanged. ISO/IEC 18013-5 hashes, signs and MACs those
/// bytes (IssuerSignedItemBytes, MobileSecurityObjectBytes, DeviceEngagementBytes, ...).
public enum CBOR: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsignedInt(UInt64)
    /// Major type 1: the negative integer `-1 - n`, holding `n`.
    case negativeInt(UInt64)
    /// Major type 2: a byte string (indefinite-length input is joined into one string). A decoded
    /// byte string is a view of the input (``CBORBytes``); boxed, so that holding one costs the
    /// value no more room than the other cases.
    indirect case byteString(CBORBytes)
    /// Major type 3: a UTF-8 text string (indefinite-length input is joined into one string).
    case textString(String)
    /// Major type 4: an array.
    case array([CBOR])
    /// Major type 5: a map, in received or built order.
    case map(CBORMap)
    /// Major type 6: a tag number and its content (the one recursive case, so the only one boxed).
    indirect case tagged(UInt64, CBOR)
    /// Major type 7, simple values other than false, true, null and undefined (0...19, 32...255).
    case simple(UInt8)
    /// Simple values 20 and 21.
    case boolean(Bool)
    /// Simple value 22.
    case null
    /// Simple value 23.
    case undefined
    /// Major type 7 floating point of any width (half, single or double).
    case float(Double)
}

extension CBOR {
    /// Tag numbers this toolkit gives a meaning to.
    public enum Tag {
        /// RFC 8949 section 3.4.1: standard date/time string (`tdate` in ISO/IEC 18013-5).
        public static let dateTimeString: UInt64 = 0
        /// RFC 8949 section 3.4.2: epoch-based date/time.
        public static let epochDateTime: UInt64 = 1
        /// RFC 8949 section 3.4.3: unsigned bignum (`biguint`), its magnitude big-endian in a
        /// byte string.
        public static let unsignedBignum: UInt64 = 2
        /// RFC 8949 section 3.4.5.1: encoded CBOR data item (`#6.24(bstr)`).
        public static let encodedCBOR: UInt64 = 24
        /// RFC 8943: full-date string (`full-date` in ISO/IEC 18013-5).
        public static let fullDateString: UInt64 = 1004
    }

    /// An integer value as `Int64` when it fits, else `nil` (also `nil` for non-integers).
    public var int64Value: Int64? {
        switch self {
        case .unsignedInt(let n): return n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negativeInt(let n): return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: return nil
        }
    }

    /// The value of an unsigned integer, else `nil`.
    public var uint64Value: UInt64? {
        if case .unsignedInt(let n) = self { return n }
        return nil
    }

    /// The content of a text string, else `nil`.
    public var textValue: String? {
        if case .textString(let s) = self { return s }
        return nil
    }

    /// The content of a byte string as an array of its own, else `nil`.
    public var bytesValue: [UInt8]? {
        if case .byteString(let b) = self { return Array(b) }
        return nil
    }

    /// A byte string item holding `bytes`.
    public static func byteString(_ bytes: [UInt8]) -> CBOR {
        .byteString(CBORBytes(bytes))
    }

    /// The elements of an array, else `nil`.
    public var arrayValue: [CBOR]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The entries of a map, else `nil`.
    public var mapValue: CBORMap? {
        if case .map(let m) = self { return m }
        return nil
    }

    /// The value of a boolean, else `nil`.
    public var boolValue: Bool? {
        if case .boolean(let b) = self { return b }
        return nil
    }

    /// `true` for the simple value null.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Makes an integer item from a signed value.
    public init(_ value: Int64) {
        self = value >= 0 ? .unsignedInt(UInt64(value)) : .negativeInt(UInt64(-(value + 1)))
    }

    /// Makes an integer item from a signed value.
    public init(_ value: Int) {
        self.init(Int64(value))
    }

    /// Wraps already-encoded CBOR bytes as an embedded data item, `#6.24(bstr)`.
    public static func encodedCBOR(_ bytes: [UInt8]) -> CBOR {
        .tagged(Tag.encodedCBOR, .byteString(bytes))
    }

    /// Wraps already-encoded CBOR bytes (a view of a received message, for example) as an
    /// embedded data item, `#6.24(bstr)`.
    public static func encodedCBOR(_ bytes: CBORBytes) -> CBOR {
        .tagged(Tag.encodedCBOR, .byteString(bytes))
    }

    /// A short name of the item's kind, for error messages ("map", "text string", ...).
    public var kindName: String {
        switch self {
        case .unsignedInt: return "unsigned integer"
        case .negativeInt: return "negative integer"
        case .byteString: return "byte string"
        case .textString: return "text string"
        case .array: return "array"
        case .map: return "map"
        case .tagged(let tag, _): return "tag \(tag)"
        case .simple(let v): return "simple(\(v))"
        case .boolean: return "boolean"
        case .null: return "null"
        case .undefined: return "undefined"
        case .float: return "floating-point number"
        }
    }
}

extension CBOR: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) {
        self.init(value)
    }
}

extension CBOR: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .textString(value)
    }
}

extension CBOR: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) {
        self = .boolean(value)
    }
}

extension CBOR: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension CBOR: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: CBOR...) {
        self = .array(elements)
    }
}

extension CBOR: ExpressibleByDictionaryLiteral {
    /// A map literal keeps the order in which its entries are written.
    public init(dictionaryLiteral elements: (CBOR, CBOR)...) {
        self = .map(CBORMap(elements.map { CBORMap.Entry(key: $0.0, value: $0.1) }))
    }
}
