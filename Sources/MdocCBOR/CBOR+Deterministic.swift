extension CBOR {
    /// This item with the entries of every map, at every level, sorted by the bytewise
    /// lexicographic order of their encoded keys: the key order of RFC 8949 section 4.2.1 (core
    /// deterministic encoding), which ISO/IEC 18013-5 requires for structures it signs and MACs.
    /// Encoding the result with ``encoded()`` gives the deterministic encoding. Embedded items
    /// (tag 24) are left as they are: their bytes are already fixed.
    public func sortedDeterministically() -> CBOR {
        switch self {
        case .array(let items):
            return .array(items.map { $0.sortedDeterministically() })
        case .map(let map):
            let keyed = map.entries.map { entry in
                let key = entry.key.sortedDeterministically()
                return (encodedKey: key.encoded(), entry: CBORMap.Entry(key: key, value: entry.value.sortedDeterministically()))
            }
            let sorted = keyed.sorted { $0.encodedKey.lexicographicallyPrecedes($1.encodedKey) }
            return .map(CBORMap(sorted.map(\.entry)))
        case .tagged(let tag, let content):
            return .tagged(tag, content.sortedDeterministically())
        default:
            return self
        }
    }
}
