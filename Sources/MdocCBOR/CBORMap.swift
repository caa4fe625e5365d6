/// The entries of a CBOR map in the order they were received or built (RFC 8949 section 3.1,
/// major type 5).
///
/// Order matters twice in ISO/IEC 18013-5: messages are written in the order their CDDL declares
/// (as Annex D does), and a received map must be shown and re-encoded as it arrived. Lookup is a
/// linear scan, which is the fast choice for the few keys an 18013-5 structure's map holds; a
/// structure looks up a fixed set of keys, so interpreting a map stays linear in its size, and
/// the model keeps the maps keyed by peer data (name spaces, identifiers, digest IDs) as
/// `OrderedMap`, which indexes large maps. The decoder rejects duplicate keys, so a decoded map
/// never holds two entries with equal keys.
public struct CBORMap: Sendable, Hashable {
    /// One key/value pair.
    public struct Entry: Sendable, Hashable {
        /// The key.
        public var key: CBOR
        /// The value.
        public var value: CBOR

        /// The pair `key`: `value`.
        public init(key: CBOR, value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// The entries, in order.
    public var entries: [Entry]

    /// A map of `entries`, in that order; the caller keeps keys distinct.
    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// The number of entries.
    public var count: Int { entries.count }

    /// `true` when the map has no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value for `key`, or `nil` when absent. Setting replaces an existing entry in place or
    /// appends a new one; setting `nil` removes the entry.
    public subscript(key: CBOR) -> CBOR? {
        get {
            for entry in entries where entry.key == key {
                return entry.value
            }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue {
                    entries[index].value = newValue
                } else {
                    entries.remove(at: index)
                }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// The value for a text-string key. Reading compares the key with each text key in place.
    public subscript(text key: String) -> CBOR? {
        get {
            for index in entries.indices {
                if case .textString(let candidate) = entries[index].key, candidate == key {
                    return entries[index].value
                }
            }
            return nil
        }
        set { self[.textString(key)] = newValue }
    }

    /// The value for an integer key. Reading compares the key with each integer key in place.
    public subscript(int key: Int64) -> CBOR? {
        get {
            let wanted = CBOR(key)
            for index in entries.indices {
                switch (entries[index].key, wanted) {
                case (.unsignedInt(let a), .unsignedInt(let b)) where a == b, (.negativeInt(let a), .negativeInt(let b)) where a == b:
                    return entries[index].value
                default:
                    continue
                }
            }
            return nil
        }
        set { self[CBOR(key)] = newValue }
    }

    /// Appends an entry without checking for an existing key (for builders that know the keys
    /// are distinct).
    public mutating func append(_ key: CBOR, _ value: CBOR) {
        entries.append(Entry(key: key, value: value))
    }
}
