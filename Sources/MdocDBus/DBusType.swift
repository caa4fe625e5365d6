/// One complete type of the D-Bus type system, parsed from a signature (D-Bus Specification,
/// "Type System" and "Valid Signatures").
package indirect enum DBusType: Sendable, Hashable {
    /// A basic type: one of `ybnqiuxtdhsog`.
    case basic(UInt8)
    /// `v`
    case variant
    /// `aX`
    case array(DBusType)
    /// `a{KV}`: a key of a basic type, a value of any type.
    case dictionary(key: DBusType, value: DBusType)
    /// `(…)`
    case structure([DBusType])

    /// The longest signature (Specification: "Valid Signatures").
    package static let maximumSignatureLength = 255
    /// The deepest nesting of arrays, and of structures (dictionary entries count as both).
    package static let maximumNesting = 32

    /// The type codes of the basic types.
    package static let basicCodes: Set<UInt8> = Set("ybnqiuxtdhsog".utf8)

    /// The boundary the type's values are aligned to in a message (Specification: "Marshaling").
    package var alignment: Int {
        switch self {
        case .basic(let code):
            switch code {
            case UInt8(ascii: "y"), UInt8(ascii: "g"): return 1
            case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
            case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): return 8
            default: return 4
            }
        case .variant: return 1
        case .array: return 4
        case .dictionary, .structure: return 8
        }
    }

    /// The type's signature.
    package var signature: String {
        switch self {
        case .basic(let code): return String(UnicodeScalar(code))
        case .variant: return "v"
        case .array(let element): return "a" + element.signature
        case .dictionary(let key, let value): return "a{" + key.signature + value.signature + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// The complete types of `signature`, in order. Throws `InvalidSignature` for a signature
    /// that is not valid: too long, an unknown code, unbalanced brackets, a dictionary entry
    /// outside an array or with a key that is not basic, an empty structure, nesting too deep.
    package static func parse(_ signature: String) throws(DBusError) -> [DBusType] {
        let bytes = Array(signature.utf8)
        guard bytes.count <= maximumSignatureLength else {
            throw DBusError.invalidSignature(signature, "longer than \(maximumSignatureLength) characters")
        }
        var index = 0
        var types: [DBusType] = []
        while index < bytes.count {
            types.append(try parseOne(bytes, &index, arrays: 0, structures: 0, signature: signature))
        }
        return types
    }

    /// The single complete type of `signature`; throws unless it holds exactly one.
    package static func parseSingle(_ signature: String) throws(DBusError) -> DBusType {
        let types = try parse(signature)
        guard types.count == 1 else {
            throw DBusError.invalidSignature(signature, "not a single complete type")
        }
        return types[0]
    }

    private static func parseOne(_ bytes: [UInt8], _ index: inout Int, arrays: Int, structures: Int,
                                 signature: String) throws(DBusError) -> DBusType {
        guard index < bytes.count else { throw DBusError.invalidSignature(signature, "ends inside a type") }
        let code = bytes[index]
        index += 1
        if basicCodes.contains(code) { return .basic(code) }
        switch code {
        case UInt8(ascii: "v"):
            return .variant
        case UInt8(ascii: "a"):
            guard arrays < maximumNesting else { throw DBusError.invalidSignature(signature, "arrays nested too deep") }
            if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                index += 1
                guard structures < maximumNesting else {
                    throw DBusError.invalidSignature(signature, "structures nested too deep")
                }
                let key = try parseOne(bytes, &index, arrays: arrays + 1, structures: structures + 1, signature: signature)
                guard case .basic = key else {
                    throw DBusError.invalidSignature(signature, "a dictionary key is not a basic type")
                }
                let value = try parseOne(bytes, &index, arrays: arrays + 1, structures: structures + 1, signature: signature)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
                    throw DBusError.invalidSignature(signature, "a dictionary entry holds other than one key and one value")
                }
                index += 1
                return .dictionary(key: key, value: value)
            }
            return .array(try parseOne(bytes, &index, arrays: arrays + 1, structures: structures, signature: signature))
        case UInt8(ascii: "("):
            guard structures < maximumNesting else {
                throw DBusError.invalidSignature(signature, "structures nested too deep")
            }
            var fields: [DBusType] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: ")") {
                fields.append(try parseOne(bytes, &index, arrays: arrays, structures: structures + 1, signature: signature))
            }
            guard index < bytes.count else { throw DBusError.invalidSignature(signature, "a structure is not closed") }
            guard !fields.isEmpty else { throw DBusError.invalidSignature(signature, "an empty structure") }
            index += 1
            return .structure(fields)
        default:
            throw DBusError.invalidSignature(signature, "the type code \"\(Character(UnicodeScalar(code)))\" is not one of D-Bus")
        }
    }
}
