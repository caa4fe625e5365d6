import MdocCBOR

/// `ValidityInfo` (ISO/IEC 18013-5 9.1.2.4): when the MSO was signed and the period it is valid.
///
/// ```
/// ValidityInfo = {
///   "signed": tdate,
///   "validFrom": tdate,
///   "validUntil": tdate,
///   ? "expectedUpdate": tdate
/// }
/// ```
public struct ValidityInfo: CBORRepresentable, Hashable {
    /// When the MSO was signed.
    public var signed: TDate
    /// The start of the validity period.
    public var validFrom: TDate
    /// The end of the validity period.
    public var validUntil: TDate
    /// When the issuer expects to re-sign the MSO.
    public var expectedUpdate: TDate?
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(signed: TDate, validFrom: TDate, validUntil: TDate, expectedUpdate: TDate? = nil, additionalEntries: CBORMap = CBORMap()) {
        self.signed = signed
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.expectedUpdate = expectedUpdate
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        signed = try TDate(cbor: map.required("signed", at: path), at: path.appending(key: "signed"))
        validFrom = try TDate(cbor: map.required("validFrom", at: path), at: path.appending(key: "validFrom"))
        validUntil = try TDate(cbor: map.required("validUntil", at: path), at: path.appending(key: "validUntil"))
        expectedUpdate = try map[text: "expectedUpdate"].map { (value) throws(CBORError) in
            try TDate(cbor: value, at: path.appending(key: "expectedUpdate"))
        }
        additionalEntries = map.entries(excludingText: ["signed", "validFrom", "validUntil", "expectedUpdate"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("signed", signed.cbor)
        map.append("validFrom", validFrom.cbor)
        map.append("validUntil", validUntil.cbor)
        if let expectedUpdate { map.append("expectedUpdate", expectedUpdate.cbor) }
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}

extension ValidityInfo {
    /// The keys of a ValidityInfo in the order of the CDDL.
    private static let keys: CBORTextKeys = ["signed", "validFrom", "validUntil", "expectedUpdate"]

    /// The ValidityInfo of an MSO (nested `depth` containers deep) read straight from the bytes:
    /// the keys of the CDDL, each once, with tdate values, and nothing else; `nil` for any other
    /// form, which ``init(cbor:at:)`` then gives or rejects (see `CBORHeadReader`).
    static func read(_ reader: inout CBORHeadReader, depth: Int) -> ValidityInfo? {
        var dates: [TDate?] = [nil, nil, nil, nil]
        let read = reader.readMap(keyedBy: Self.keys) { key, reader in
            dates[key] = TDate.read(&reader, depth: depth + 1)
            return dates[key] != nil
        }
        guard read, let signed = dates[0], let validFrom = dates[1], let validUntil = dates[2] else { return nil }
        return ValidityInfo(signed: signed, validFrom: validFrom, validUntil: validUntil, expectedUpdate: dates[3])
    }
}
