/// Typed access to items while interpreting a decoded message: each accessor either returns the
/// expected content or throws a ``CBORError`` naming the expected type, what was found and where.
///
/// The path is an autoclosure, evaluated only for an error: interpreting a valid message builds
/// no path for the items it reads this way.
extension CBOR {
    /// The entries of a map.
    public func map(at path: @autoclosure () -> CBORPath) throws(CBORError) -> CBORMap {
        guard case .map(let m) = self else { throw mismatch("a map", at: path()) }
        return m
    }

    /// The elements of an array.
    public func array(at path: @autoclosure () -> CBORPath) throws(CBORError) -> [CBOR] {
        guard case .array(let a) = self else { throw mismatch("an array", at: path()) }
        return a
    }

    /// The content of a text string.
    public func text(at path: @autoclosure () -> CBORPath) throws(CBORError) -> String {
        guard case .textString(let s) = self else { throw mismatch("a text string", at: path()) }
        return s
    }

    /// The content of a byte string, as an array of its own.
    public func bytes(at path: @autoclosure () -> CBORPath) throws(CBORError) -> [UInt8] {
        Array(try byteString(at: path()))
    }

    /// The content of a byte string, as it was decoded: a view of the input, not a copy.
    public func byteString(at path: @autoclosure () -> CBORPath) throws(CBORError) -> CBORBytes {
        guard case .byteString(let b) = self else { throw mismatch("a byte string", at: path()) }
        return b
    }

    /// The value of a boolean (simple value 20 or 21).
    public func bool(at path: @autoclosure () -> CBORPath) throws(CBORError) -> Bool {
        guard case .boolean(let b) = self else { throw mismatch("a boolean", at: path()) }
        return b
    }

    /// The value of an unsigned integer (major type 0).
    public func uint(at path: @autoclosure () -> CBORPath) throws(CBORError) -> UInt64 {
        guard case .unsignedInt(let n) = self else { throw mismatch("an unsigned integer", at: path()) }
        return n
    }

    /// An integer of either sign that fits `Int64`.
    public func int(at path: @autoclosure () -> CBORPath) throws(CBORError) -> Int64 {
        switch self {
        case .unsignedInt, .negativeInt:
            guard let value = int64Value else {
                throw CBORError(.invalidValue, "integer out of the 64-bit signed range", path: path())
            }
            return value
        default:
            throw mismatch("an integer", at: path())
        }
    }

    /// The content of `#6.<tag>(...)`.
    public func tagContent(_ tag: UInt64, at path: @autoclosure () -> CBORPath) throws(CBORError) -> CBOR {
        guard case .tagged(let found, let content) = self, found == tag else {
            throw mismatch("tag \(tag)", at: path())
        }
        return content
    }

    /// The exact bytes of an embedded data item, `#6.24(bstr)`, as received: a view of the
    /// input.
    public func embeddedBytes(at path: @autoclosure () -> CBORPath) throws(CBORError) -> CBORBytes {
        try tagContent(Tag.encodedCBOR, at: path()).byteString(at: path().appending(.tagContent(Tag.encodedCBOR)))
    }

    /// A `CBORError.Code.unexpectedType` error for this item.
    public func mismatch(_ expected: String, at path: CBORPath) -> CBORError {
        CBORError(.unexpectedType, "expected \(expected), found \(kindName)", path: path)
    }
}

extension CBORMap {
    /// The value for a text key, or a `CBORError.Code.missingValue` error naming it.
    public func required(_ key: String, at path: @autoclosure () -> CBORPath) throws(CBORError) -> CBOR {
        guard let value = self[text: key] else {
            throw CBORError(.missingValue, "missing \"\(key)\"", path: path())
        }
        return value
    }

    /// The value for an integer key, or a `CBORError.Code.missingValue` error naming it.
    public func required(int key: Int64, at path: @autoclosure () -> CBORPath) throws(CBORError) -> CBOR {
        guard let value = self[int: key] else {
            throw CBORError(.missingValue, "missing key \(key)", path: path())
        }
        return value
    }
}
