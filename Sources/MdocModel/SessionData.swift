import MdocCBOR

/// `SessionData` (ISO/IEC 18013-5 9.1.1.4): every message after SessionEstablishment, carrying
/// encrypted data, a status, or both.
///
/// ```
/// SessionData = { ? "data": bstr, ? "status": uint }
/// ```
/// A status code this toolkit does not name is kept (``Status`` holds any `uint`).
public struct SessionData: CBORRepresentable, Hashable {
    /// The encrypted message (ciphertext followed by the GCM tag).
    public var data: [UInt8]?
    /// The status (10, 11 or 20 in 18013-5:2021).
    public var status: Status?
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(data: [UInt8]? = nil, status: Status? = nil, additionalEntries: CBORMap = CBORMap()) {
        self.data = data
        self.status = status
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        data = try map[text: "data"].map { (value) throws(CBORError) in try value.bytes(at: path.appending(key: "data")) }
        status = try map[text: "status"].map { (value) throws(CBORError) in
            Status(rawValue: try value.uint(at: path.appending(key: "status")))
        }
        additionalEntries = map.entries(excludingText: ["data", "status"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        if let data { map.append("data", .byteString(data)) }
        if let status { map.append("status", .unsignedInt(status.rawValue)) }
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
