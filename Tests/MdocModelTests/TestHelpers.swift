import MdocCBOR
import MdocTestSupport
import Testing

/// The bytes of an Annex D vector.
func annexD(_ name: String) -> [UInt8] {
    Vectors.annexD(name)
}

/// Runs `body`, which must throw a ``CBORError`` with `code` located at `path` (as printed).
func expectCBORError(
    _ code: CBORError.Code,
    at path: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(CBORError) -> Void
) {
    do {
        try body()
        Issue.record("expected \(code) at \(path), but nothing was thrown", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.path.description == path, "\(error)", sourceLocation: sourceLocation)
    }
}

/// `cbor` with the map entry `key` removed from the map at the top level.
func removing(_ key: CBOR, from cbor: CBOR) -> CBOR {
    guard case .map(var map) = cbor else { return cbor }
    map[key] = nil
    return .map(map)
}

/// `cbor` with the map entry `key` at the top level replaced by `value`.
func replacing(_ key: CBOR, with value: CBOR, in cbor: CBOR) -> CBOR {
    guard case .map(var map) = cbor else { return cbor }
    map[key] = value
    return .map(map)
}
