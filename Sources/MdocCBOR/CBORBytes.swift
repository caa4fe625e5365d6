/// The content of a CBOR byte string (RFC 8949 section 3.1, major type 2): read-only bytes,
/// indexed from zero.
///
/// The decoder hands byte strings out as views of the input it decoded instead of copies: a
/// portrait inside an IssuerSignedItemBytes is neither copied out of the DeviceResponse nor
/// copied again when the embedded item is decoded, and its digest is taken over the received
/// bytes where they lie. A view keeps the whole input alive; `Array(bytes)` makes an
/// independent copy. Byte strings built here own their array.
///
/// Equality and hashing compare the bytes only, never where they are stored.
public struct CBORBytes: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// The array the bytes are a part of: the decoder's input, or an array of their own.
    @usableFromInline
    let storage: [UInt8]
    /// Where in ``storage`` the bytes begin.
    @usableFromInline
    let start: Int
    /// Where in ``storage`` the bytes end, in the low 56 bits (no array is that long), and in the
    /// high 8 bits, when the decoder read these bytes as the content of an embedded data item,
    /// `#6.24(bstr)` (RFC 8949 section 3.4.5.1), the length of that item's tag and byte-string
    /// heads, 2 to 18 bytes, else 0: the item's encoding as received then ends where these bytes
    /// end and begins that many bytes before them. Packed this way a view is 24 bytes long, no
    /// more than an array and its range: a response holds several per data element.
    @usableFromInline
    let endAndHeads: UInt64

    /// The bits of ``endAndHeads`` that hold the end.
    @inlinable
    static var endMask: UInt64 { 1 << 56 - 1 }

    /// Where in ``storage`` the bytes lie.
    @inlinable
    var range: Range<Int> { start..<Int(truncatingIfNeeded: endAndHeads & Self.endMask) }

    /// The length of the tag and byte-string heads of the embedded data item these bytes are the
    /// content of, or 0.
    var embeddingHeadCount: Int { Int(truncatingIfNeeded: endAndHeads >> 56) }

    /// The bytes of `array`, which the value shares without copying.
    public init(_ array: [UInt8]) {
        self.init(storage: array, range: array.indices)
    }

    /// The bytes of `elements`, copied into an array of their own.
    public init<Bytes: Sequence<UInt8>>(_ elements: Bytes) {
        self.init(Array(elements))
    }

    /// The bytes written in the literal.
    public init(arrayLiteral elements: UInt8...) {
        self.init(elements)
    }

    /// A view of `storage[range]`; `range` must lie inside `storage`.
    @usableFromInline
    init(storage: [UInt8], range: Range<Int>) {
        self.init(storage: storage, range: range, embeddingHeadCount: 0)
    }

    /// A view of `storage[range]` whose embedded data item has heads of `embeddingHeadCount`
    /// bytes (0 for none).
    private init(storage: [UInt8], range: Range<Int>, embeddingHeadCount: Int) {
        self.storage = storage
        self.start = range.lowerBound
        self.endAndHeads = UInt64(range.upperBound) | UInt64(embeddingHeadCount) << 56
    }

    /// The same bytes, recorded as the content of the embedded data item whose tag head begins
    /// at `start` in ``storage``, 2 to 18 bytes (a tag head and a byte-string head of 1 to 9
    /// bytes each) before them.
    func embedded(at start: Int) -> CBORBytes {
        precondition((2...18).contains(self.start - start), "the heads of an embedded data item are 2 to 18 bytes")
        return CBORBytes(storage: storage, range: range, embeddingHeadCount: self.start - start)
    }

    /// The encoding of the embedded data item `#6.24(bstr)` holding these bytes, exactly as
    /// received, when the decoder read them as such an item; `nil` otherwise.
    var receivedEmbedding: CBORBytes? {
        guard embeddingHeadCount > 0 else { return nil }
        return CBORBytes(storage: storage, range: (start - embeddingHeadCount)..<range.upperBound)
    }

    /// 0: a view is indexed from zero, whatever part of its storage it shows.
    @inlinable
    public var startIndex: Int { 0 }

    /// The number of bytes.
    @inlinable
    public var endIndex: Int { range.count }

    /// The number of bytes.
    @inlinable
    public var count: Int { range.count }

    /// `0..<count`.
    @inlinable
    public var indices: Range<Int> { 0..<range.count }

    /// The byte at `position`, which must be in `0..<count`.
    @inlinable
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < range.count, "CBORBytes index out of range")
        return storage[range.lowerBound + position]
    }

    /// The bytes at `bounds`, which must lie in `0...count`, as a view indexed from zero.
    @inlinable
    public subscript(bounds: Range<Int>) -> CBORBytes {
        precondition(bounds.lowerBound >= 0 && bounds.upperBound <= range.count, "CBORBytes range out of bounds")
        return CBORBytes(storage: storage, range: (range.lowerBound + bounds.lowerBound)..<(range.lowerBound + bounds.upperBound))
    }

    /// Calls `body` with the bytes in contiguous memory, valid only during the call.
    @inlinable
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { buffer in try body(UnsafeRawBufferPointer(rebasing: buffer[range])) }
    }

    /// Calls `body` with the bytes in contiguous memory (always available), valid only during
    /// the call.
    @inlinable
    public func withContiguousStorageIfAvailable<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        try storage.withUnsafeBufferPointer { buffer in try body(UnsafeBufferPointer(rebasing: buffer[range])) }
    }

    /// The bytes copied into a new array in one move (what `Array(bytes)` calls).
    public func _copyToContiguousArray() -> ContiguousArray<UInt8> {
        withUnsafeBytes { ContiguousArray($0) }
    }

    /// Whether both hold the same bytes, wherever they are stored.
    public static func == (lhs: CBORBytes, rhs: CBORBytes) -> Bool {
        lhs.count == rhs.count && lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
    }

    /// Whether `lhs` holds exactly the bytes of `rhs`.
    public static func == (lhs: CBORBytes, rhs: [UInt8]) -> Bool {
        lhs == CBORBytes(rhs)
    }

    /// Whether `lhs` holds exactly the bytes of `rhs`.
    public static func == (lhs: [UInt8], rhs: CBORBytes) -> Bool {
        CBORBytes(lhs) == rhs
    }

    /// Hashes the bytes, as equality compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
