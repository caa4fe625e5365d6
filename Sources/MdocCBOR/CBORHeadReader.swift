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
package struct CBORHeadReader {
    /// The bytes read: an encoded data item.
    private let bytes: CBORBytes
    /// The limits of decoding ``bytes`` as one item.
    private let limits: CBORLimits
    /// The offset of the next head, from the start of ``bytes``.
    package private(set) var offset = 0
    /// The data items read so far, counted as ``CBORLimits/maximumItemCount`` counts them.
    package private(set) var itemCount = 0

    /// A reader at the start of `bytes`, which reads nothing when they exceed `limits`.
    package init(_ bytes: CBORBytes, limits: CBORLimits = .default) {
        self.bytes = bytes
        self.limits = limits
    }

    /// `true` when every byte has been read.
    package var isAtEnd: Bool { offset == bytes.count }

    /// Counts one more item; `false` when that exceeds the limits.
    private mutating func countItem() -> Bool {
        guard itemCount < limits.maximumItemCount, bytes.count <= limits.maximumInputSize else { return false }
        itemCount += 1
        return true
    }

    /// The head at ``offset``: its major type, its argument and its length in bytes, or `nil` for
    /// an indefinite length, reserved additional information or a head cut short.
    private func head() -> (majorType: UInt8, argument: UInt64, length: Int)? {
        guard offset < bytes.count else { return nil }
        let initial = bytes[offset]
        let additional = initial & 0x1f
        let argumentLength: Int
        switch additional {
        case 0...23: return (initial >> 5, UInt64(additional), 1)
        case 24: argumentLength = 1
        case 25: argumentLength = 2
        case 26: argumentLength = 4
        case 27: argumentLength = 8
        default: return nil
        }
        guard argumentLength < bytes.count - offset else { return nil }
        var argument: UInt64 = 0
        for position in (offset + 1)...(offset + argumentLength) {
            argument = argument << 8 | UInt64(bytes[position])
        }
        return (initial >> 5, argument, 1 + argumentLength)
    }

    /// The content of a definite-length string of major type `majorType` at ``offset``, as a
    /// range of ``bytes``, with the offset after it.
    private func string(ofMajorType majorType: UInt8) -> (content: Range<Int>, next: Int)? {
        guard let head = head(), head.majorType == majorType, head.argument <= UInt64(bytes.count - offset - head.length) else {
            return nil
        }
        let start = offset + head.length
        let end = start + Int(head.argument)
        return (start..<end, end)
    }

    /// The number of entries of a definite-length map (major type 5).
    package mutating func readMapCount() -> Int? {
        guard let head = head(), head.majorType == 5, head.argument <= UInt64(bytes.count - offset), countItem() else { return nil }
        offset += head.length
        return Int(head.argument)
    }

    /// An unsigned integer (major type 0).
    package mutating func readUnsignedInt() -> UInt64? {
        guard let head = head(), head.majorType == 0, countItem() else { return nil }
        offset += head.length
        return head.argument
    }

    /// A definite-length byte string (major type 2), as a view of the input.
    package mutating func readByteString() -> CBORBytes? {
        guard let (content, next) = string(ofMajorType: 2), countItem() else { return nil }
        offset = next
        return bytes[content]
    }

    /// A definite-length text string (major type 3) of valid UTF-8.
    package mutating func readText() -> String? {
        guard let (content, next) = string(ofMajorType: 3) else { return nil }
        let text = bytes.withUnsafeBytes { buffer -> String? in
            let utf8 = UnsafeBufferPointer(rebasing: buffer.assumingMemoryBound(to: UInt8.self)[content])
            guard let span = try? UTF8Span(validating: utf8.span) else { return nil }
            return String(copying: span)
        }
        guard let text, countItem() else { return nil }
        offset = next
        return text
    }

    /// A definite-length text string that is one of `candidates`, each given as its UTF-8
    /// bytes: the position of the one it equals. Compares the received bytes in place, without
    /// making a `String`; `nil` when the string is none of them.
    package mutating func readText(among candidates: [[UInt8]]) -> Int? {
        guard let (content, next) = string(ofMajorType: 3) else { return nil }
        let match = bytes.withUnsafeBytes { buffer in
            let received = UnsafeRawBufferPointer(rebasing: buffer[content])
            return candidates.firstIndex { candidate in
                candidate.count == received.count && candidate.indices.allSatisfy { candidate[$0] == received[$0] }
            }
        }
        guard let match, countItem() else { return nil }
        offset = next
        return match
    }

    /// The complete data item at ``offset``, of any kind, nested `depth` containers deep in the
    /// item read, decoded by ``CBORDecoder`` within what the limits leave; `nil` when it does
    /// not decode.
    package mutating func readItem(depth: Int) -> CBOR? {
        guard bytes.count <= limits.maximumInputSize, depth <= limits.maximumDepth else { return nil }
        let decoder = CBORDecoder(limits: CBORLimits(
            maximumDepth: limits.maximumDepth - depth, maximumItemCount: limits.maximumItemCount - itemCount,
            maximumInputSize: limits.maximumInputSize))
        let start = offset
        let decoded = bytes.storage.withUnsafeBufferPointer { whole in
            try? decoder.decodeItem(
                UnsafeBufferPointer(rebasing: whole[bytes.range]), at: start, storage: bytes.storage, base: bytes.range.lowerBound,
                reader: CBORStreamReader())
        }
        guard let decoded else { return nil }
        offset = decoded.next
        itemCount += decoded.itemCount
        return decoded.item
    }
}
