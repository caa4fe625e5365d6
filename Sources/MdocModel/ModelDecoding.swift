import MdocCBOR

// Shared steps for interpreting ISO/IEC 18013-5 maps, used by every structure in this module.

extension CBORMap {
    /// The entries whose keys are not among `known` text keys, in received order: the keys a
    /// structure does not model, kept so that re-encoding never drops them.
    func entries(excludingText known: [String]) -> CBORMap {
        let isUnknown = { (entry: CBORMap.Entry) -> Bool in
            guard case .textString(let key) = entry.key else { return true }
            return !known.contains(key)
        }
        // Most maps hold only the keys their structure models: then nothing is copied.
        guard entries.contains(where: isUnknown) else { return CBORMap() }
        return CBORMap(entries.filter(isUnknown))
    }

    /// The entries whose keys are not among `known` integer keys, in received order.
    func entries(excludingInt known: [Int64]) -> CBORMap {
        CBORMap(entries.filter { entry in
            guard let key = entry.key.int64Value else { return true }
            return !known.contains(key)
        })
    }

    /// Appends every entry of `other` (keys a structure kept without modelling them).
    mutating func append(contentsOf other: CBORMap) {
        entries.append(contentsOf: other.entries)
    }
}

extension OrderedMap where Key == String {
    /// Interprets a CBOR map whose keys are text strings (name spaces, data element identifiers,
    /// doc types), keeping the order and rejecting a key that appears twice; each value is read by
    /// `value` at its own path.
    init(
        textKeyed cbor: CBOR,
        at path: CBORPath,
        value: (CBOR, CBORPath) throws(CBORError) -> Value
    ) throws(CBORError) {
        var result = OrderedMap<String, Value>()
        for (index, entry) in try cbor.map(at: path).entries.enumerated() {
            guard case .textString(let key) = entry.key else {
                throw entry.key.mismatch("a text-string key", at: path.appending(index: index))
            }
            let valuePath = path.appending(key: key)
            guard result.position(of: key) == nil else {
                throw CBORError(.duplicateMapKey, "\"\(key)\" appears twice", path: valuePath)
            }
            result.appendNew(key: key, value: try value(entry.value, valuePath))
        }
        self = result
    }

    /// The CBOR map of this map's entries, in order, with each value written by `value`.
    func cbor(value: (Value) -> CBOR) -> CBOR {
        .map(CBORMap(elements.map { CBORMap.Entry(key: .textString($0.key), value: value($0.value)) }))
    }
}

extension OrderedMap where Key == UInt64 {
    /// Interprets a CBOR map whose keys are unsigned integers (digest IDs), keeping the order and
    /// rejecting a key that appears twice. `value` reads each value and is given its path to
    /// build should it fail: an MSO holds one entry per element.
    init(
        uintKeyed cbor: CBOR,
        at path: CBORPath,
        value: (CBOR, () -> CBORPath) throws(CBORError) -> Value
    ) throws(CBORError) {
        var result = OrderedMap<UInt64, Value>()
        for (index, entry) in try cbor.map(at: path).entries.enumerated() {
            let key = try entry.key.uint(at: path.appending(index: index))
            let valuePath = { key <= UInt64(Int64.max) ? path.appending(intKey: Int64(key)) : path.appending(index: index) }
            guard result.position(of: key) == nil else {
                throw CBORError(.duplicateMapKey, "key \(key) appears twice", path: valuePath())
            }
            result.appendNew(key: key, value: try value(entry.value, valuePath))
        }
        self = result
    }

    /// The CBOR map of this map's entries, in order, with each value written by `value`.
    func cbor(value: (Value) -> CBOR) -> CBOR {
        .map(CBORMap(elements.map { CBORMap.Entry(key: .unsignedInt($0.key), value: value($0.value)) }))
    }
}

extension CBOR {
    /// The elements of an array, each read by `element` at its own index path.
    func array<Element>(
        at path: CBORPath,
        element: (CBOR, CBORPath) throws(CBORError) -> Element
    ) throws(CBORError) -> [Element] {
        var result: [Element] = []
        for (index, item) in try array(at: path).enumerated() {
            result.append(try element(item, path.appending(index: index)))
        }
        return result
    }

    /// A non-empty array read by `element` (CDDL `[+ X]`).
    func nonEmptyArray<Element>(
        at path: CBORPath,
        element: (CBOR, CBORPath) throws(CBORError) -> Element
    ) throws(CBORError) -> [Element] {
        let result = try array(at: path, element: element)
        guard !result.isEmpty else {
            throw CBORError(.invalidValue, "expected at least one element, found an empty array", path: path)
        }
        return result
    }
}
