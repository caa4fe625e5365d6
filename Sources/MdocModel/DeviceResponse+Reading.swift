import MdocCBOR
import MdocCOSE

// A DeviceResponse carries an IssuerSignedItemBytes per data element. Decoding it into a CBOR
// tree first builds two boxed items per element (the tag and its byte string) only to read them
// back once; the form every mdoc writes is read here straight from the bytes instead, down to
// the IssuerSignedItemBytes, with the parts that are few (deviceSigned, issuerAuth, errors)
// decoded as items. Anything else is decoded in full, which gives the same value or the error.

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
    private static let keys: [StaticString] = ["version", "documents", "documentErrors", "status"]

    /// The response ``init(encoded:limits:)`` reads, or `nil`.
    static func read(_ reader: inout CBORHeadReader) -> DeviceResponse? {
        guard let count = reader.readMapCount() else { return nil }
        var version: String?
        var documents: [Document]?
        var documentErrors: [DocumentError]?
        var status: UInt64?
        var seen = Set<Int>()
        for _ in 0..<count {
            guard let key = reader.readText(among: Self.keys), seen.insert(key).inserted else { return nil }
            switch key {
            case 0:
                guard let value = reader.readText() else { return nil }
                version = value
            case 1:
                guard let documentCount = reader.readArrayCount() else { return nil }
                var read: [Document] = []
                for _ in 0..<documentCount {
                    guard let document = Document.read(&reader) else { return nil }
                    read.append(document)
                }
                documents = read
            case 2:
                guard let item = reader.readItem(depth: 1),
                      let value = try? item.array(at: .root, element: { (entry, path) throws(CBORError) in try DocumentError(cbor: entry, at: path) })
                else { return nil }
                documentErrors = value
            default:
                guard let value = reader.readUnsignedInt() else { return nil }
                status = value
            }
        }
        guard reader.isAtEnd, let version, let status else { return nil }
        return DeviceResponse(version: version, documents: documents, documentErrors: documentErrors, status: Status(rawValue: status))
    }
}

extension Document {
    /// The keys of a Document in the order of the CDDL.
    private static let keys: [StaticString] = ["docType", "issuerSigned", "deviceSigned", "errors"]

    /// A Document of the `documents` of a response (nested 2 deep) read straight from the bytes,
    /// or `nil`; see ``DeviceResponse/init(encoded:limits:)``.
    static func read(_ reader: inout CBORHeadReader) -> Document? {
        guard let count = reader.readMapCount() else { return nil }
        var docType: String?
        var issuerSigned: IssuerSigned?
        var deviceSigned: DeviceSigned?
        var errors: Errors?
        var seen = Set<Int>()
        for _ in 0..<count {
            guard let key = reader.readText(among: Self.keys), seen.insert(key).inserted else { return nil }
            switch key {
            case 0:
                guard let value = reader.readText() else { return nil }
                docType = value
            case 1:
                guard let value = IssuerSigned.read(&reader) else { return nil }
                issuerSigned = value
            case 2:
                guard let item = reader.readItem(depth: 3), let value = try? DeviceSigned(cbor: item, at: .root) else { return nil }
                deviceSigned = value
            default:
                guard let item = reader.readItem(depth: 3), let value = try? Errors(cbor: item, at: .root) else { return nil }
                errors = value
            }
        }
        guard let docType, let issuerSigned, let deviceSigned else { return nil }
        return Document(docType: docType, issuerSigned: issuerSigned, deviceSigned: deviceSigned, errors: errors)
    }
}

extension IssuerSigned {
    /// The keys of an IssuerSigned in the order of the CDDL.
    private static let keys: [StaticString] = ["nameSpaces", "issuerAuth"]

    /// The IssuerSigned of a Document (nested 4 deep) read straight from the bytes, or `nil`;
    /// see ``DeviceResponse/init(encoded:limits:)``.
    static func read(_ reader: inout CBORHeadReader) -> IssuerSigned? {
        guard let count = reader.readMapCount() else { return nil }
        var nameSpaces: OrderedMap<String, [EmbeddedCBOR<IssuerSignedItem>]>?
        var issuerAuth: COSESign1?
        for _ in 0..<count {
            switch reader.readText(among: Self.keys) {
            case 0 where nameSpaces == nil:
                guard let value = readNameSpaces(&reader) else { return nil }
                nameSpaces = value
            case 1 where issuerAuth == nil:
                guard let item = reader.readItem(depth: 4), let value = try? COSESign1(cbor: item, at: .root) else { return nil }
                issuerAuth = value
            default:
                return nil
            }
        }
        guard let issuerAuth else { return nil }
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
                guard let bytes = reader.readEmbeddedBytes(), let item = IssuerSignedItem(reading: bytes) else { return nil }
                items.append(EmbeddedCBOR(bytes: bytes, readValue: item))
            }
            nameSpaces[nameSpace] = items
        }
        return nameSpaces
    }
}
