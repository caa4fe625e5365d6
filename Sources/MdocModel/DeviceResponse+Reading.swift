import MdocCBOR
import MdocCOSE

// A DeviceResponse carries an IssuerSignedItemBytes per data element. Decoding it into a CBOR
// tree first builds two boxed items per element (the tag and its byte string) only to read them
// back once; the form every mdoc writes is read here straight from the bytes instead, down to
// the IssuerSignedItemBytes and into issuerAuth and deviceSigned, with the parts that are few
// and of open form (header maps, errors) decoded as items. Anything else is decoded in full, which gives the same value or the error.

extension DeviceResponse {
    /// Decodes `encoded` (exactly one data item) within `limits` and interprets it as a
    /// DeviceResponse: read straight from the bytes when it has the form of the CDDL (the keys of
    /// 8.3.2.1.2.2, each once, with IssuerSignedItemBytes that ``IssuerSignedItem`` reads
    /// directly), decoded in full otherwise. Either way the value, or the error, is the one that
    /// decoding in full gives.
    public init(encoded: CBORBytes, limits: CBORLimits = .default) throws(CBORError) {
        // The read form nests containers 7 deep, down to the tag of an IssuerSignedItemBytes.
        if limits.maximumDepth >= 7, let response = CBORHeadReader.read(encoded, limits: limits, Self.read) {
            self = response
            return
        }
        try self.init(cbor: CBOR.decode(encoded, limits: limits), at: .root)
    }

    /// The keys of a DeviceResponse in the order of the CDDL.
    private static let keys: CBORTextKeys = ["version", "documents", "documentErrors", "status"]

    /// The response ``init(encoded:limits:)`` reads, or `nil`.
    static func read(_ reader: inout CBORHeadReader) -> DeviceResponse? {
        var version: String?
        var documents: [Document]?
        var documentErrors: [DocumentError]?
        var status: UInt64?
        let read = reader.readMap(keyedBy: Self.keys) { key, reader in
            switch key {
            case 0:
                version = reader.readText()
                return version != nil
            case 1:
                guard let documentCount = reader.readArrayCount() else { return false }
                var read: [Document] = []
                for _ in 0..<documentCount {
                    guard let document = Document.read(&reader) else { return false }
                    read.append(document)
                }
                documents = read
                return true
            case 2:
                documentErrors = reader.readItem(depth: 1).flatMap { item in
                    try? item.array(at: .root, element: { (entry, path) throws(CBORError) in try DocumentError(cbor: entry, at: path) })
                }
                return documentErrors != nil
            default:
                status = reader.readUnsignedInt()
                return status != nil
            }
        }
        guard read, reader.isAtEnd, let version, let status else { return nil }
        return DeviceResponse(version: version, documents: documents, documentErrors: documentErrors, status: Status(rawValue: status))
    }
}

extension Document {
    /// The keys of a Document in the order of the CDDL.
    private static let keys: CBORTextKeys = ["docType", "issuerSigned", "deviceSigned", "errors"]

    /// A Document of the `documents` of a response (nested 2 deep) read straight from the bytes,
    /// or `nil`; see ``DeviceResponse/init(encoded:limits:)``.
    static func read(_ reader: inout CBORHeadReader) -> Document? {
        var docType: String?
        var issuerSigned: IssuerSigned?
        var deviceSigned: DeviceSigned?
        var errors: Errors?
        let read = reader.readMap(keyedBy: Self.keys) { key, reader in
            switch key {
            case 0:
                docType = reader.readText()
                return docType != nil
            case 1:
                issuerSigned = IssuerSigned.read(&reader)
                return issuerSigned != nil
            case 2:
                deviceSigned = DeviceSigned.read(&reader)
                return deviceSigned != nil
            default:
                errors = reader.readItem(depth: 3).flatMap { item in try? Errors(cbor: item, at: .root) }
                return errors != nil
            }
        }
        guard read, let docType, let issuerSigned, let deviceSigned else { return nil }
        return Document(docType: docType, issuerSigned: issuerSigned, deviceSigned: deviceSigned, errors: errors)
    }
}

extension IssuerSigned {
    /// The keys of an IssuerSigned in the order of the CDDL.
    private static let keys: CBORTextKeys = ["nameSpaces", "issuerAuth"]

    /// The IssuerSigned of a Document (nested 4 deep) read straight from the bytes, or `nil`;
    /// see ``DeviceResponse/init(encoded:limits:)``.
    static func read(_ reader: inout CBORHeadReader) -> IssuerSigned? {
        var nameSpaces: OrderedMap<String, [EmbeddedCBOR<IssuerSignedItem>]>?
        var issuerAuth: COSESign1?
        let read = reader.readMap(keyedBy: Self.keys) { key, reader in
            switch key {
            case 0:
                nameSpaces = readNameSpaces(&reader)
                return nameSpaces != nil
            default:
                issuerAuth = COSESign1.read(&reader, depth: 4)
                return issuerAuth != nil
            }
        }
        guard read, let issuerAuth else { return nil }
        return IssuerSigned(nameSpaces: nameSpaces, issuerAuth: issuerAuth)
    }

    /// `IssuerNameSpaces = {+ NameSpace => [+ IssuerSignedItemBytes]}`, each name space once.
    private static func readNameSpaces(_ reader: inout CBORHeadReader) -> OrderedMap<String, [EmbeddedCBOR<IssuerSignedItem>]>? {
        guard let count = reader.readMapCount() else { return nil }
        var nameSpaces = OrderedMap<String, [EmbeddedCBOR<IssuerSignedItem>]>()
        for _ in 0..<count {
            guard let nameSpace = reader.readText(), nameSpaces[nameSpace] == nil, let itemCount = reader.readArrayCount() else { return nil }
            var items: [EmbeddedCBOR<IssuerSignedItem>] = []
            // Each is at least a tag head and a byte string head, `d8 18 40`.
            items.reserveCapacity(reader.reservation(itemCount, minimumByteCount: 3))
            for _ in 0..<itemCount {
                // Read where it lies, with the reader's memory, as IssuerSignedItem(reading:) reads
                // it; moved into place: a copy would retain each reference the item holds.
                guard let (bytes, embedded) = reader.readEmbedded() else { return nil }
                var itemReader = embedded
                guard let item = IssuerSignedItem.read(&itemReader) else { return nil }
                items.append(EmbeddedCBOR(bytes: bytes, readValue: consume item))
            }
            nameSpaces[nameSpace] = items
        }
        return nameSpaces
    }
}

extension DeviceSigned {
    /// The keys of a DeviceSigned in the order of the CDDL.
    private static let keys: CBORTextKeys = ["nameSpaces", "deviceAuth"]

    /// The DeviceSigned of a Document (nested 3 deep) read straight from the bytes: both keys,
    /// nothing else, or `nil`; see ``DeviceResponse/init(encoded:limits:)``.
    static func read(_ reader: inout CBORHeadReader) -> DeviceSigned? {
        var nameSpaces: EmbeddedCBOR<DeviceNameSpaces>?
        var deviceAuth: DeviceAuth?
        let read = reader.readMap(keyedBy: Self.keys, entryCount: Self.keys.count) { key, reader in
            switch key {
            case 0:
                // DeviceNameSpacesBytes: few elements, if any, decoded as an item.
                nameSpaces = reader.readEmbeddedBytes().flatMap { bytes in try? EmbeddedCBOR<DeviceNameSpaces>(bytes: bytes) }
                return nameSpaces != nil
            default:
                deviceAuth = DeviceAuth.read(&reader)
                return deviceAuth != nil
            }
        }
        guard read, let nameSpaces, let deviceAuth else { return nil }
        return DeviceSigned(nameSpaces: nameSpaces, deviceAuth: deviceAuth)
    }
}

extension DeviceAuth {
    /// The keys of a DeviceAuth, one of which it holds.
    private static let keys: CBORTextKeys = ["deviceSignature", "deviceMac"]

    /// The DeviceAuth of a DeviceSigned (nested 4 deep) read straight from the bytes: one key and
    /// its untagged COSE message, or `nil`; see ``DeviceResponse/init(encoded:limits:)``.
    static func read(_ reader: inout CBORHeadReader) -> DeviceAuth? {
        var deviceAuth: DeviceAuth?
        let read = reader.readMap(keyedBy: Self.keys, entryCount: 1) { key, reader in
            switch key {
            case 0:
                deviceAuth = COSESign1.read(&reader, depth: 5).map(DeviceAuth.deviceSignature)
            default:
                deviceAuth = COSEMac0.read(&reader, depth: 5).map(DeviceAuth.deviceMac)
            }
            return deviceAuth != nil
        }
        return read ? deviceAuth : nil
    }
}
