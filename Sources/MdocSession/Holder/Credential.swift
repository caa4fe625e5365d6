import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

/// An issued document as the mdoc holder keeps it: the issuer-signed data (ISO/IEC 18013-5
/// 8.3.2.1.2.2 IssuerSigned, with the MSO of 9.1.2.4) and the private static device key
/// (SDeviceKey, 9.1.3) whose public half the MSO holds as `deviceKey`: in the file, in the clear
/// or sealed with a passphrase (``SealedDeviceKey``), or held by a PKCS#11 token or a TPM 2.0 that
/// the file names (``DeviceKeyReference``).
///
/// The credential file (extension ``fileExtension``) is this project's format, one CBOR map
/// written in deterministic encoding (RFC 8949 section 4.2.1):
///
/// ```
/// Credential = {
///   "docType": tstr,               ; equal to the MSO docType
///   "issuerSigned": IssuerSigned,  ; 8.3.2.1.2.2: every IssuerSignedItemBytes and the IssuerAuth
///   "deviceKey": COSE_Key,         ; RFC 9052 section 7: with "d" (-4), the private SDeviceKey;
///                                  ; without, its public half, the private key being held elsewhere
///   ? "deviceKeyReference": DeviceKeyReference, ; where: a PKCS#11 token or a TPM (no "d" then)
///   ? "sealedDeviceKey": SealedDeviceKey,       ; or: sealed with a passphrase (no "d" then)
///   ? "testMaterial": [+ tstr]     ; made to fail verification: why, one note per reason
/// }
/// ```
///
/// A `deviceKey` without `d` and without `deviceKeyReference` is a document issued for a key
/// the holder keeps in hardware (`mdoc-issuer issue --device-key PUBLIC`), not yet bound to it:
/// it cannot be presented until `mdoc-holder import --key-in` names the key, checks that it is
/// the MSO's and writes the reference. A credential with a reference is read with
/// ``init(cbor:at:heldKey:reference:)``, its key loaded first (``DeviceKeyReference/privateKey(pin:)``),
/// since reading one asks the token for its PIN; a credential with a sealed key is read with
/// ``init(cbor:at:unsealedKey:)``, its key opened first with the passphrase
/// (``SealedDeviceKey/privateKey(passphrase:publicKey:)``). ``sealed(passphrase:parameters:)``
/// seals the key of a credential that holds it in the clear.
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
/// its curve only. The file holds a private key, or names one, and should be written with mode 0600
/// (docs/architecture.md rule 8).
public struct Credential: CBORRepresentable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The extension of credential files, `mdoc`.
    public static let fileExtension = "mdoc"

    /// The document type, such as `DocType.mDL`.
    public let docType: String
    /// The issuer-signed data elements and the IssuerAuth, as issued.
    public let issuerSigned: IssuerSigned
    /// The private static device key (SDeviceKey) of the MSO `deviceKey`; for a key held by a
    /// token or a TPM, the handle through which it signs and agrees keys there.
    public let deviceKey: PrivateKey
    /// Where ``deviceKey`` is held when the file does not hold it; `nil` for a key in the file.
    public let deviceKeyReference: DeviceKeyReference?
    /// ``deviceKey`` as the file holds it sealed with a passphrase; `nil` for a key in the clear
    /// or held by a token or a TPM.
    public let sealedDeviceKey: SealedDeviceKey?
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
        try self.init(docType: docType, issuerSigned: issuerSigned, deviceKey: deviceKey, stored: .clear, testMaterial: [], at: .root)
    }

    /// Reads the map described on the type, whose device key is in it; error paths start at
    /// `path`. A credential whose key is held elsewhere is refused (code `invalidValue`), saying
    /// where.
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        try self.init(cbor: cbor, at: path, loaded: nil)
    }

    /// Reads the map described on the type, whose device key `heldKey` is held by `reference`
    /// (loaded by the caller): either the file names `reference`, or it names none and holds the
    /// public key only (a document not yet bound to its key). Throws `CBORError` (code
    /// `invalidValue`) when the file holds a private key or names another reference, or when
    /// `heldKey` is not the key of the MSO.
    public init(cbor: CBOR, at path: CBORPath, heldKey: PrivateKey, reference: DeviceKeyReference) throws(CBORError) {
        try self.init(cbor: cbor, at: path, loaded: .held(heldKey, reference))
    }

    /// Reads the map described on the type, whose device key the file holds sealed and the
    /// caller opened as `unsealedKey` (``SealedDeviceKey/privateKey(passphrase:publicKey:)``).
    /// Throws `CBORError` (code `invalidValue`) when the file holds no sealed key, or when
    /// `unsealedKey` is not the key of `deviceKey` and of the MSO.
    public init(cbor: CBOR, at path: CBORPath, unsealedKey: PrivateKey) throws(CBORError) {
        try self.init(cbor: cbor, at: path, loaded: .unsealed(unsealedKey))
    }

    /// The ``DeviceKeyReference`` a credential's map names, read before the credential so that
    /// its key can be loaded; `nil` when it names none.
    public static func deviceKeyReference(in cbor: CBOR, at path: CBORPath) throws(CBORError) -> DeviceKeyReference? {
        guard let reference = try cbor.map(at: path)[text: "deviceKeyReference"] else { return nil }
        return try DeviceKeyReference(cbor: reference, at: path.appending(key: "deviceKeyReference"))
    }

    /// The ``SealedDeviceKey`` a credential's map holds, read before the credential so that it
    /// can be opened; `nil` when it holds none.
    public static func sealedDeviceKey(in cbor: CBOR, at path: CBORPath) throws(CBORError) -> SealedDeviceKey? {
        guard let sealed = try cbor.map(at: path)[text: "sealedDeviceKey"] else { return nil }
        return try SealedDeviceKey(cbor: sealed, at: path.appending(key: "sealedDeviceKey"))
    }

    /// The public half of the device key of a credential's map (its `deviceKey` COSE_Key), read
    /// before the credential: the key a sealed device key is opened for.
    public static func publicDeviceKey(in cbor: CBOR, at path: CBORPath) throws(CBORError) -> PublicKey {
        let keyPath = path.appending(key: "deviceKey")
        let coseKey = try COSEKey(cbor: cbor.map(at: path).required("deviceKey", at: path), at: keyPath)
        do {
            return try coseKey.publicKey()
        } catch {
            throw CBORError(.invalidValue, "the device key is not a usable public key: \(error)", path: keyPath)
        }
    }

    /// The map of a document issued for the public device key `deviceKey` whose private half
    /// the holder keeps in a token or a TPM, still to be bound to it (see the type's
    /// description): `{"docType", "issuerSigned", "deviceKey"}` with no `d`.
    public static func unboundCBOR(docType: String, issuerSigned: IssuerSigned, deviceKey: PublicKey) -> CBOR {
        var map = CBORMap()
        map.append("docType", .textString(docType))
        map.append("issuerSigned", issuerSigned.cbor)
        map.append("deviceKey", COSEKey(publicKey: deviceKey).cbor)
        return CBOR.map(map).sortedDeterministically()
    }

    /// A device key the caller loaded before reading the credential.
    private enum LoadedKey {
        /// Held by the token or TPM `reference` names.
        case held(PrivateKey, DeviceKeyReference)
        /// Opened from the file's sealed key with the passphrase.
        case unsealed(PrivateKey)
    }

    /// How the file stores the device key.
    private enum StoredKey {
        /// In the clear, `d` of the COSE_Key.
        case clear
        /// Held by a token or a TPM.
        case held(DeviceKeyReference)
        /// Sealed with a passphrase.
        case sealed(SealedDeviceKey)
    }

    private init(cbor: CBOR, at path: CBORPath, loaded: LoadedKey?) throws(CBORError) {
        let map = try cbor.map(at: path)
        let docType = try map.required("docType", at: path).text(at: path.appending(key: "docType"))
        let issuerSigned = try IssuerSigned(cbor: map.required("issuerSigned", at: path), at: path.appending(key: "issuerSigned"))
        let keyPath = path.appending(key: "deviceKey")
        let coseKey = try COSEKey(cbor: map.required("deviceKey", at: path), at: keyPath)
        let reference = try Self.deviceKeyReference(in: cbor, at: path)
        let sealed = try Self.sealedDeviceKey(in: cbor, at: path)
        let deviceKey: PrivateKey
        let stored: StoredKey
        switch (coseKey.d, reference, sealed, loaded) {
        case (.some, nil, nil, nil):
            do {
                deviceKey = try coseKey.privateKey()
            } catch {
                throw CBORError(.invalidValue, "the device key is not a usable private key: \(error)", path: keyPath)
            }
            stored = .clear
        case (.some, _, _, _):
            throw CBORError(
                .invalidValue,
                reference != nil ? "the device key is in the file and names a token too"
                    : sealed != nil ? "the device key is in the file both in the clear and sealed" : "the device key is in the file; it is held by no token and not sealed",
                path: keyPath)
        case let (nil, _, nil, .held(key, given)):
            if let reference, reference != given {
                throw CBORError(
                    .invalidValue, "the device key is held by \(reference), not by \(given)", path: path.appending(key: "deviceKeyReference"))
            }
            guard (try? coseKey.publicKey()) == key.publicKey else {
                throw CBORError(.invalidValue, "\(given) is not the device key of this credential", path: keyPath)
            }
            deviceKey = key
            stored = .held(given)
        case (nil, _, .some, .held):
            throw CBORError(.invalidValue, "the device key is sealed in the file; it is held by no token", path: path.appending(key: "sealedDeviceKey"))
        case let (nil, nil, .some(sealed), .unsealed(key)):
            guard (try? coseKey.publicKey()) == key.publicKey else {
                throw CBORError(.invalidValue, "the unsealed key is not the device key of this credential", path: keyPath)
            }
            deviceKey = key
            stored = .sealed(sealed)
        case (nil, _, nil, .unsealed):
            throw CBORError(.invalidValue, "the file holds no sealed device key", path: keyPath)
        case let (nil, .some(reference), nil, nil):
            throw CBORError(
                .invalidValue, "the device key is held by \(reference), which must be loaded to read it", path: path.appending(key: "deviceKeyReference"))
        case (nil, nil, .some, nil):
            throw CBORError(
                .invalidValue, "the device key is sealed with a passphrase, which must be given to read it", path: path.appending(key: "sealedDeviceKey"))
        case (nil, nil, nil, nil):
            throw CBORError(
                .invalidValue, "the file holds the public device key only; bind it to the key in the token or TPM with `mdoc-holder import --key-in`",
                path: keyPath)
        case (nil, .some, .some, _):
            throw CBORError(.invalidValue, "the device key is sealed in the file and names a token too", path: path.appending(key: "sealedDeviceKey"))
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
        try self.init(docType: docType, issuerSigned: issuerSigned, deviceKey: deviceKey, stored: stored, testMaterial: testMaterial, at: path)
    }

    private init(
        docType: String, issuerSigned: IssuerSigned, deviceKey: PrivateKey, stored: StoredKey, testMaterial: [String], at path: CBORPath
    ) throws(CBORError) {
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
        switch stored {
        case .clear:
            self.deviceKeyReference = nil
            self.sealedDeviceKey = nil
        case let .held(reference):
            self.deviceKeyReference = reference
            self.sealedDeviceKey = nil
        case let .sealed(sealed):
            self.deviceKeyReference = nil
            self.sealedDeviceKey = sealed
        }
        self.mobileSecurityObject = mso
        self.testMaterial = testMaterial
        self.itemPositions = Self.itemPositions(issuerSigned)
    }

    /// This credential with its device key sealed with `passphrase` and `parameters`
    /// (``SealedDeviceKey``): written, it holds the public key and the sealed key, never `d`.
    /// Throws `CryptoError` (code `invalidKey`) for a key held by a token or a TPM, which is not
    /// in the file to seal, `invalidParameter` for an empty passphrase.
    public func sealed(passphrase: [UInt8], parameters: SealedPrivateKey.Parameters = .standard) throws(CryptoError) -> Credential {
        if let deviceKeyReference {
            throw CryptoError(.invalidKey, "the device key is held by \(deviceKeyReference); the file has no key to seal")
        }
        return Credential(copying: self, sealed: try SealedDeviceKey(sealing: deviceKey, passphrase: passphrase, parameters: parameters))
    }

    /// `other` with its device key stored as `sealed`.
    private init(copying other: Credential, sealed: SealedDeviceKey) {
        docType = other.docType
        issuerSigned = other.issuerSigned
        deviceKey = other.deviceKey
        deviceKeyReference = nil
        sealedDeviceKey = sealed
        mobileSecurityObject = other.mobileSecurityObject
        testMaterial = other.testMaterial
        itemPositions = other.itemPositions
    }

    /// `true` when the file holds the private device key in the clear: neither sealed nor held
    /// by a token or a TPM.
    public var holdsKeyInTheClear: Bool { deviceKeyReference == nil && sealedDeviceKey == nil }

    /// A credential just issued by MdocIssuance's `DocumentIssuer`, whose parts agree by
    /// construction.
    package init(
        docType: String, issuerSigned: IssuerSigned, deviceKey: PrivateKey, mobileSecurityObject: EmbeddedCBOR<MobileSecurityObject>,
        testMaterial: [String] = []
    ) {
        self.docType = docType
        self.issuerSigned = issuerSigned
        self.deviceKey = deviceKey
        self.deviceKeyReference = nil
        self.sealedDeviceKey = nil
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

    /// `{"docType", "issuerSigned", "deviceKey"}`, for a key held elsewhere `"deviceKeyReference"`
    /// and for a sealed key `"sealedDeviceKey"` (and `"deviceKey"` without `d`), and, for test material, `"testMaterial"`, in
    /// deterministic order (RFC 8949 4.2.1); the embedded bytes inside IssuerSigned are written
    /// unchanged.
    public var cbor: CBOR {
        var map = CBORMap()
        map.append("docType", .textString(docType))
        map.append("issuerSigned", issuerSigned.cbor)
        if let deviceKeyReference {
            map.append("deviceKey", COSEKey(publicKey: deviceKey.publicKey).cbor)
            map.append("deviceKeyReference", deviceKeyReference.cbor)
        } else if let sealedDeviceKey {
            map.append("deviceKey", COSEKey(publicKey: deviceKey.publicKey).cbor)
            map.append("sealedDeviceKey", sealedDeviceKey.cbor)
        } else {
            map.append("deviceKey", COSEKey(privateKey: deviceKey).cbor)
        }
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
        let held = deviceKeyReference.map { " held by \($0)" } ?? (sealedDeviceKey == nil ? "" : " sealed")
        return "Credential(\(docType), \(count) elements, device key \(deviceKey.curve)\(held)\(testMaterial.isEmpty ? "" : ", TEST MATERIAL"))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Public fields only, so `dump` and debuggers never reach the private key.
    public var customMirror: Mirror {
        Mirror(self, children: ["docType": docType, "elementIdentifiers": elementIdentifiers, "deviceKeyCurve": deviceKey.curve])
    }
}
