import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

/// An issued document as the mdoc holder keeps it: the issuer-signed data (ISO/IEC 18013-5
/// 8.3.2.1.2.2 IssuerSigned, with the MSO of 9.1.2.4) and the private static device key
/// (SDeviceKey, 9.1.3) whose public half the MSO holds as `deviceKey`.
///
/// The credential file (extension ``fileExtension``) is this project's format, one CBOR map
/// written in deterministic encoding (RFC 8949 section 4.2.1):
///
/// ```
/// Credential = {
///   "docType": tstr,               ; equal to the MSO docType
///   "issuerSigned": IssuerSigned,  ; 8.3.2.1.2.2: every IssuerSignedItemBytes and the IssuerAuth
///   "deviceKey": COSE_Key,         ; RFC 9052 section 7 with "d" (-4): the private SDeviceKey
///   ? "testMaterial": [+ tstr]     ; made to fail verification: why, one note per reason
/// }
/// ```
///
/// Issuers make credentials with MdocIssuance's `DocumentIssuer`. A credential with
/// ``testMaterial`` is negative test material (`DocumentIssuer.issueTestCredential`): it was
/// issued to be rejected, for example expired or signed by a document signer outside the
/// Annex B profile, and says so in the file.
///
/// IssuerSignedItemBytes and the IssuerAuth protected header and payload are kept as the bytes
/// that were issued and written back unchanged, so the MSO digests and signature stay valid
/// (docs/architecture.md rule 1). Reading checks that the MSO decodes, that its docType is ``docType`` and
/// that its deviceKey is the public half of ``deviceKey``; it does not check the issuer's
/// signature or chain, which is the reader's business (9.3.1).
///
/// The private key is never printed: ``description``, ``debugDescription`` and the mirror name
/// its curve only. The file holds a private key and should be written with mode 0600
/// (docs/architecture.md rule 8).
public struct Credential: CBORRepresentable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The extension of credential files, `mdoc`.
    public static let fileExtension = "mdoc"

    /// The document type, such as `DocType.mDL`.
    public let docType: String
    /// The issuer-signed data elements and the IssuerAuth, as issued.
    public let issuerSigned: IssuerSigned
    /// The private static device key (SDeviceKey) of the MSO `deviceKey`.
    public let deviceKey: PrivateKey
    /// The MSO inside ``issuerSigned``'s IssuerAuth, with its signed bytes.
    public let mobileSecurityObject: EmbeddedCBOR<MobileSecurityObject>
    /// Why the credential was made to fail verification, one note per reason; empty for an
    /// ordinary credential.
    public let testMaterial: [String]
    /// Name space → element identifier → the item's position in its name space, so that
    /// answering a request looks each element up in O(1).
    private let itemPositions: [String: [String: Int]]

    /// A credential from its parts; throws `CBORError` (code `invalidValue` or a decoding code)
    /// when the IssuerAuth payload is not an MSO, when the MSO is for another doc type, or when
    /// its deviceKey is not the public half of `deviceKey`.
    public init(docType: String, issuerSigned: IssuerSigned, deviceKey: PrivateKey) throws(CBORError) {
        try self.init(docType: docType, issuerSigned: issuerSigned, deviceKey: deviceKey, testMaterial: [], at: .root)
    }

    /// Reads the map described on the type; error paths start at `path`.
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        let docType = try map.required("docType", at: path).text(at: path.appending(key: "docType"))
        let issuerSigned = try IssuerSigned(cbor: map.required("issuerSigned", at: path), at: path.appending(key: "issuerSigned"))
        let keyPath = path.appending(key: "deviceKey")
        let coseKey = try COSEKey(cbor: map.required("deviceKey", at: path), at: keyPath)
        let deviceKey: PrivateKey
        do {
            deviceKey = try coseKey.privateKey()
        } catch {
            throw CBORError(.invalidValue, "the device key is not a usable private key: \(error)", path: keyPath)
        }
        var testMaterial: [String] = []
        if let notes = map[text: "testMaterial"] {
            let notesPath = path.appending(key: "testMaterial")
            for (index, note) in try notes.array(at: notesPath).enumerated() {
                testMaterial.append(try note.text(at: notesPath.appending(index: index)))
            }
            guard !testMaterial.isEmpty else {
                throw CBORError(.invalidValue, "testMaterial holds no note", path: notesPath)
            }
        }
        try self.init(docType: docType, issuerSigned: issuerSigned, deviceKey: deviceKey, testMaterial: testMaterial, at: path)
    }

    private init(docType: String, issuerSigned: IssuerSigned, deviceKey: PrivateKey, testMaterial: [String], at path: CBORPath) throws(CBORError) {
        let issuerSignedPath = path.appending(key: "issuerSigned")
        let mso = try issuerSigned.mobileSecurityObjectBytes(at: issuerSignedPath)
        let msoPath = issuerSignedPath.appending(key: "issuerAuth").appending(index: 2).appending(.embedded)
        guard mso.value.docType == docType else {
            throw CBORError(
                .invalidValue, "the MSO is for docType \"\(mso.value.docType)\", the credential claims \"\(docType)\"",
                path: msoPath.appending(key: "docType"))
        }
        let msoKeyPath = msoPath.appending(key: "deviceKeyInfo").appending(key: "deviceKey")
        let msoKey: PublicKey
        do {
            msoKey = try mso.value.deviceKeyInfo.deviceKey.publicKey()
        } catch {
            throw CBORError(.invalidValue, "the MSO deviceKey is not a usable public key: \(error)", path: msoKeyPath)
        }
        guard msoKey == deviceKey.publicKey else {
            throw CBORError(
                .invalidValue, "the credential's device key is not the private key of the MSO deviceKey",
                path: path.appending(key: "deviceKey"))
        }
        self.docType = docType
        self.issuerSigned = issuerSigned
        self.deviceKey = deviceKey
        self.mobileSecurityObject = mso
        self.testMaterial = testMaterial
        self.itemPositions = Self.itemPositions(issuerSigned)
    }

    /// A credential just issued by MdocIssuance's `DocumentIssuer`, whose parts agree by
    /// construction.
    package init(
        docType: String, issuerSigned: IssuerSigned, deviceKey: PrivateKey, mobileSecurityObject: EmbeddedCBOR<MobileSecurityObject>,
        testMaterial: [String] = []
    ) {
        self.docType = docType
        self.issuerSigned = issuerSigned
        self.deviceKey = deviceKey
        self.mobileSecurityObject = mobileSecurityObject
        self.testMaterial = testMaterial
        self.itemPositions = Self.itemPositions(issuerSigned)
    }

    /// The positions of the items of `issuerSigned`; of two items with one identifier, the first.
    private static func itemPositions(_ issuerSigned: IssuerSigned) -> [String: [String: Int]] {
        var positions: [String: [String: Int]] = [:]
        for (nameSpace, items) in issuerSigned.nameSpaces ?? OrderedMap() {
            var identifiers: [String: Int] = [:]
            for (position, item) in items.enumerated() where identifiers[item.value.elementIdentifier] == nil {
                identifiers[item.value.elementIdentifier] = position
            }
            positions[nameSpace] = identifiers
        }
        return positions
    }

    /// `{"docType", "issuerSigned", "deviceKey"}` and, for test material, `"testMaterial"`, in
    /// deterministic order (RFC 8949 4.2.1); the embedded bytes inside IssuerSigned are written
    /// unchanged.
    public var cbor: CBOR {
        var map = CBORMap()
        map.append("docType", .textString(docType))
        map.append("issuerSigned", issuerSigned.cbor)
        map.append("deviceKey", COSEKey(privateKey: deviceKey).cbor)
        if !testMaterial.isEmpty {
            map.append("testMaterial", .array(testMaterial.map(CBOR.textString)))
        }
        return CBOR.map(map).sortedDeterministically()
    }

    /// Name space → the identifiers of the issuer-signed elements this credential holds, in
    /// issued order.
    public var elementIdentifiers: OrderedMap<String, [String]> {
        var result = OrderedMap<String, [String]>()
        for (nameSpace, items) in issuerSigned.nameSpaces ?? OrderedMap() {
            result[nameSpace] = items.map(\.value.elementIdentifier)
        }
        return result
    }

    /// The IssuerSignedItemBytes of one element, exactly as issued, or `nil` when the credential
    /// does not hold it.
    public func item(nameSpace: String, identifier: String) -> EmbeddedCBOR<IssuerSignedItem>? {
        guard let position = itemPositions[nameSpace]?[identifier] else { return nil }
        return issuerSigned.nameSpaces?[nameSpace]?[position]
    }

    /// The doc type, the number of elements, the device key's curve and whether it is test
    /// material; never the key.
    public var description: String {
        let count = (issuerSigned.nameSpaces ?? OrderedMap()).values.reduce(0) { $0 + $1.count }
        return "Credential(\(docType), \(count) elements, device key \(deviceKey.curve)\(testMaterial.isEmpty ? "" : ", TEST MATERIAL"))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Public fields only, so `dump` and debuggers never reach the private key.
    public var customMirror: Mirror {
        Mirror(self, children: ["docType": docType, "elementIdentifiers": elementIdentifiers, "deviceKeyCurve": deviceKey.curve])
    }
}
