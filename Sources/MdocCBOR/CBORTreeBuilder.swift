/// Builds ``CBOR`` values from the stream of events libcbor reports, without recursion: open
/// containers sit on an explicit stack whose height ``CBORLimits/maximumDepth`` bounds.
///
/// It enforces the structural rules of RFC 8949 section 3 that a head-by-head reader cannot see:
/// counts bounded by the bytes that remain, chunk types of indefinite-length strings (3.2.3),
/// break codes (3.2.1), UTF-8 text (3.1, major type 3), duplicate map keys (5.6), and the depth
/// and item-count limits.
struct CBORTreeBuilder {
    private struct Frame {
        enum Kind {
            case array, map, tag, byteChunks, textChunks
        }

        let kind: Kind
        /// The byte offset of the container's head.
        let offset: Int
        /// The declared number of elements (arrays) or entries (maps); `nil` for indefinite length.
        let expected: Int?
        var tag: UInt64 = 0
        var items: [CBOR] = []
        var entries: [CBORMap.Entry] = []
        /// The keys of `entries`, built only once a map outgrows
        /// ``CBORDecoder/linearDuplicateKeyScanLimit``.
        var keys: Set<CBOR>?
        var pendingKey: CBOR?
        /// The joined chunks of an indefinite-length byte string.
        var chunks: [UInt8] = []
        /// The joined chunks of an indefinite-length text string, each validated on arrival.
        var text = ""

        /// Records `key` as a key of this map; `false` when an earlier entry has it (RFC 8949
        /// section 5.6). Small maps compare against their entries, which costs less than hashing
        /// every key; a larger map hashes its keys into a set once, so each further key costs
        /// O(1) and a hostile map stays linear.
        mutating func insertKey(_ key: CBOR) -> Bool {
            if keys == nil, entries.count < CBORDecoder.linearDuplicateKeyScanLimit {
                for index in entries.indices where Self.isSameKey(entries[index].key, key) {
                    return false
                }
                return true
            }
            // Taken out of the frame so that the set is uniquely referenced and grows in place;
            // sized once for the entries the map declares (at most what the item limit allows).
            var seen = keys.take() ?? {
                var set = Set<CBOR>(minimumCapacity: max(entries.count, reservedEntries))
                for entry in entries { set.insert(entry.key) }
                return set
            }()
            let inserted = seen.insert(key).inserted
            keys = seen
            return inserted
        }

        /// The entries reserved for a definite-length map, to size its key set at once.
        var reservedEntries = 0

        /// `a == b`, with the key kinds of ISO/IEC 18013-5 (text, integers) compared directly.
        private static func isSameKey(_ a: CBOR, _ b: CBOR) -> Bool {
            switch (a, b) {
            case (.textString(let x), .textString(let y)): return x == y
            case (.unsignedInt(let x), .unsignedInt(let y)): return x == y
            case (.negativeInt(let x), .negativeInt(let y)): return x == y
            case (.textString, _), (.unsignedInt, _), (.negativeInt, _): return false
            default: return a == b
            }
        }
    }

    private let limits: CBORLimits
    /// The array the input lies in, which decoded byte strings are views of...
    private let storage: [UInt8]
    /// ...and where in it the input starts: event offsets count from there.
    private let base: Int
    private var stack: [Frame] = []
    /// The items consumed so far.
    private(set) var itemCount = 0

    /// A builder for the input starting at `base` in `storage`.
    init(limits: CBORLimits, storage: [UInt8], base: Int) {
        self.limits = limits
        self.storage = storage
        self.base = base
    }

    /// The kind of the innermost open container, or `nil` at the top level.
    private var openKind: Frame.Kind? {
        stack.isEmpty ? nil : stack[stack.count - 1].kind
    }

    /// Takes the event whose head starts at `offset`; `remaining` is the number of input bytes
    /// after the event. Returns the top-level item once it is complete.
    mutating func consume(_ event: CBORStreamEvent, at offset: Int, remaining: Int) throws(CBORError) -> CBOR? {
        if case .breakCode = event {
            return try closeIndefinite(at: offset)
        }
        itemCount += 1
        guard itemCount <= limits.maximumItemCount else {
            throw error(.itemCountLimitExceeded, "more than \(limits.maximumItemCount) data items", offset: offset)
        }
        let open = openKind
        if let open, open == .byteChunks || open == .textChunks {
            try appendChunk(event, to: open, at: offset)
            return nil
        }
        switch event {
        case .unsignedInt(let n): return try complete(.unsignedInt(n), at: offset)
        case .negativeInt(let n): return try complete(.negativeInt(n), at: offset)
        case .byteString(let range):
            var bytes = CBORBytes(storage: storage, range: (base + range.lowerBound)..<(base + range.upperBound))
            // The content of #6.24(bstr): remember where the tag head began, so that the whole
            // item can be taken from the input as received (EmbeddedCBOR.taggedBytes). An empty
            // content, which the stream reader does not place in the input, encodes no data item.
            if open == .tag, stack[stack.count - 1].tag == CBOR.Tag.encodedCBOR, !range.isEmpty {
                bytes = bytes.embedded(at: base + stack[stack.count - 1].offset)
            }
            return try complete(.byteString(bytes), at: offset)
        case .textString(let text):
            guard let text else {
                throw error(.invalidUTF8, "text string is not valid UTF-8", offset: offset)
            }
            return try complete(.textString(text), at: offset)
        case .byteStringStart:
            try push(Frame(kind: .byteChunks, offset: offset, expected: nil))
        case .textStringStart:
            try push(Frame(kind: .textChunks, offset: offset, expected: nil))
        case .array(let count):
            guard count <= UInt64(remaining) else {
                throw error(.declaredLengthExceedsInput, "array declares \(count) elements but only \(remaining) bytes follow", offset: offset)
            }
            if count == 0 { return try complete(.array([]), at: offset) }
            var frame = Frame(kind: .array, offset: offset, expected: Int(count))
            frame.items.reserveCapacity(reservation(Int(count)))
            try push(frame)
        case .arrayStart:
            try push(Frame(kind: .array, offset: offset, expected: nil))
        case .map(let count):
            guard count <= UInt64(remaining / 2) else {
                throw error(.declaredLengthExceedsInput, "map declares \(count) entries but only \(remaining) bytes follow", offset: offset)
            }
            if count == 0 { return try complete(.map(CBORMap()), at: offset) }
            var frame = Frame(kind: .map, offset: offset, expected: Int(count))
            frame.reservedEntries = reservation(Int(count))
            frame.entries.reserveCapacity(frame.reservedEntries)
            try push(frame)
        case .mapStart:
            try push(Frame(kind: .map, offset: offset, expected: nil))
        case .tag(let tag):
            var frame = Frame(kind: .tag, offset: offset, expected: nil)
            frame.tag = tag
            try push(frame)
        case .float(let value): return try complete(.float(value), at: offset)
        case .boolean(let value): return try complete(.boolean(value), at: offset)
        case .null: return try complete(.null, at: offset)
        case .undefined: return try complete(.undefined, at: offset)
        case .simple(let value): return try complete(.simple(value), at: offset)
        case .breakCode: break  // handled above
        }
        return nil
    }

    /// The location of the item the builder expects next, for errors found while reading it.
    var path: CBORPath {
        var components: [CBORPath.Component] = []
        for frame in stack {
            switch frame.kind {
            case .array: components.append(.index(frame.items.count))
            case .map:
                if let key = frame.pendingKey {
                    components.append(Self.component(forKey: key, index: frame.entries.count))
                } else {
                    components.append(.index(frame.entries.count))
                }
            case .tag: components.append(.tagContent(frame.tag))
            case .byteChunks, .textChunks: break
            }
        }
        return CBORPath(components: components)
    }

    /// An error located at the item the builder expects next.
    func error(_ code: CBORError.Code, _ reason: String, offset: Int) -> CBORError {
        CBORError(code, reason, path: path, offset: offset)
    }

    /// Capacity to reserve for a declared count: never more than the items the limit still allows.
    private func reservation(_ count: Int) -> Int {
        min(count, max(0, limits.maximumItemCount - itemCount))
    }

    private mutating func push(_ frame: Frame) throws(CBORError) {
        guard stack.count < limits.maximumDepth else {
            throw error(.depthLimitExceeded, "items nest deeper than \(limits.maximumDepth) levels", offset: frame.offset)
        }
        stack.append(frame)
    }

    private mutating func appendChunk(_ event: CBORStreamEvent, to kind: Frame.Kind, at offset: Int) throws(CBORError) {
        switch (event, kind) {
        case (.byteString(let range), .byteChunks):
            stack[stack.count - 1].chunks.append(contentsOf: storage[(base + range.lowerBound)..<(base + range.upperBound)])
        case (.textString(let text), .textChunks):
            // RFC 8949 section 3.2.3: each chunk is a complete UTF-8 string on its own, so the
            // joined string needs no second validation.
            guard let text else {
                throw error(.invalidUTF8, "text string chunk is not valid UTF-8", offset: offset)
            }
            stack[stack.count - 1].text += text
        default:
            let expected = kind == .byteChunks ? "byte" : "text"
            throw error(.malformed, "a chunk of an indefinite-length \(expected) string must be a definite-length \(expected) string", offset: offset)
        }
    }

    private mutating func closeIndefinite(at offset: Int) throws(CBORError) -> CBOR? {
        guard let kind = openKind, stack[stack.count - 1].expected == nil, kind != .tag else {
            throw error(.malformed, "break code (0xff) outside an indefinite-length item", offset: offset)
        }
        if kind == .map, stack[stack.count - 1].pendingKey != nil {
            throw error(.malformed, "map ends after a key, without its value", offset: offset)
        }
        let frame = stack.removeLast()
        switch frame.kind {
        case .array: return try complete(.array(frame.items), at: frame.offset)
        case .map: return try complete(.map(CBORMap(frame.entries)), at: frame.offset)
        case .byteChunks: return try complete(.byteString(CBORBytes(frame.chunks)), at: frame.offset)
        case .textChunks: return try complete(.textString(frame.text), at: frame.offset)
        case .tag: return nil  // excluded by the guard
        }
    }

    /// Hands a finished item to the container that waits for it, closing every container it
    /// completes; returns the top-level item when the stack empties.
    private mutating func complete(_ item: CBOR, at offset: Int) throws(CBORError) -> CBOR? {
        var value = item
        var valueOffset = offset
        // Fields are read through `stack[last]` so that the element arrays stay uniquely
        // referenced and grow in place.
        while !stack.isEmpty {
            let last = stack.count - 1
            switch stack[last].kind {
            case .array:
                stack[last].items.append(value)
                guard stack[last].items.count == stack[last].expected else { return nil }
            case .map:
                guard let key = stack[last].pendingKey else {
                    guard stack[last].insertKey(value) else {
                        let component = Self.component(forKey: value, index: stack[last].entries.count)
                        throw CBORError(
                            .duplicateMapKey, "map holds the key \(Self.describe(value)) twice",
                            path: CBORPath(components: path.components.dropLast() + [component]), offset: valueOffset)
                    }
                    stack[last].pendingKey = value
                    return nil
                }
                stack[last].entries.append(CBORMap.Entry(key: key, value: value))
                stack[last].pendingKey = nil
                guard stack[last].entries.count == stack[last].expected else { return nil }
            case .tag:
                break
            case .byteChunks, .textChunks:
                return nil  // chunks are appended by appendChunk, never completed here
            }
            let frame = stack.removeLast()
            switch frame.kind {
            case .array: value = .array(frame.items)
            case .map: value = .map(CBORMap(frame.entries))
            default: value = .tagged(frame.tag, value)
            }
            valueOffset = frame.offset
        }
        return value
    }

    /// A key for an error message, shortened when long.
    private static func describe(_ key: CBOR) -> String {
        let text = key.diagnosticNotation(byteStringPrefixLength: 16)
        return text.count <= 80 ? text : text.prefix(80) + "..."
    }

    /// The path component of a map entry: its key when that is text or a 64-bit integer, else its
    /// position.
    private static func component(forKey key: CBOR, index: Int) -> CBORPath.Component {
        if let text = key.textValue { return .key(text) }
        if let int = key.int64Value { return .intKey(int) }
        return .index(index)
    }
}
