import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import Testing
import MdocTestSupport

@Suite("Credential file (IssuerSigned of ISO/IEC 18013-5 8.3.2.1.2.2 with the SDeviceKey of 9.1.3)")
struct CredentialTests {
    typealias Fixture = IssuanceFixture

    @Test("a credential round-trips, keeping IssuerSigned byte for byte", arguments: [Curve.p256, .p384, .ed25519, .x25519])
    func roundTrip(deviceCurve: Curve) throws {
        let credential = try Fixture.credential(TestPKI(), deviceCurve: deviceCurve)
        let encoded = credential.encoded()
        let decoded = try Credential(encoded: encoded)
        #expect(decoded.docType == credential.docType)
        #expect(decoded.issuerSigned.encoded() == credential.issuerSigned.encoded())
        #expect(decoded.deviceKey.derRepresentation == credential.deviceKey.derRepresentation)
        #expect(decoded.mobileSecurityObject.bytes == credential.mobileSecurityObject.bytes)
        #expect(decoded.encoded() == encoded)
        // The file is one deterministically encoded map with the three documented keys.
        let item = try CBOR.decode(encoded)
        #expect(item.sortedDeterministically().encoded() == encoded)
        #expect(try item.map(at: .root).entries.compactMap(\.key.textValue).sorted() == ["deviceKey", "docType", "issuerSigned"])
        #expect(Credential.fileExtension == "mdoc")
    }

    @Test("the issued item bytes survive the file unchanged, even in a non-preferred encoding")
    func itemBytesKept() throws {
        let credential = try Fixture.credential(TestPKI())
        let items = try #require(credential.issuerSigned.nameSpaces?[Fixture.nameSpace])
        let encoded = credential.encoded()
        for item in items {
            #expect(encoded.offsets(of: Array(item.bytes)).count == 1)
        }
        // Rewrite one item's digestID head in a longer form inside the file: the item's bytes
        // must be read and written back as they are.
        let first = try #require(items.first)
        let digestIDKey: [UInt8] = [0x68] + Array("digestID".utf8)
        let digestID = UInt8(first.value.digestID)
        let longer = try Array(first.bytes).replacingOnly(digestIDKey + [digestID], with: digestIDKey + [0x18, digestID])
        let tampered = try encoded.replacingOnly(
            CBOR.encodedCBOR(first.bytes).encoded(), with: CBOR.encodedCBOR(longer).encoded())
        let decoded = try Credential(encoded: tampered)
        #expect(decoded.issuerSigned.nameSpaces?[Fixture.nameSpace]?.first.map { Array($0.bytes) } == longer)
        #expect(decoded.encoded() == tampered)
    }

    @Test("elementIdentifiers and item(nameSpace:identifier:) describe what the credential holds")
    func contents() throws {
        let credential = try Fixture.credential(TestPKI())
        #expect(credential.elementIdentifiers.keys == [Fixture.nameSpace])
        #expect(credential.elementIdentifiers[Fixture.nameSpace] == Fixture.elements.map(\.identifier))
        #expect(credential.item(nameSpace: Fixture.nameSpace, identifier: "given_name")?.value.elementValue == "Jane")
        #expect(credential.item(nameSpace: Fixture.nameSpace, identifier: "portrait") == nil)
        #expect(credential.item(nameSpace: "org.example", identifier: "given_name") == nil)
    }

    @Test("the private key is never printed")
    func keyNotPrinted() throws {
        let credential = try Fixture.credential(TestPKI())
        let d = Hex.encode(credential.deviceKey.rawRepresentation)
        var dumped = ""
        dump(credential, to: &dumped)
        for text in [credential.description, credential.debugDescription, String(describing: credential), String(reflecting: credential), dumped] {
            #expect(!text.lowercased().contains(d.lowercased()))
            #expect(!text.contains("rawRepresentation"))
        }
        #expect(credential.description == "Credential(org.iso.18013.5.1.mDL, 5 elements, device key P-256)")
    }

    @Test("a device key that is not the MSO's is refused, on decoding and on construction")
    func foreignDeviceKey() throws {
        let credential = try Fixture.credential(TestPKI())
        let otherKey = try PrivateKey(generating: .p256)
        let error = #expect(throws: CBORError.self) {
            try Credential(docType: credential.docType, issuerSigned: credential.issuerSigned, deviceKey: otherKey)
        }
        #expect(error?.code == .invalidValue)
        #expect(error?.path.description == "deviceKey")

        var map = try CBOR.decode(credential.encoded()).map(at: .root)
        map[text: "deviceKey"] = COSEKey(privateKey: otherKey).cbor
        let decodeError = #expect(throws: CBORError.self) { try Credential(encoded: CBOR.map(map).encoded()) }
        #expect(decodeError?.reason.contains("not the private key of the MSO deviceKey") == true)
    }

    @Test("a doc type other than the MSO's is refused")
    func foreignDocType() throws {
        let credential = try Fixture.credential(TestPKI())
        let error = #expect(throws: CBORError.self) {
            try Credential(docType: DocType.eudiPID, issuerSigned: credential.issuerSigned, deviceKey: credential.deviceKey)
        }
        #expect(error?.code == .invalidValue)
        #expect(error?.reason.contains(DocType.eudiPID) == true)
        #expect(error?.path.description.hasSuffix("docType") == true)
    }

    @Test("a device key without d, or missing keys, are refused with their path")
    func malformedFiles() throws {
        let credential = try Fixture.credential(TestPKI())
        var map = try CBOR.decode(credential.encoded()).map(at: .root)
        map[text: "deviceKey"] = COSEKey(publicKey: credential.deviceKey.publicKey).cbor
        let noPrivate = #expect(throws: CBORError.self) { try Credential(encoded: CBOR.map(map).encoded()) }
        #expect(noPrivate?.path.description == "deviceKey")

        for key in ["docType", "issuerSigned", "deviceKey"] {
            var partial = try CBOR.decode(credential.encoded()).map(at: .root)
            partial[text: key] = nil
            let error = #expect(throws: CBORError.self) { try Credential(encoded: CBOR.map(partial).encoded()) }
            #expect(error?.code == .missingValue)
        }
    }

    /// A token's key, for these tests a software key standing in for it: the form of the file
    /// does not depend on where the key is.
    static let reference = DeviceKeyReference.pkcs11(uri: "pkcs11:token=wallet;object=device;type=private", module: "/usr/lib/softhsm/libsofthsm2.so")

    @Test("a credential whose key is held by a token holds its public half and the reference, and round-trips with the key")
    func heldKeyRoundTrip() throws {
        let software = try Fixture.credential(TestPKI())
        let unbound = Credential.unboundCBOR(docType: software.docType, issuerSigned: software.issuerSigned, deviceKey: software.deviceKey.publicKey)
        let bound = try Credential(cbor: unbound, at: .root, heldKey: software.deviceKey, reference: Self.reference)
        #expect(bound.deviceKeyReference == Self.reference)

        let encoded = bound.encoded()
        let map = try CBOR.decode(encoded).map(at: .root)
        #expect(map.entries.compactMap(\.key.textValue).sorted() == ["deviceKey", "deviceKeyReference", "docType", "issuerSigned"])
        let deviceKey = try #require(map[text: "deviceKey"]).map(at: .root)
        #expect(deviceKey[int: COSEKey.Label.d] == nil)
        #expect(try DeviceKeyReference(cbor: #require(map[text: "deviceKeyReference"]), at: .root) == Self.reference)
        #expect(try Credential.deviceKeyReference(in: CBOR.decode(encoded), at: .root) == Self.reference)

        let reread = try Credential(cbor: CBOR.decode(encoded), at: .root, heldKey: software.deviceKey, reference: Self.reference)
        #expect(reread.encoded() == encoded)
        #expect(reread.issuerSigned.encoded() == software.issuerSigned.encoded())
        #expect("\(reread)".contains("held by the PKCS#11 key pkcs11:token=wallet"))
    }

    @Test("a held key is refused when it is not the MSO's, when another key is named, or without it; a private key with a reference too")
    func heldKeyRefusals() throws {
        let software = try Fixture.credential(TestPKI())
        let unbound = Credential.unboundCBOR(docType: software.docType, issuerSigned: software.issuerSigned, deviceKey: software.deviceKey.publicKey)
        let bound = try Credential(cbor: unbound, at: .root, heldKey: software.deviceKey, reference: Self.reference).cbor

        let notBound = #expect(throws: CBORError.self) { try Credential(cbor: unbound, at: .root) }
        #expect(notBound?.reason.contains("mdoc-holder import --key-in") == true)
        let notLoaded = #expect(throws: CBORError.self) { try Credential(cbor: bound, at: .root) }
        #expect(notLoaded?.path.description == "deviceKeyReference")
        let other = try PrivateKey(generating: .p256)
        let wrongKey = #expect(throws: CBORError.self) { try Credential(cbor: bound, at: .root, heldKey: other, reference: Self.reference) }
        #expect(wrongKey?.path.description == "deviceKey")
        let elsewhere = DeviceKeyReference.tpm2(keyFile: "/var/lib/wallet/device.tss2", tcti: "device:/dev/tpmrm0")
        let wrongReference = #expect(throws: CBORError.self) {
            try Credential(cbor: bound, at: .root, heldKey: software.deviceKey, reference: elsewhere)
        }
        #expect(wrongReference?.path.description == "deviceKeyReference")

        var both = try software.cbor.map(at: .root)
        both[text: "deviceKeyReference"] = Self.reference.cbor
        #expect(throws: CBORError.self) { try Credential(cbor: .map(both), at: .root) }
        #expect(throws: CBORError.self) { try Credential(cbor: software.cbor, at: .root, heldKey: software.deviceKey, reference: Self.reference) }

        var relative = try Self.reference.cbor.map(at: .root)
        relative[text: "module"] = .textString("libsofthsm2.so")
        #expect(throws: CBORError.self) { try DeviceKeyReference(cbor: .map(relative), at: .root) }
    }
}
