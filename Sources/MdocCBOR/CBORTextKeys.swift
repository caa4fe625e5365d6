/// The text keys a structure's map may hold (RFC 8949 section 3.1, major type 3), as
/// ``CBORHeadReader/readText(among:)`` and ``CBORHeadReader/readMap(keyedBy:entryCount:_:)``
/// look a received key up among them.
///
/// The keys of the structures a response repeats per data element differ in length (an
/// IssuerSignedItem's are 8, 6, 17 and 12 bytes), so a table by length names the one key a
/// received key can be, and one comparison of the bytes decides; only keys of a length that
/// several share are compared one after the other.
package struct CBORTextKeys: ExpressibleByArrayLiteral, Sendable {
    /// The keys, in order.
    private let keys: [StaticString]
    /// For each length from 0 to the longest key's: 0 when no key has it, ``several`` when more
    /// than one has, else the position of the one key that has it, plus one.
    private let positionsByLength: [UInt8]
    /// The mark in ``positionsByLength`` of a length that several keys share.
    private static let several = UInt8.max

    /// The keys, in order: at most 254 of them, each once.
    package init(arrayLiteral keys: StaticString...) {
        precondition(keys.count < Int(Self.several), "at most \(Self.several - 1) keys")
        self.keys = keys
        var positionsByLength = [UInt8](repeating: 0, count: (keys.map(\.utf8CodeUnitCount).max() ?? -1) + 1)
        for (position, key) in keys.enumerated() {
            let length = key.utf8CodeUnitCount
            positionsByLength[length] = positionsByLength[length] == 0 ? UInt8(position + 1) : Self.several
        }
        self.positionsByLength = positionsByLength
    }

    /// The number of keys.
    package var count: Int { keys.count }

    /// The position of the key whose UTF-8 bytes are `received`, or `nil` when it is none of them.
    @inline(__always)
    package func position(of received: UnsafeRawBufferPointer) -> Int? {
        guard received.count < positionsByLength.count else { return nil }
        let entry = positionsByLength[received.count]
        if entry == 0 { return nil }
        if entry != Self.several {
            let position = Int(entry) - 1
            return Self.equal(bytes(of: keys[position]), received) ? position : nil
        }
        for position in keys.indices where keys[position].utf8CodeUnitCount == received.count && Self.equal(bytes(of: keys[position]), received) {
            return position
        }
        return nil
    }

    /// The UTF-8 bytes of `key`, in static memory.
    @inline(__always)
    private func bytes(of key: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
    }

    /// Whether two buffers of the same length hold the same bytes, compared eight at a time, the
    /// last eight (or four) overlapping those before them rather than byte by byte.
    @inline(__always)
    private static func equal(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        let count = first.count
        if count >= 8 {
            var index = 0
            while index + 8 < count {
                guard first.loadUnaligned(fromByteOffset: index, as: UInt64.self) == second.loadUnaligned(fromByteOffset: index, as: UInt64.self) else {
                    return false
                }
                index += 8
            }
            return first.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == second.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return first.loadUnaligned(as: UInt32.self) == second.loadUnaligned(as: UInt32.self)
                && first.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == second.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        for index in 0..<count where first[index] != second[index] {
            return false
        }
        return true
    }
}
