import MdocCBOR

/// `OriginInfo`: where an engagement came from or is to be delivered, carried in DeviceEngagement
/// key 5 (`OriginInfos = [* OriginInfo]`; ISO/IEC TS 18013-7 and the second edition of ISO/IEC
/// 18013-5, 8.2.1.1).
///
/// ```
/// OriginInfo = { "cat": uint, "type": uint, "details": any }   ; cat 0 delivery, 1 receive; type 1 website
/// ```
/// `details` is kept as received; for a website it is `{"baseUrl": tstr}` (``baseURL``). Other
/// keys are kept in ``additionalEntries``.
public struct OriginInfo: CBORRepresentable, Hashable {
    /// `cat`: 0 delivery, 1 receive.
    public var cat: UInt64
    /// `type`: 1 website.
    public var type: UInt64
    /// `details`, as received.
    public var details: CBOR
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(cat: UInt64, type: UInt64, details: CBOR, additionalEntries: CBORMap = CBORMap()) {
        self.cat = cat
        self.type = type
        self.details = details
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        cat = try map.required("cat", at: path).uint(at: path.appending(key: "cat"))
        type = try map.required("type", at: path).uint(at: path.appending(key: "type"))
        details = try map.required("details", at: path)
        additionalEntries = map.entries(excludingText: ["cat", "type", "details"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("cat", .unsignedInt(cat))
        map.append("type", .unsignedInt(type))
        map.append("details", details)
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }

    /// The `baseUrl` of website details, when present.
    public var baseURL: String? {
        details.mapValue?[text: "baseUrl"]?.textValue
    }
}
