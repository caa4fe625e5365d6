import MdocCBOR

/// The identifier list of an identifier list token (ISO/IEC 18013-5 second edition 12.3.6.4):
/// the identifiers of the documents its issuer has revoked.
///
/// ```
/// IdentifierList = { "identifiers": { * Identifier => IdentifierInfo },
///                    ? "aggregation_uri": tstr, * tstr => any }
/// Identifier = bstr                       ; the MSO's identifier_list "id"
/// IdentifierInfo = { * (tstr / int) => any } ; reserved for future use
/// ```
///
/// A document whose identifier the list holds is revoked; one it does not hold is not. There
/// is no suspension in an identifier list.
public struct IdentifierList: Sendable, Hashable {
    /// The map keys (12.3.6.4).
    public enum Key {
        /// `identifiers`.
        public static let identifiers = "identifiers"
        /// `aggregation_uri`.
        public static let aggregationURI = "aggregation_uri"
    }

    /// The identifiers, in the order received.
    public let identifiers: [[UInt8]]
    /// `aggregation_uri`, when present.
    public let aggregationURI: String?
    /// The map's entries other than `identifiers` and `aggregation_uri`, in their order.
    public let otherEntries: CBORMap
    /// The identifiers, for lookup.
    private let members: Set<[UInt8]>

    /// A list of `identifiers`.
    public init(identifiers: [[UInt8]], aggregationURI: String? = nil, otherEntries: CBORMap = CBORMap()) {
        self.identifiers = identifiers
        self.aggregationURI = aggregationURI
        self.otherEntries = otherEntries
        self.members = Set(identifiers)
    }

    /// Decodes the IdentifierList map `cbor` found at `path`. Each identifier's IdentifierInfo
    /// must be a map and is otherwise ignored (reserved for future use).
    ///
    /// Throws `invalidIdentifierList` for a map of another shape.
    public init(cbor: CBOR, at path: CBORPath) throws(StatusListError) {
        guard case .map(let map) = cbor else {
            throw StatusListError(.invalidIdentifierList, "\(path): the identifier list is \(cbor.kindName), not a map")
        }
        guard let identifiersItem = map[text: Key.identifiers] else {
            throw StatusListError(.invalidIdentifierList, "\(path): the identifier list has no \"identifiers\"")
        }
        let identifiersPath = path.appending(key: Key.identifiers)
        guard case .map(let entries) = identifiersItem else {
            throw StatusListError(.invalidIdentifierList, "\(identifiersPath): identifiers is \(identifiersItem.kindName), not a map")
        }
        var identifiers: [[UInt8]] = []
        identifiers.reserveCapacity(entries.count)
        for (position, entry) in entries.entries.enumerated() {
            guard let identifier = entry.key.bytesValue else {
                throw StatusListError(.invalidIdentifierList, "\(identifiersPath.appending(index: position)): an identifier is \(entry.key.kindName), not a byte string")
            }
            guard case .map = entry.value else {
                throw StatusListError(.invalidIdentifierList, "\(identifiersPath.appending(index: position)): the IdentifierInfo of an identifier is \(entry.value.kindName), not a map")
            }
            identifiers.append(identifier)
        }
        var aggregationURI: String?
        if let item = map[text: Key.aggregationURI] {
            guard let text = item.textValue else {
                throw StatusListError(.invalidIdentifierList, "\(path.appending(key: Key.aggregationURI)): aggregation_uri is \(item.kindName), not text")
            }
            aggregationURI = text
        }
        self.init(
            identifiers: identifiers, aggregationURI: aggregationURI,
            otherEntries: CBORMap(map.entries.filter { ![Key.identifiers, Key.aggregationURI].contains($0.key.textValue ?? "") }))
    }

    /// Whether `identifier` is in the list: the document it identifies is revoked.
    public func contains(_ identifier: [UInt8]) -> Bool {
        members.contains(identifier)
    }

    /// The IdentifierList map: `identifiers` (each with an empty IdentifierInfo),
    /// `aggregation_uri` when present, then the other entries.
    public var cbor: CBOR {
        var entries = CBORMap()
        for identifier in identifiers {
            entries.append(.byteString(identifier), .map(CBORMap()))
        }
        var map = CBORMap()
        map.append(.textString(Key.identifiers), .map(entries))
        if let aggregationURI {
            map.append(.textString(Key.aggregationURI), .textString(aggregationURI))
        }
        for entry in otherEntries.entries {
            map.append(entry.key, entry.value)
        }
        return .map(map)
    }
}
