/// A map whose entries keep the order they were received or built in, with unique keys.
///
/// ISO/IEC 18013-5 structures nest maps such as `{NameSpace => {DataElementIdentifier => ...}}`
/// (8.3.2.1.2.1 ItemsRequest, 9.1.2.4 ValueDigests, 8.3.2.1.2.2 Errors). Requests are shown to a
/// holder and re-encoded in the order the reader wrote them, so the model keeps that order instead
/// of using `Dictionary`.
///
/// Lookup by key costs O(1) whatever the size: up to ``linearSearchLimit`` entries the keys are
/// compared in place, which is the fast choice for the few keys most of these maps hold; a larger
/// map (the value digests of a document with thousands of elements) keeps a hash index of its
/// keys' positions, so looking up every element of a response stays linear in the elements. The
/// index holds positions only, 4 bytes a slot, and finds the keys in the entries themselves.
/// Lookups and updates are inlinable, so they are specialised for the key and value types at the
/// call site.
public struct OrderedMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// 8 entries: a map of up to this many entries is searched by comparing keys in order; a
    /// larger one keeps a hash index of its keys.
    public static var linearSearchLimit: Int { 8 }

    /// The entries, in order.
    @usableFromInline
    var storage: [(key: Key, value: Value)]
    /// Each key's position in ``storage``, once the map holds more than ``linearSearchLimit``
    /// entries: a hash table with linear probing (as `Dictionary`'s, and like it seeded per
    /// process by `Hasher`, so that a peer cannot choose keys that collide), whose slots hold a
    /// position plus one, 0 for an empty slot. A power of two of slots, at most three quarters of
    /// them used. The keys stay in ``storage`` only: 4 bytes a slot instead of the 16 of a
    /// `[Key: Int]` of integer keys, which for the value digests of 4,000 elements is 32 KiB
    /// instead of 129 KiB.
    @usableFromInline
    var index: [UInt32]?

    /// An empty map.
    @inlinable
    public init() {
        storage = []
        index = nil
    }

    /// A map of `elements`, in order; a later entry with an equal key replaces the earlier value.
    @inlinable
    public init(_ elements: [(key: Key, value: Value)]) {
        self.init()
        for element in elements {
            self[element.key] = element.value
        }
    }

    /// The entries, in order; keys are unique.
    @inlinable
    public var elements: [(key: Key, value: Value)] { storage }

    /// The number of entries.
    @inlinable
    public var count: Int { storage.count }

    /// `true` when the map has no entries.
    @inlinable
    public var isEmpty: Bool { storage.isEmpty }

    /// The keys, in order.
    @inlinable
    public var keys: [Key] { storage.map(\.key) }

    /// The values, in order.
    @inlinable
    public var values: [Value] { storage.map(\.value) }

    /// The position of `key` among the entries, or `nil`.
    @inlinable
    package func position(of key: Key) -> Int? {
        if let index {
            return Self.probe(for: key, in: index, of: storage).position
        }
        return storage.firstIndex { $0.key == key }
    }

    /// The slot of `index` that holds `key`'s position, with that position, or the empty slot
    /// where it would go, with `nil`.
    @inlinable
    static func probe(for key: Key, in index: [UInt32], of storage: [(key: Key, value: Value)]) -> (slot: Int, position: Int?) {
        let mask = index.count - 1
        var slot = key.hashValue & mask
        while true {
            let entry = index[slot]
            if entry == 0 { return (slot, nil) }
            let position = Int(entry) - 1
            if storage[position].key == key { return (slot, position) }
            slot = (slot + 1) & mask
        }
    }

    /// The number of slots of an index for `count` entries: a power of two, at least 16, of
    /// which `count` fill at most three quarters.
    @inlinable
    static func slotCount(for count: Int) -> Int {
        var slots = 16
        while slots / 4 * 3 < count { slots *= 2 }
        return slots
    }

    /// Builds the index afresh, with room for `capacity` entries.
    @inlinable
    mutating func rebuildIndex(capacity: Int) {
        var slots = [UInt32](repeating: 0, count: Self.slotCount(for: Swift.max(capacity, storage.count)))
        let mask = slots.count - 1
        for (position, entry) in storage.enumerated() {
            var slot = entry.key.hashValue & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(position + 1)
        }
        index = slots
    }

    /// The value for `key`, or `nil`. Setting replaces the value in place or appends a new entry;
    /// setting `nil` removes the entry (which costs O(n)).
    @inlinable
    public subscript(key: Key) -> Value? {
        get {
            guard let position = position(of: key) else { return nil }
            return storage[position].value
        }
        set {
            if let position = position(of: key) {
                if let newValue {
                    storage[position].value = newValue
                } else {
                    storage.remove(at: position)
                    index = nil
                    indexIfLarge()
                }
            } else if let newValue {
                appendNew(key: key, value: newValue)
            }
        }
    }

    /// The value for `key`, or `defaultValue()` when absent. Changing it changes the entry in
    /// place, added at the end if it was absent, as `Dictionary`'s subscript of the same form
    /// does; a map of maps is then updated without copying the inner map.
    @inlinable
    public subscript(key: Key, default defaultValue: @autoclosure () -> Value) -> Value {
        get {
            self[key] ?? defaultValue()
        }
        _modify {
            let position: Int
            if let found = self.position(of: key) {
                position = found
            } else {
                appendNew(key: key, value: defaultValue())
                position = storage.count - 1
            }
            yield &storage[position].value
        }
    }

    /// Appends an entry whose key the map does not hold yet (the caller has checked).
    @inlinable
    mutating func appendNew(key: Key, value: Value) {
        guard index != nil else {
            storage.append((key: key, value: value))
            indexIfLarge()
            return
        }
        // No binding of the index outlives the probe: the index stays uniquely referenced and is
        // changed in place.
        append(key: key, value: value, emptySlot: Self.probe(for: key, in: index!, of: storage).slot)
    }

    /// Appends an entry whose key the index does not hold, recording its position in `slot`, the
    /// empty slot where a probe for the key ended; the index grows first if it is full.
    @inlinable
    mutating func append(key: Key, value: Value, emptySlot slot: Int) {
        storage.append((key: key, value: value))
        if Self.slotCount(for: storage.count) > index!.count {
            rebuildIndex(capacity: storage.count)
        } else {
            index![slot] = UInt32(storage.count)
        }
    }

    /// Appends an entry when the map does not hold `key` yet, looking the key up once in an
    /// indexed map; `false`, with the map unchanged, when it does.
    @inlinable
    mutating func appendIfNew(key: Key, value: Value) -> Bool {
        guard index != nil else {
            guard position(of: key) == nil else { return false }
            appendNew(key: key, value: value)
            return true
        }
        let probe = Self.probe(for: key, in: index!, of: storage)
        guard probe.position == nil else { return false }
        append(key: key, value: value, emptySlot: probe.slot)
        return true
    }

    /// Makes room for `count` entries in all, indexed at once when that is more than
    /// ``linearSearchLimit``, so that appending them neither copies the entries nor rebuilds the
    /// index as the map grows.
    @inlinable
    mutating func reserveCapacity(_ count: Int) {
        storage.reserveCapacity(count)
        guard count > Self.linearSearchLimit, (index?.count ?? 0) < Self.slotCount(for: count) else { return }
        rebuildIndex(capacity: count)
    }

    /// Builds the index when the map has outgrown ``linearSearchLimit``.
    @inlinable
    mutating func indexIfLarge() {
        guard index == nil, storage.count > Self.linearSearchLimit else { return }
        rebuildIndex(capacity: storage.count)
    }
}

extension OrderedMap: Sequence {
    /// The entries, in order.
    @inlinable
    public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> {
        storage.makeIterator()
    }

    /// The number of entries.
    @inlinable
    public var underestimatedCount: Int { storage.count }
}

extension OrderedMap: ExpressibleByDictionaryLiteral {
    /// A map literal keeps the order its entries are written in.
    @inlinable
    public init(dictionaryLiteral elements: (Key, Value)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension OrderedMap: Equatable where Value: Equatable {
    /// Equal when both hold equal entries in the same order.
    @inlinable
    public static func == (lhs: OrderedMap, rhs: OrderedMap) -> Bool {
        lhs.storage.count == rhs.storage.count
            && zip(lhs.storage, rhs.storage).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension OrderedMap: Hashable where Value: Hashable {
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.count)
        for element in storage {
            hasher.combine(element.key)
            hasher.combine(element.value)
        }
    }
}
