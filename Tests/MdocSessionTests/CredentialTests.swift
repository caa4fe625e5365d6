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

    /// The cheapest scrypt parameters accepted, so that sealing in tests is quick.
    static let quick = try! SealedPrivateKey.Parameters(cost: SealedPrivateKey.Parameters.minimumCost, blockSize: 8, parallelization: 1)
    static let passphrase = Array("correct horse battery staple".utf8)

    @Test("a sealed credential holds the public key and the sealed key, never d, and opens with its passphrase")
    func sealedRoundTrip() throws {
        let software = try Fixture.credential(TestPKI())
        #expect(software.holdsKeyInTheClear)
        let sealed = try software.sealed(passphrase: Self.passphrase, parameters: Self.quick)
        #expect(!sealed.holdsKeyInTheClear)
        let encoded = sealed.encoded()
        #expect(try CBOR.decode(encoded).sortedDeterministically().encoded() == encoded)
        let map = try CBOR.decode(encoded).map(at: .root)
        #expect(map.entries.compactMap(\.key.textValue).sorted() == ["deviceKey", "docType", "issuerSigned", "sealedDeviceKey"])
        #expect(try #require(map[text: "deviceKey"]).map(at: .root)[int: COSEKey.Label.d] == nil)
        let sealedMap = try #require(map[text: "sealedDeviceKey"]).map(at: .root)
        #expect(sealedMap.entries.compactMap(\.key.textValue).sorted() == ["N", "ciphertext", "kdf", "nonce", "p", "r", "salt"])
        #expect(sealedMap[text: "kdf"] == .textString("scrypt"))
        #expect(sealedMap[text: "N"] == .unsignedInt(SealedPrivateKey.Parameters.minimumCost))
        // d is nowhere in the file.
        #expect(encoded.offsets(of: software.deviceKey.rawRepresentation).isEmpty)
        #expect("\(sealed)".contains("device key P-256 sealed"))

        let cbor = try CBOR.decode(encoded)
        let found = try #require(try Credential.sealedDeviceKey(in: cbor, at: .root))
        #expect(found == sealed.sealedDeviceKey)
        let key = try found.privateKey(passphrase: Self.passphrase, publicKey: Credential.publicDeviceKey(in: cbor, at: .root))
        let reread = try Credential(cbor: cbor, at: .root, unsealedKey: key)
        #expect(reread.deviceKey.rawRepresentation == software.deviceKey.rawRepresentation)
        #expect(reread.encoded() == encoded)
        #expect(reread.issuerSigned.encoded() == software.issuerSigned.encoded())
    }

    @Test("a sealed key does not open with a wrong passphrase, nor moved into another credential (its public key is the AAD)")
    func sealedKeyBinding() throws {
        let first = try Fixture.credential(TestPKI()).sealed(passphrase: Self.passphrase, parameters: Self.quick)
        let second = try Fixture.credential(TestPKI())
        let sealed = try #require(first.sealedDeviceKey)

        let wrong = #expect(throws: CryptoError.self) {
            try sealed.privateKey(passphrase: Array("correct horse battery stapler".utf8), publicKey: first.deviceKey.publicKey)
        }
        #expect(wrong?.code == .authenticationFailure)
        #expect(wrong?.reason == "wrong passphrase or altered sealed key")

        // The first credential's sealed key swapped into the second, whose public key it is not.
        var swapped = try CBOR.decode(second.sealed(passphrase: Self.passphrase, parameters: Self.quick).encoded()).map(at: .root)
        swapped[text: "sealedDeviceKey"] = sealed.cbor
        let cbor = CBOR.map(swapped)
        let moved = #expect(throws: CryptoError.self) {
            try #require(try Credential.sealedDeviceKey(in: cbor, at: .root))
                .privateKey(passphrase: Self.passphrase, publicKey: Credential.publicDeviceKey(in: cbor, at: .root))
        }
        #expect(moved?.code == .authenticationFailure)
        // Opened for its own credential, the key is still not the second credential's.
        let key = try sealed.privateKey(passphrase: Self.passphrase, publicKey: first.deviceKey.publicKey)
        let foreign = #expect(throws: CBORError.self) { try Credential(cbor: cbor, at: .root, unsealedKey: key) }
        #expect(foreign?.path.description == "deviceKey")
    }

    @Test("a sealed credential is refused without its key, with d too, with a reference too, and an unsealed key without a sealed one")
    func sealedRefusals() throws {
        let software = try Fixture.credential(TestPKI())
        let sealed = try software.sealed(passphrase: Self.passphrase, parameters: Self.quick)
        let notOpened = #expect(throws: CBORError.self) { try Credential(cbor: sealed.cbor, at: .root) }
        #expect(notOpened?.path.description == "sealedDeviceKey")
        #expect(notOpened?.reason.contains("passphrase") == true)

        var withD = try sealed.cbor.map(at: .root)
        withD[text: "deviceKey"] = COSEKey(privateKey: software.deviceKey).cbor
        #expect(throws: CBORError.self) { try Credential(cbor: .map(withD), at: .root) }
        var withReference = try sealed.cbor.map(at: .root)
        withReference[text: "deviceKeyReference"] = Self.reference.cbor
        #expect(throws: CBORError.self) { try Credential(cbor: .map(withReference), at: .root, unsealedKey: software.deviceKey) }
        #expect(throws: CBORError.self) {
            try Credential(cbor: .map(withReference), at: .root, heldKey: software.deviceKey, reference: Self.reference)
        }
        #expect(throws: CBORError.self) { try Credential(cbor: software.cbor, at: .root, unsealedKey: software.deviceKey) }

        let unbound = Credential.unboundCBOR(docType: software.docType, issuerSigned: software.issuerSigned, deviceKey: software.deviceKey.publicKey)
        let bound = try Credential(cbor: unbound, at: .root, heldKey: software.deviceKey, reference: Self.reference)
        #expect(throws: CryptoError(.invalidKey, "")) { try bound.sealed(passphrase: Self.passphrase, parameters: Self.quick) }
    }

    @Test("hostile sealedDeviceKey maps are refused with their path before any scrypt work", arguments: [
        ("N", CBOR.unsignedInt(1 << 30), "scrypt N"),
        ("N", CBOR.unsignedInt(SealedPrivateKey.Parameters.minimumCost + 2), "power of two"),
        ("N", CBOR.unsignedInt(UInt64.max), "scrypt N"),
        ("r", CBOR.unsignedInt(UInt64(UInt32.max) + 1), "out of range"),
        ("r", CBOR.unsignedInt(1024), "scrypt r"),
        ("p", CBOR.unsignedInt(1_000_000), "scrypt p"),
        ("p", CBOR.textString("1"), "expected an unsigned integer"),
        ("kdf", CBOR.textString("pbkdf2"), "kdf is not"),
        ("salt", CBOR.byteString([1, 2, 3]), "salt has 3 bytes"),
        ("nonce", CBOR.byteString([UInt8](repeating: 0, count: 13)), "nonce has 13 bytes"),
        ("ciphertext", CBOR.byteString([UInt8](repeating: 0, count: 16)), "no more than its 16-byte tag"),
    ])
    func hostileSealedKeys(field: String, value: CBOR, says: String) throws {
        let sealed = try Fixture.credential(TestPKI()).sealed(passphrase: Self.passphrase, parameters: Self.quick)
        var map = try sealed.cbor.map(at: .root)
        var sealedMap = try #require(map[text: "sealedDeviceKey"]).map(at: .root)
        sealedMap[text: field] = value
        map[text: "sealedDeviceKey"] = .map(sealedMap)
        let error = #expect(throws: CBORError.self) { try Credential.sealedDeviceKey(in: .map(map), at: .root) }
        #expect(error?.reason.contains(says) == true, "\(String(describing: error))")
        #expect(error?.path.description.hasPrefix("sealedDeviceKey") == true)
    }
}
