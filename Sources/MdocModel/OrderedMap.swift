/// A map whose entries keep the order they were received or built in, with unique keys.
///
/// ISO/IEC 18013-5 structures nest maps such as `{NameSpace => {DataElementIdentifier => ...}}`
/// (8.3.2.1.2.1 ItemsRequest, 9.1.2.4 ValueDigests, 8.3.2.1.2.2 Errors). Requests are shown to a
/// holder and re-encoded in the order the reader wrote them, so the model keeps that order instead
/// of using `Dictionary`. Lookup by key is a linear scan: these maps hold a few dozen entries.
public struct OrderedMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The entries, in order; keys are unique.
    public internal(set) var elements: [(key: Key, value: Value)]

    /// An empty map.
    public init() {
        elements = []
    }

    /// A map of `elements`, in order; a later entry with an equal key replaces the earlier value.
    public init(_ elements: [(key: Key, value: Value)]) {
        self.elements = []
        for element in elements {
            self[element.key] = element.value
        }
    }

    /// The number of entries.
    public var count: Int { elements.count }

    /// `true` when the map has no entries.
    public var isEmpty: Bool { elements.isEmpty }

    /// The keys, in order.
    public var keys: [Key] { elements.map(\.key) }

    /// The values, in order.
    public var values: [Value] { elements.map(\.value) }

    /// The value for `key`, or `nil`. Setting replaces the value in place or appends a new entry;
    /// setting `nil` removes the entry.
    public subscript(key: Key) -> Value? {
        get {
            for element in elements where element.key == key {
                return element.value
            }
            return nil
        }
        set {
            if let index = elements.firstIndex(where: { $0.key == key }) {
                if let newValue {
                    elements[index].value = newValue
                } else {
                    elements.remove(at: index)
                }
            } else if let newValue {
                elements.append((key: key, value: newValue))
            }
        }
    }
}

extension OrderedMap: Sequence {
    public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> {
        elements.makeIterator()
    }
}

extension OrderedMap: ExpressibleByDictionaryLiteral {
    /// A map literal keeps the order its entries are written in.
    public init(dictionaryLiteral elements: (Key, Value)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension OrderedMap: Equatable where Value: Equatable {
    /// Equal when both hold equal entries in the same order.
    public static func == (lhs: OrderedMap, rhs: OrderedMap) -> Bool {
        lhs.elements.count == rhs.elements.count
            && zip(lhs.elements, rhs.elements).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension OrderedMap: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(elements.count)
        for element in elements {
            hasher.combine(element.key)
            hasher.combine(element.value)
        }
    }
}
