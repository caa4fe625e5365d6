import MdocCBOR

/// A Status List (draft-ietf-oauth-status-list section 4): the status of many Referenced Tokens,
/// `bits` bits each, in a byte array that travels compressed (zlib, section 4.1).
///
/// ```
/// StatusList = { bits: 1 / 2 / 4 / 8, lst: bstr, ? aggregation_uri: tstr }   ; section 4.3
/// ```
///
/// Entry `i` lies in byte `i * bits / 8`, from bit `(i * bits) % 8` up: bits are packed from the
/// least significant one, bytes in their natural order (sections 4.1 and 11.1). A decoded list
/// keeps `lst` as received and every entry of the map it does not know.
public struct StatusList: Sendable, Hashable {
    /// The keys of the StatusList map (section 4.3).
    public enum Key {
        /// `bits`: bits per entry.
        public static let bits = "bits"
        /// `lst`: the compressed byte array.
        public static let list = "lst"
        /// `aggregation_uri`: where the Status List Aggregation is (section 9).
        public static let aggregationURI = "aggregation_uri"
    }

    /// The sizes of an entry section 4.1 allows, in bits.
    public static let allowedBits: [Int] = [1, 2, 4, 8]

    /// Bits per entry: 1, 2, 4 or 8.
    public let bits: Int
    /// The byte array, inflated.
    public let bytes: [UInt8]
    /// `lst`: the byte array compressed, as received or as this toolkit compressed it.
    public let compressed: [UInt8]
    /// `aggregation_uri`, when present.
    public let aggregationURI: String?
    /// The map's entries other than `bits`, `lst` and `aggregation_uri`, in their order.
    public let otherEntries: CBORMap

    /// A list of the byte array `bytes`, compressed here at the highest level (section 4.1).
    ///
    /// Throws `invalidBits` for `bits` other than 1, 2, 4, 8, and
    /// `decompressedTooLarge` for more than
    /// ``StatusListLimits/decompressedBytes`` bytes, which no reader of this toolkit would inflate.
    public init(bits: Int, bytes: [UInt8], aggregationURI: String? = nil, otherEntries: CBORMap = CBORMap()) throws(StatusListError) {
        try Self.check(bits: bits, at: nil)
        guard bytes.count <= StatusListLimits.decompressedBytes else {
            throw StatusListError(.decompressedTooLarge, "\(bytes.count) bytes are more than the \(StatusListLimits.decompressedBytes) a reader inflates")
        }
        self.bits = bits
        self.bytes = bytes
        self.compressed = try ZlibDeflater.deflate(bytes)
        self.aggregationURI = aggregationURI
        self.otherEntries = otherEntries
    }

    /// A list whose entry `i` is `values[i]`, packed `bits` bits each (section 4.1 steps 2 and 3);
    /// the last byte is filled with zeros.
    ///
    /// Throws `invalidStatusValue` for a value that does not fit in `bits`.
    public init(bits: Int, values: [StatusValue], aggregationURI: String? = nil) throws(StatusListError) {
        try Self.check(bits: bits, at: nil)
        var bytes = [UInt8](repeating: 0, count: (values.count * bits + 7) / 8)
        for (index, value) in values.enumerated() {
            guard Int(value.rawValue) < 1 << bits else {
                throw StatusListError(.invalidStatusValue, "entry \(index) is \(value.rawValue), which does not fit in \(bits) bits")
            }
            bytes[index * bits / 8] |= value.rawValue << UInt8((index * bits) % 8)
        }
        try self.init(bits: bits, bytes: bytes, aggregationURI: aggregationURI)
    }

    /// Decodes the StatusList map `cbor` found at `path` (section 4.3) and inflates `lst` to at
    /// most `limit` bytes.
    public init(cbor: CBOR, at path: CBORPath, limit: Int = StatusListLimits.decompressedBytes) throws(StatusListError) {
        guard case .map(let map) = cbor else {
            throw StatusListError(.invalidStatusList, "\(path): the status list is \(cbor.kindName), not a map")
        }
        guard let bitsItem = map[text: Key.bits] else {
            throw StatusListError(.invalidStatusList, "\(path): the status list has no \"bits\"")
        }
        guard case .unsignedInt(let bits) = bitsItem, bits <= 8 else {
            throw StatusListError(.invalidBits, "\(path.appending(key: Key.bits)): bits is \(Self.text(bitsItem)), not 1, 2, 4 or 8")
        }
        try Self.check(bits: Int(bits), at: path.appending(key: Key.bits))
        guard let listItem = map[text: Key.list] else {
            throw StatusListError(.invalidStatusList, "\(path): the status list has no \"lst\"")
        }
        guard case .byteString(let compressed) = listItem else {
            throw StatusListError(.invalidStatusList, "\(path.appending(key: Key.list)): lst is \(listItem.kindName), not a byte string")
        }
        var aggregationURI: String?
        if let item = map[text: Key.aggregationURI] {
            guard let text = item.textValue else {
                throw StatusListError(.invalidStatusList, "\(path.appending(key: Key.aggregationURI)): aggregation_uri is \(item.kindName), not text")
            }
            aggregationURI = text
        }
        do {
            self.bytes = try ZlibInflater.inflate(compressed, limit: limit)
        } catch {
            throw StatusListError(error.code, "\(path.appending(key: Key.list)): \(error.reason)")
        }
        self.bits = Int(bits)
        self.compressed = Array(compressed)
        self.aggregationURI = aggregationURI
        self.otherEntries = CBORMap(map.entries.filter { entry in
            ![Key.bits, Key.list, Key.aggregationURI].contains(entry.key.textValue ?? "")
        })
    }

    /// How many entries the byte array holds: `bytes.count * 8 / bits`.
    public var count: Int {
        bytes.count * 8 / bits
    }

    /// The status of entry `index` (section 4.1); an index at or past ``count`` throws
    /// `indexOutOfRange`: no statement can be made (section 8.3 step 6).
    public func value(at index: UInt64) throws(StatusListError) -> StatusValue {
        guard index < UInt64(count) else {
            throw StatusListError(.indexOutOfRange, "index \(index) is past the end of the list of \(count) entries of \(bits) bits")
        }
        let bit = Int(index) * bits
        let mask = UInt8(truncatingIfNeeded: (1 << bits) - 1)
        return StatusValue(rawValue: (bytes[bit / 8] >> UInt8(bit % 8)) & mask)
    }

    /// The StatusList map: `bits`, `lst`, `aggregation_uri` when present, then the other entries.
    public var cbor: CBOR {
        var map = CBORMap()
        map.append(.textString(Key.bits), CBOR(bits))
        map.append(.textString(Key.list), .byteString(compressed))
        if let aggregationURI {
            map.append(.textString(Key.aggregationURI), .textString(aggregationURI))
        }
        for entry in otherEntries.entries {
            map.append(entry.key, entry.value)
        }
        return .map(map)
    }

    private static func check(bits: Int, at path: CBORPath?) throws(StatusListError) {
        guard allowedBits.contains(bits) else {
            let place = path.map { "\($0): " } ?? ""
            throw StatusListError(.invalidBits, "\(place)bits is \(bits), not 1, 2, 4 or 8")
        }
    }

    private static func text(_ item: CBOR) -> String {
        if let value = item.int64Value { return String(value) }
        return item.kindName
    }
}
