/// Reads DER TLVs (ITU-T X.690 section 10: definite, minimal lengths) over a byte array without
/// copying: each element is a range of the input.
///
/// Only low-tag-number identifiers (one octet, tag number below 31) are read, which is every tag
/// of an X.509 certificate (RFC 5280 section 4.1). Every error names the field being read and
/// the offset of its first octet in the input.
struct DERReader {
    /// One TLV: its identifier octet and the ranges of the whole encoding and of its contents.
    struct Element {
        /// The identifier octet (class, constructed bit and tag number).
        let tag: UInt8
        /// The identifier, length and contents octets.
        let encoding: Range<Int>
        /// The contents octets.
        let contents: Range<Int>
    }

    /// The longest length field read: four octets, far above any certificate an x5chain carries.
    static let maximumLengthOctets = 4

    private let bytes: [UInt8]
    private let what: String
    private var offset: Int
    private let end: Int

    /// A reader over `range` of `bytes`; errors begin with `what` (e.g. "certificate").
    init(_ bytes: [UInt8], range: Range<Int>, what: String) {
        self.bytes = bytes
        self.what = what
        offset = range.lowerBound
        end = range.upperBound
    }

    /// A reader over the contents of `element`, a constructed element of the same input.
    func contents(of element: Element) -> DERReader {
        DERReader(bytes, range: element.contents, what: what)
    }

    /// Whether every octet has been read.
    var isAtEnd: Bool { offset == end }

    /// The identifier octet of the next element, or `nil` at the end.
    var nextTag: UInt8? { offset < end ? bytes[offset] : nil }

    /// Reads the next element, which must have identifier `tag`; `field` names it in errors.
    mutating func read(_ field: String, tag: UInt8) throws(CryptoError) -> Element {
        let start = offset
        guard start < end else {
            throw failure(field, at: start, "missing: the enclosing structure ends at offset \(end)")
        }
        guard bytes[start] == tag else {
            throw failure(
                field, at: start, "identifier octet 0x\(Self.hex(bytes[start])), expected 0x\(Self.hex(tag))")
        }
        guard start + 1 < end else { throw failure(field, at: start, "the length octets are missing") }
        let first = bytes[start + 1]
        var contentsStart = start + 2
        var length = Int(first)
        if first >= 0x80 {
            let count = Int(first & 0x7f)
            guard count != 0 else {
                throw failure(field, at: start, "indefinite length, which DER does not allow (X.690 10.1)")
            }
            guard count <= Self.maximumLengthOctets else {
                throw failure(field, at: start, "a length of \(count) octets, more than \(Self.maximumLengthOctets)")
            }
            guard contentsStart + count <= end else {
                throw failure(field, at: start, "the length octets run past the end of the enclosing structure")
            }
            length = 0
            for index in contentsStart..<(contentsStart + count) {
                length = length << 8 | Int(bytes[index])
            }
            guard bytes[contentsStart] != 0, length >= 0x80 else {
                throw failure(field, at: start, "a length not in its shortest form, which DER requires (X.690 10.1)")
            }
            contentsStart += count
        }
        guard length <= end - contentsStart else {
            throw failure(
                field, at: start,
                "\(length) contents octets, but only \(end - contentsStart) remain in the enclosing structure")
        }
        offset = contentsStart + length
        return Element(tag: tag, encoding: start..<offset, contents: contentsStart..<offset)
    }

    /// Reads the next element if its identifier is `tag`, else reads nothing.
    mutating func readIfPresent(_ field: String, tag: UInt8) throws(CryptoError) -> Element? {
        nextTag == tag ? try read(field, tag: tag) : nil
    }

    /// Throws unless every octet has been read; `structure` names what should have ended.
    func expectEnd(of structure: String) throws(CryptoError) {
        guard isAtEnd else {
            throw failure(structure, at: offset, "\(end - offset) octets follow its last field")
        }
    }

    /// An `invalidEncoding` error about `field` at `offset`.
    func failure(_ field: String, at offset: Int, _ problem: String) -> CryptoError {
        CryptoError(.invalidEncoding, "\(what): \(field) at offset \(offset): \(problem)")
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
    }
}
