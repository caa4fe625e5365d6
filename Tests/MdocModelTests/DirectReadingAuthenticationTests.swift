import MdocCBOR
import MdocCOSE
import MdocCrypto
@testable import MdocModel
import Testing

/// COSE_Sign1, COSE_Mac0, DeviceSigned, ValidityInfo and DeviceKeyInfo are read straight from
/// their bytes when they have the form the CDDL gives them, and decoded in full otherwise: either
/// way the value, or the error, must be the one that decoding them in full gives.
@Suite("COSE messages, DeviceSigned, ValidityInfo and DeviceKeyInfo read from their bytes equal the decoded ones")
struct DirectReadingAuthenticationTests {
    /// Expects that `item`, encoded, is read by `read` (as the whole input) when `direct` and not
    /// otherwise, that what it reads is what `decode` gives for the decoded item, and returns what
    /// decoding gives.
    @discardableResult
    static func expectSame<Value>(
        _ item: CBOR, direct: Bool, read: (inout CBORHeadReader) -> Value?, decode: (CBOR) throws(CBORError) -> Value,
        equal: (Value, Value) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Result<Value, CBORError> {
        let bytes = CBORBytes(item.encoded())
        let readValue = CBORHeadReader.read(bytes) { reader in
            let value = read(&reader)
            return reader.isAtEnd ? value : nil
        }
        #expect((readValue != nil) == direct, "\(item.diagnosticNotation())", sourceLocation: sourceLocation)
        let decoded = Result { () throws(CBORError) in try decode(CBOR.decode(bytes)) }
        if let readValue {
            switch decoded {
            case .success(let value): #expect(equal(readValue, value), sourceLocation: sourceLocation)
            case .failure(let error): Issue.record("read a value where decoding fails with \(error)", sourceLocation: sourceLocation)
            }
        }
        return decoded
    }

    static func expectSameSign1(_ item: CBOR, direct: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        expectSame(
            item, direct: direct, read: { COSESign1.read(&$0, depth: 0) }, decode: { (item) throws(CBORError) in try COSESign1(cbor: item, at: .root) },
            equal: ==, sourceLocation: sourceLocation)
    }

    static func expectSameMac0(_ item: CBOR, direct: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        expectSame(
            item, direct: direct, read: { COSEMac0.read(&$0, depth: 0) }, decode: { (item) throws(CBORError) in try COSEMac0(cbor: item, at: .root) },
            equal: ==, sourceLocation: sourceLocation)
    }

    /// The four elements of the Annex D issuerAuth.
    static func issuerAuthElements() throws -> [CBOR] {
        try #require(try CBOR.decode(annexD("issuer_auth")).arrayValue)
    }

    @Test("COSE_Sign1 and COSE_Mac0: the Annex D IssuerAuth, ReaderAuth and DeviceMac, and a DeviceSignature, read as decoded")
    func coseMessages() throws {
        Self.expectSameSign1(try CBOR.decode(annexD("issuer_auth")), direct: true)
        Self.expectSameSign1(try CBOR.decode(annexD("reader_auth")), direct: true)
        let deviceAuth = try #require(try CBOR.decode(annexD("device_signed")).mapValue?[text: "deviceAuth"]?.mapValue)
        Self.expectSameMac0(try #require(deviceAuth[text: "deviceMac"]), direct: true)
        let signature = try COSESign1.sign(
            payload: annexD("device_authentication_bytes"), detached: true, algorithm: .es256, key: try PrivateKey(generating: .p256))
        Self.expectSameSign1(signature.cbor, direct: true)
        // The read message verifies as the decoded one does.
        let read = try #require(CBORHeadReader.read(CBORBytes(annexD("issuer_auth"))) { COSESign1.read(&$0, depth: 0) })
        #expect(read.isValidSignature(publicKey: try Certificate(derEncoded: annexD("ds_cert")).publicKey))
        #expect(read.encoded() == annexD("issuer_auth"))
    }

    @Test("COSE messages in other forms fall back to decoding, with its value or its error")
    func coseFallbacks() throws {
        let elements = try Self.issuerAuthElements()
        func with(_ index: Int, _ value: CBOR) -> CBOR {
            var changed = elements
            changed[index] = value
            return .array(changed)
        }
        // Tagged: the decoder's value.
        Self.expectSameSign1(.tagged(COSESign1.tag, .array(elements)), direct: false)
        Self.expectSameMac0(.tagged(COSEMac0.tag, .array(elements)), direct: false)
        // Three or five elements; each element of another type.
        Self.expectSameSign1(.array(Array(elements.prefix(3))), direct: false)
        Self.expectSameSign1(.array(elements + [.null]), direct: false)
        Self.expectSameSign1(with(0, .map(CBORMap())), direct: false)
        Self.expectSameSign1(with(1, .byteString([0xa0])), direct: false)
        Self.expectSameSign1(with(2, 7), direct: false)
        Self.expectSameSign1(with(3, .null), direct: false)
        Self.expectSameMac0(with(3, "tag"), direct: false)
        // Headers the decoder rejects: a protected header that is not a map, a label in both
        // buckets, an unknown critical label, a bad x5chain.
        Self.expectSameSign1(with(0, .byteString([0x01])), direct: false)
        Self.expectSameSign1(with(1, .map(CBORMap([.init(key: 1, value: -7)]))), direct: false)
        Self.expectSameSign1(with(0, .byteString(CBOR.map(CBORMap([.init(key: 1, value: -7), .init(key: 2, value: [99])])).encoded())), direct: false)
        Self.expectSameSign1(with(1, .map(CBORMap([.init(key: 33, value: [])]))), direct: false)
        // A detached payload and an empty protected header read as decoded.
        Self.expectSameSign1(with(2, .null), direct: true)
        Self.expectSameSign1(with(2, .byteString([])), direct: true)
        Self.expectSameSign1(with(0, .byteString([])), direct: true)
        // An unprotected map with a float, which the decoder reads for the reader.
        Self.expectSameSign1(with(1, .map(CBORMap([.init(key: 99, value: .float(1.5))]))), direct: true)
    }

    static func expectSameDeviceSigned(_ item: CBOR, direct: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        expectSame(
            item, direct: direct, read: { DeviceSigned.read(&$0) }, decode: { (item) throws(CBORError) in try DeviceSigned(cbor: item, at: .root) },
            equal: { $0.cbor == $1.cbor && $0.nameSpaces.taggedBytes == $1.nameSpaces.taggedBytes }, sourceLocation: sourceLocation)
    }

    @Test("DeviceSigned: the Annex D one (DeviceMac) and one with a DeviceSignature read as decoded; other forms fall back")
    func deviceSigned() throws {
        let annexDSigned = try CBOR.decode(annexD("device_signed"))
        Self.expectSameDeviceSigned(annexDSigned, direct: true)
        let signature = try COSESign1.sign(
            payload: annexD("device_authentication_bytes"), detached: true, algorithm: .es256, key: try PrivateKey(generating: .p256))
        let signed = replacing("deviceAuth", with: ["deviceSignature": signature.cbor], in: annexDSigned)
        Self.expectSameDeviceSigned(signed, direct: true)
        let mac = try #require(annexDSigned.mapValue?[text: "deviceAuth"]?.mapValue?[text: "deviceMac"])
        // Both authentications, neither, an unknown one, a key more, a key missing.
        Self.expectSameDeviceSigned(replacing("deviceAuth", with: ["deviceSignature": signature.cbor, "deviceMac": mac], in: annexDSigned), direct: false)
        Self.expectSameDeviceSigned(replacing("deviceAuth", with: [:], in: annexDSigned), direct: false)
        Self.expectSameDeviceSigned(replacing("deviceAuth", with: ["deviceTag": mac], in: annexDSigned), direct: false)
        Self.expectSameDeviceSigned(replacing("extension", with: 1, in: annexDSigned), direct: false)
        Self.expectSameDeviceSigned(removing("nameSpaces", from: annexDSigned), direct: false)
        // DeviceNameSpacesBytes untagged, empty, or not a map; device-signed elements.
        Self.expectSameDeviceSigned(replacing("nameSpaces", with: .byteString([0xa0]), in: annexDSigned), direct: false)
        Self.expectSameDeviceSigned(replacing("nameSpaces", with: .encodedCBOR([UInt8]()), in: annexDSigned), direct: false)
        Self.expectSameDeviceSigned(replacing("nameSpaces", with: .encodedCBOR([0x01]), in: annexDSigned), direct: false)
        let elements: CBOR = [.textString(NameSpace.mDL): ["given_name": "Erika"]]
        Self.expectSameDeviceSigned(replacing("nameSpaces", with: .encodedCBOR(elements.encoded()), in: annexDSigned), direct: true)
        // A DeviceMac tagged, and a DeviceSignature whose signature is not a byte string.
        Self.expectSameDeviceSigned(replacing("deviceAuth", with: ["deviceMac": .tagged(COSEMac0.tag, mac)], in: annexDSigned), direct: false)
        var badSignature = try #require(signature.cbor.arrayValue)
        badSignature[3] = 1
        Self.expectSameDeviceSigned(replacing("deviceAuth", with: ["deviceSignature": .array(badSignature)], in: annexDSigned), direct: false)
    }

    /// The Annex D MSO's validityInfo and deviceKeyInfo.
    static func annexDMSOEntry(_ key: String) throws -> CBOR {
        try #require(try CBOR.decode(annexD("mobile_security_object")).mapValue?[text: key])
    }

    static func expectSameValidity(_ item: CBOR, direct: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        expectSame(
            item, direct: direct, read: { ValidityInfo.read(&$0, depth: 0) },
            decode: { (item) throws(CBORError) in try ValidityInfo(cbor: item, at: .root) }, equal: ==, sourceLocation: sourceLocation)
    }

    @Test("ValidityInfo: the Annex D one and one with expectedUpdate read as decoded; other forms fall back")
    func validityInfo() throws {
        let validity = try Self.annexDMSOEntry("validityInfo")
        Self.expectSameValidity(validity, direct: true)
        let date: CBOR = .tagged(CBOR.Tag.dateTimeString, "2021-06-01T00:00:00Z")
        Self.expectSameValidity(replacing("expectedUpdate", with: date, in: validity), direct: true)
        // Fractional seconds and an offset read as the decoder reads them.
        Self.expectSameValidity(replacing("signed", with: .tagged(CBOR.Tag.dateTimeString, "2020-10-01T13:30:02.25+02:00"), in: validity), direct: true)
        // A key more; a key missing; a date untagged, with another tag, of another type, not RFC 3339.
        Self.expectSameValidity(replacing("extension", with: 1, in: validity), direct: false)
        Self.expectSameValidity(removing("validUntil", from: validity), direct: false)
        Self.expectSameValidity(replacing("validFrom", with: "2020-10-01T13:30:02Z", in: validity), direct: false)
        Self.expectSameValidity(replacing("validFrom", with: .tagged(1, 1_601_559_002), in: validity), direct: false)
        Self.expectSameValidity(replacing("validFrom", with: .tagged(CBOR.Tag.dateTimeString, 1), in: validity), direct: false)
        Self.expectSameValidity(replacing("validUntil", with: .tagged(CBOR.Tag.dateTimeString, "2020-13-01T00:00:00Z"), in: validity), direct: false)
        Self.expectSameValidity(replacing("expectedUpdate", with: .tagged(CBOR.Tag.dateTimeString, "soon"), in: validity), direct: false)
        Self.expectSameValidity(.array([validity]), direct: false)
    }

    static func expectSameDeviceKeyInfo(_ item: CBOR, direct: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        expectSame(
            item, direct: direct, read: { DeviceKeyInfo.read(&$0, depth: 0) },
            decode: { (item) throws(CBORError) in try DeviceKeyInfo(cbor: item, at: .root) }, equal: { $0.cbor == $1.cbor },
            sourceLocation: sourceLocation)
    }

    @Test("DeviceKeyInfo: the Annex D one and one with key authorizations and key info read as decoded; other forms fall back")
    func deviceKeyInfo() throws {
        let info = try Self.annexDMSOEntry("deviceKeyInfo")
        Self.expectSameDeviceKeyInfo(info, direct: true)
        let authorizations: CBOR = ["nameSpaces": [.textString(NameSpace.mDL)], "dataElements": ["org.example": ["a", "b"]]]
        let full = replacing("keyInfo", with: [1: "x"], in: replacing("keyAuthorizations", with: authorizations, in: info))
        Self.expectSameDeviceKeyInfo(full, direct: true)
        let read = try #require(CBORHeadReader.read(CBORBytes(full.encoded())) { DeviceKeyInfo.read(&$0, depth: 0) })
        #expect(read.keyAuthorizations?.nameSpaces == [NameSpace.mDL])
        // A key more; the device key missing, not a COSE_Key, with a bad point; key info and
        // authorizations of other types.
        Self.expectSameDeviceKeyInfo(replacing("extension", with: 1, in: info), direct: false)
        Self.expectSameDeviceKeyInfo(removing("deviceKey", from: info), direct: false)
        Self.expectSameDeviceKeyInfo(replacing("deviceKey", with: 1, in: info), direct: false)
        Self.expectSameDeviceKeyInfo(replacing("deviceKey", with: [1: 2, -1: 1, -2: .byteString([1]), -3: .byteString([2])], in: info), direct: false)
        Self.expectSameDeviceKeyInfo(replacing("keyInfo", with: [1], in: info), direct: false)
        Self.expectSameDeviceKeyInfo(replacing("keyAuthorizations", with: ["nameSpaces": 1], in: info), direct: false)
    }
}
