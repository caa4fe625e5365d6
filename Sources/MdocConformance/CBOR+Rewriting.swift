import MdocCBOR

/// Rewriting a message the runner built itself, to depart from ISO/IEC 18013-5 on purpose: a
/// value with a change made deep inside it, the rest as it was. Only for messages the runner
/// made; what a peer sent is never re-encoded (docs/architecture.md, byte-exact CBOR).
extension CBOR {
    /// This map with `change` made to the value under the text key `key`, or without that entry
    /// where `change` gives `nil`; a map without the key, or any other value, unchanged.
    func changingEntry(_ key: String, _ change: (CBOR) -> CBOR?) -> CBOR {
        guard case .map(var map) = self, let value = map[.textString(key)] else { return self }
        map[.textString(key)] = change(value)
        return .map(map)
    }

    /// This array with `change` made to each element, or this map with `change` made to each
    /// value; any other value unchanged.
    func changingEach(_ change: (CBOR) -> CBOR) -> CBOR {
        switch self {
        case .array(let items):
            return .array(items.map(change))
        case .map(var map):
            map.entries = map.entries.map { CBORMap.Entry(key: $0.key, value: change($0.value)) }
            return .map(map)
        default:
            return self
        }
    }
}
