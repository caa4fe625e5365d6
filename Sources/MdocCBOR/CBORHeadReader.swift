/// Reads an encoded data item head by head (RFC 8949 section 3), for a structure that a message
/// repeats once per data element and that reads itself straight from its encoding instead of
/// from a decoded ``CBOR`` tree.
///
/// It only ever answers for the forms it reads in full: definite-length maps, unsigned integers,
/// byte strings and text strings, with their heads in any of the lengths RFC 8949 section 3
/// allows, and complete items of any kind that ``CBORDecoder`` decodes. Anything else, including
/// every input that is not well-formed and every input beyond the ``CBORLimits`` given, makes a
/// read return `nil` and leaves the reader where it was; the caller then decodes the same bytes
/// with ``CBORDecoder``, which gives the value or the error, with its path and offset, exactly as
/// it would have without this reader. A structure read here is therefore equal to the one the
/// decoder's tree gives, and byte strings are views of the input, as the decoder's are.
///
/// A reader exists only during ``read(_:limits:_:)``, which gives it the bytes' memory.
package struct CBORHeadReader {
    /// The bytes read: an encoded data item.
    private let bytes: CBORBytes
    /// The memory of ``bytes``, valid during ``read(_:limits:_:)``.
    private let buffer: UnsafeRawBufferPointer
    /// The limits of decoding ``bytes`` as one item.
    private let limits: CBORLimits
    /// The offset of the next head, from the start of ``bytes``.
    package private(set) var offset = 0
    /// The data items read so far, counted as ``CBORLimits/maximumItemCount`` counts them.
    package private(set) var itemCount = 0

    private init(_ bytes: CBORBytes, buffer: UnsafeRawBufferPointer, limits: CBORLimits) {
        self.bytes = bytes
        self.buffer = buffer
        self.limits = limits
    }

    /// Calls `body` with a reader at the start of `bytes`, which reads nothing when they exceed
    /// `limits`. The reader must not be used after `body` returns.
    package static func read<Result>(
        _ bytes: CBORBytes, limits: CBORLimits = .default, _ body: (inout CBORHeadReader) -> Result
    ) -> Result {
        bytes.withUnsafeBytes { buffer in
            var reader = CBORHeadReader(bytes, buffer: buffer, limits: limits)
            return body(&reader)
        }
    }

    /// The capacity to reserve for `count` declared elements or entries, each encoded in at least
    /// `minimumByteCount` bytes: never more than the bytes that remain can hold or the items the
    /// limits still allow, so that a hostile count cannot make a reader allocate by a declared
    /// length.
    package func reservation(_ count: Int, minimumByteCount: Int) -> Int {
        min(count, (buffer.count - offset) / max(minimumByteCount, 1), max(0, limits.maximumItemCount - itemCount))
    }

    /// `true` when every byte has been read.
    package var isAtEnd: Bool { offset == buffer.count }

    /// Counts one more item; `false` when that exceeds the limits. Inlined into every read, as
    /// the head and string readers below are: a data element's reads call them a dozen times.
    @inline(__always)
    private mutating func countItem() -> Bool {
        guard itemCount < limits.maximumItemCount, buffer.count <= limits.maximumInputSize else { return false }
        itemCount += 1
        return true
    }

    /// The head at `offset` of `buffer` (the reader's ``offset`` and memory): its major type, its
    /// argument and its length in bytes, or `nil` for an indefinite length, reserved additional
    /// information or a head cut short. Static, as ``string(ofMajorType:in:at:)`` is: every head
    /// of every data element is read through these, and a method would be given a copy of the
    /// reader, retaining the bytes it reads, each time.
    @inline(__always)
    private static func head(in buffer: UnsafeRawBufferPointer, at offset: Int) -> (majorType: UInt8, argument: UInt64, length: Int)? {
        guard offset < buffer.count else { return nil }
        let initial = buffer[offset]
        let additional = initial & 0x1f
        let remaining = buffer.count - offset
        // The argument follows in 1, 2, 4 or 8 bytes, big-endian (RFC 8949 section 3), each
        // read in one load.
        switch additional {
        case 0...23:
            return (initial >> 5, UInt64(additional), 1)
        case 24:
            guard remaining > 1 else { return nil }
            return (initial >> 5, UInt64(buffer[offset + 1]), 2)
        case 25:
            guard remaining > 2 else { return nil }
            return (initial >> 5, UInt64(UInt16(bigEndian: buffer.loadUnaligned(fromByteOffset: offset + 1, as: UInt16.self))), 3)
        case 26:
            guard remaining > 4 else { return nil }
            return (initial >> 5, UInt64(UInt32(bigEndian: buffer.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self))), 5)
        case 27:
            guard remaining > 8 else { return nil }
            return (initial >> 5, UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self)), 9)
        default:
            return nil
        }
    }

    /// The content of a definite-length string of major type `majorType` at `offset` of `buffer`
    /// (the reader's ``offset`` and memory), as a range of ``bytes``, with the offset after it.
    @inline(__always)
    private static func string(ofMajorType majorType: UInt8, in buffer: UnsafeRawBufferPointer, at offset: Int) -> (content: Range<Int>, next: Int)? {
        guard let head = head(in: buffer, at: offset), head.majorType == majorType, head.argument <= UInt64(buffer.count - offset - head.length) else {
            return nil
        }
        let start = offset + head.length
        let end = start + Int(head.argument)
        return (start..<end, end)
    }

    /// The number of entries of a definite-length map (major type 5).
    package mutating func readMapCount() -> Int? {
        guard let head = Self.head(in: buffer, at: offset), head.majorType == 5, head.argument <= UInt64(buffer.count - offset), countItem() else { return nil }
        offset += head.length
        return Int(head.argument)
    }

    /// The number of elements of a definite-length array (major type 4).
    package mutating func readArrayCount() -> Int? {
        guard let head = Self.head(in: buffer, at: offset), head.majorType == 4, head.argument <= UInt64(buffer.count - offset), countItem() else { return nil }
        offset += head.length
        return Int(head.argument)
    }

    /// The content of an embedded data item, `#6.24(bstr)` (RFC 8949 section 3.4.5.1), as a view
    /// of the input that knows where its tag head begins, as the decoder gives it
    /// (``EmbeddedCBOR/taggedBytes``).
    package mutating func readEmbeddedBytes() -> CBORBytes? {
        guard let tag = Self.head(in: buffer, at: offset), tag.majorType == 6, tag.argument == CBOR.Tag.encodedCBOR else { return nil }
        let (start, count) = (offset, itemCount)
        guard countItem() else { return nil }
        offset += tag.length
        guard let content = readByteString() else {
            (offset, itemCount) = (start, count)
            return nil
        }
        // An empty content encodes no data item: the decoder records no embedding for it.
        return content.isEmpty ? content : content.embedded(at: bytes.range.lowerBound + start)
    }

    /// An embedded data item, `#6.24(bstr)`: its content, as ``readEmbeddedBytes()`` gives it,
    /// and a reader at the start of that content, reading it as ``read(_:limits:_:)`` with
    /// `limits` would, over the memory this reader already has. The reader given must not be
    /// used after this one.
    package mutating func readEmbedded(limits: CBORLimits = .default) -> (content: CBORBytes, reader: CBORHeadReader)? {
        guard let content = readEmbeddedBytes() else { return nil }
        // The content ends where this reader now is.
        return (content, CBORHeadReader(content, buffer: UnsafeRawBufferPointer(rebasing: buffer[(offset - content.count)..<offset]), limits: limits))
    }

    /// The head of tag `tag` (major type 6) of an item nested `depth` containers deep, as
    /// ``readDefiniteItem(depth:)`` reads it: `true`, with the reader at the tag content, when it
    /// is that tag within the depth the limits leave; `false`, reading nothing, otherwise.
    package mutating func readTag(_ tag: UInt64, depth: Int) -> Bool {
        guard depth < limits.maximumDepth, let head = Self.head(in: buffer, at: offset), head.majorType == 6, head.argument == tag, countItem() else { return false }
        offset += head.length
        return true
    }

    /// `null` (simple value 22, RFC 8949 section 3.3): `true` when read, `false`, reading
    /// nothing, otherwise.
    package mutating func readNull() -> Bool {
        guard offset < buffer.count, buffer[offset] == 0xf6, countItem() else { return false }
        offset += 1
        return true
    }

    /// An unsigned integer (major type 0).
    package mutating func readUnsignedInt() -> UInt64? {
        guard let head = Self.head(in: buffer, at: offset), head.majorType == 0, countItem() else { return nil }
        offset += head.length
        return head.argument
    }

    /// A definite-length byte string (major type 2), as a view of the input.
    package mutating func readByteString() -> CBORBytes? {
        guard let (content, next) = Self.string(ofMajorType: 2, in: buffer, at: offset), countItem() else { return nil }
        offset = next
        return bytes[content]
    }

    /// A definite-length text string (major type 3) of valid UTF-8.
    package mutating func readText() -> String? {
        guard let (content, next) = Self.string(ofMajorType: 3, in: buffer, at: offset) else { return nil }
        let utf8 = UnsafeRawBufferPointer(rebasing: buffer[content]).assumingMemoryBound(to: UInt8.self)
        guard let span = try? UTF8Span(validating: utf8.span), countItem() else { return nil }
        offset = next
        return String(copying: span)
    }

    /// A definite-length text string that is one of `candidates`: the position of the one it
    /// equals. Compares the received bytes in place, without making a `String`; `nil` when the
    /// string is none of them.
    package mutating func readText(among candidates: CBORTextKeys) -> Int? {
        guard let (content, next) = Self.string(ofMajorType: 3, in: buffer, at: offset),
              let match = candidates.position(of: UnsafeRawBufferPointer(rebasing: buffer[content])), countItem()
        else { return nil }
        offset = next
        return match
    }

    /// A definite-length map whose keys are text strings among `keys`, each at most once, and
    /// which has `entryCount` entries when that is given: calls `readValue` with the position in
    /// `keys` of each key read, in the order received, to read that key's value. `false` when
    /// the item is not such a map or `readValue` returns `false`; the reader is then part-way into
    /// the map, and what was read is to be abandoned, as every read built on this one does.
    package mutating func readMap(
        keyedBy keys: CBORTextKeys, entryCount: Int? = nil, _ readValue: (_ key: Int, _ reader: inout CBORHeadReader) -> Bool
    ) -> Bool {
        precondition(keys.count <= UInt64.bitWidth, "at most \(UInt64.bitWidth) keys")
        guard let count = readMapCount(), count == entryCount ?? count, count <= keys.count else { return false }
        var seen: UInt64 = 0
        for _ in 0..<count {
            guard let key = readText(among: keys), seen & (1 << key) == 0 else { return false }
            seen |= 1 << key
            guard readValue(key, &self) else { return false }
        }
        return true
    }

    /// The complete data item at ``offset``, of any kind, nested `depth` containers deep in the
    /// item read, as ``CBORDecoder`` decodes it within what the limits leave; `nil` when it does
    /// not decode. The forms issuers write are read head by head (``readDefiniteItem(depth:)``);
    /// anything else is decoded by the decoder.
    package mutating func readItem(depth: Int) -> CBOR? {
        let (start, count) = (offset, itemCount)
        if let item = readDefiniteItem(depth: depth) { return item }
        (offset, itemCount) = (start, count)
        guard buffer.count <= limits.maximumInputSize, depth <= limits.maximumDepth else { return nil }
        let decoder = CBORDecoder(limits: CBORLimits(
            maximumDepth: limits.maximumDepth - depth, maximumItemCount: limits.maximumItemCount - itemCount,
            maximumInputSize: limits.maximumInputSize))
        let decoded = try? decoder.decodeItem(
            buffer.assumingMemoryBound(to: UInt8.self), at: offset, storage: bytes.storage, base: bytes.range.lowerBound,
            reader: CBORStreamReader())
        guard let decoded else { return nil }
        offset = decoded.next
        itemCount += decoded.itemCount
        return decoded.item
    }

    /// A data item made only of definite-length forms: integers, byte and text strings, arrays,
    /// maps of at most ``CBORDecoder/linearDuplicateKeyScanLimit`` entries with no key twice,
    /// tags (an embedded item's bytes knowing where its tag begins, as the decoder records it),
    /// `false`, `true` and `null`, each container within the depth the limits leave. `nil` for
    /// anything else, without restoring ``offset``: floats, other simple values and indefinite
    /// lengths are the decoder's, as is every error.
    package mutating func readDefiniteItem(depth: Int) -> CBOR? {
        guard let head = Self.head(in: buffer, at: offset) else { return nil }
        switch head.majorType {
        case 0:
            return readUnsignedInt().map { .unsignedInt($0) }
        case 1:
            guard countItem() else { return nil }
            offset += head.length
            return .negativeInt(head.argument)
        case 2:
            return readByteString().map { .byteString($0) }
        case 3:
            return readText().map { .textString($0) }
        case 4:
            guard depth < limits.maximumDepth, let count = readArrayCount() else { return nil }
            var items: [CBOR] = []
            items.reserveCapacity(reservation(count, minimumByteCount: 1))
            for _ in 0..<count {
                guard let item = readDefiniteItem(depth: depth + 1) else { return nil }
                items.append(item)
            }
            return .array(items)
        case 5:
            guard depth < limits.maximumDepth, head.argument <= UInt64(CBORDecoder.linearDuplicateKeyScanLimit),
                let count = readMapCount()
            else { return nil }
            var entries: [CBORMap.Entry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                guard let key = readDefiniteItem(depth: depth + 1), !entries.contains(where: { $0.key == key }),
                    let value = readDefiniteItem(depth: depth + 1)
                else { return nil }
                entries.append(CBORMap.Entry(key: key, value: value))
            }
            return .map(CBORMap(entries))
        case 6:
            guard depth < limits.maximumDepth else { return nil }
            if let embedded = readEmbeddedBytes() { return .tagged(CBOR.Tag.encodedCBOR, .byteString(embedded)) }
            guard readTag(head.argument, depth: depth) else { return nil }
            return readDefiniteItem(depth: depth + 1).map { .tagged(head.argument, $0) }
        default:
            // RFC 8949 section 3.3: false, true and null are the simple values 20 to 22.
            let value: CBOR
            switch buffer[offset] {
            case 0xf4: value = .boolean(false)
            case 0xf5: value = .boolean(true)
            case 0xf6: value = .null
            default: return nil
            }
            guard countItem() else { return nil }
            offset += 1
            return value
        }
    }
}
