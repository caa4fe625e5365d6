import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocTestSupport
import Testing

@Suite("COSE_Key")
struct COSEKeyTests {
    let path = CBORPath("deviceKey")

    func decodeError(_ item: CBOR) -> CBORError? {
        do {
            _ = try COSEKey(cbor: item, at: path)
            return nil
        } catch {
            return error
        }
    }

    @Test("D.3.1 EDeviceKey: decodes to the P-256 key of the vectors and re-encodes byte for byte")
    func annexDEDeviceKey() throws {
        let embedded = try CBOR.decode(Vectors.annexD("e_device_key_bytes")).embeddedBytes(at: .root)
        let key = try COSEKey(encoded: embedded)
        #expect(key.keyType == .ec2)
        #expect(key.curve == .p256)
        #expect(key.x == Vectors.annexD("eDeviceKey_public_x"))
        #expect(key.y == Vectors.annexD("eDeviceKey_public_y"))
        #expect(key.d == nil)
        #expect(key.additionalParameters.isEmpty)
        #expect(key.encoded() == embedded)
        let publicKey = try key.publicKey()
        #expect(publicKey == (try PublicKey(x: Vectors.annexD("eDeviceKey_public_x"), y: Vectors.annexD("eDeviceKey_public_y"), curve: .p256)))
        #expect(COSEKey(publicKey: publicKey).encoded() == embedded)
    }

    @Test("Annex D encodes keys in the label order 1, -1, -2, -3")
    func encodingOrder() throws {
        let key = COSEKey(publicKey: try PrivateKey(generating: .p256).publicKey)
        let labels = try #require(key.cbor.mapValue).entries.map(\.key)
        #expect(labels == [1, -1, -2, -3])
        #expect(key.encoded().prefix(5) == [0xa4, 0x01, 0x02, 0x20, 0x01])
    }

    @Test("decoding accepts any order and keeps other labels such as kid and alg")
    func anyOrder() throws {
        let x = Vectors.annexD("eDeviceKey_public_x"), y = Vectors.annexD("eDeviceKey_public_y")
        let item: CBOR = [-3: .byteString(y), 3: -7, -2: .byteString(x), 2: .byteString([0xab]), 1: 2, -1: 1]
        let key = try COSEKey(cbor: item, at: path)
        #expect(key.x == x && key.y == y && key.curve == .p256)
        #expect(key.additionalParameters.entries.map(\.key) == [3, 2])
        let labels = try #require(key.cbor.mapValue).entries.map(\.key)
        #expect(labels == [1, -1, -2, -3, 3, 2])
        #expect(key.publicOnly.encoded() == key.encoded())
    }

    @Test("private keys round trip with d, for every curve", arguments: Curve.allCases)
    func privateRoundTrip(curve: Curve) throws {
        let privateKey = try PrivateKey(generating: curve)
        let key = COSEKey(privateKey: privateKey)
        #expect(key.keyType == (curve.isWeierstrass ? .ec2 : .okp))
        #expect(key.d == privateKey.rawRepresentation)
        #expect(key.x.count == curve.coordinateByteCount)
        #expect(key.y?.count == (curve.isWeierstrass ? curve.coordinateByteCount : nil))
        let labels = try #require(key.cbor.mapValue).entries.map(\.key)
        #expect(labels == (curve.isWeierstrass ? [1, -1, -2, -3, -4] : [1, -1, -2, -4]))
        let decoded = try COSEKey(encoded: key.encoded())
        #expect(decoded.encoded() == key.encoded())
        #expect(try decoded.privateKey().publicKey == privateKey.publicKey)
        #expect(try decoded.publicKey() == privateKey.publicKey)
        #expect(decoded.publicOnly.d == nil)
        #expect(throws: CryptoError(.invalidKey, "")) { try decoded.publicOnly.privateKey() }
    }

    @Test("d is never printed")
    func redaction() throws {
        let key = COSEKey(privateKey: try PrivateKey(generating: .p256))
        let d = Hex.encode(try #require(key.d))
        #expect(!key.description.contains(d))
        #expect(key.description.contains("<redacted>"))
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!dumped.contains(d))
        #expect(!String(reflecting: key).contains(d))
        #expect(dumped.contains("hasPrivateKey: true"))
    }

    @Test("a d that does not belong to the public part is rejected")
    func mismatchedPrivateKey() throws {
        let one = COSEKey(privateKey: try PrivateKey(generating: .p256))
        let other = COSEKey(privateKey: try PrivateKey(generating: .p256))
        var map = try #require(one.cbor.mapValue)
        map[int: -4] = .byteString(try #require(other.d))
        let mixed = try COSEKey(cbor: .map(map), at: path)
        #expect(throws: CryptoError(.invalidKey, "")) { try mixed.privateKey() }
    }

    @Test("malformed keys name the offending label")
    func malformed() throws {
        let x = CBOR.byteString([UInt8](repeating: 1, count: 32))
        let cases: [(CBOR, CBORError.Code, String)] = [
            ([1, 2], .unexpectedType, "deviceKey"),
            ([-1: 1, -2: x, -3: x], .missingValue, "deviceKey"),
            ([1: 3, -1: 1, -2: x, -3: x], .invalidValue, "deviceKey[1]"),
            ([1: "EC2", -1: 1, -2: x, -3: x], .unexpectedType, "deviceKey[1]"),
            ([1: 2, -1: 99, -2: x, -3: x], .invalidValue, "deviceKey[-1]"),
            ([1: 2, -1: 6, -2: x, -3: x], .invalidValue, "deviceKey[-1]"),
            ([1: 1, -1: 1, -2: x], .invalidValue, "deviceKey[-1]"),
            ([1: 2, -1: 1, -2: .byteString([1, 2]), -3: x], .invalidValue, "deviceKey[-2]"),
            ([1: 2, -1: 1, -3: x], .missingValue, "deviceKey"),
            ([1: 2, -1: 1, -2: x], .missingValue, "deviceKey"),
            ([1: 2, -1: 1, -2: x, -3: true], .invalidValue, "deviceKey[-3]"),
            ([1: 2, -1: 1, -2: x, -3: "y"], .unexpectedType, "deviceKey[-3]"),
            ([1: 1, -1: 6, -2: x, -3: x], .invalidValue, "deviceKey[-3]"),
            ([1: 2, -1: 1, -2: x, -3: x, -4: .byteString([1])], .invalidValue, "deviceKey[-4]"),
        ]
        for (item, code, expected) in cases {
            let error = decodeError(item)
            #expect(error?.code == code, "\(item)")
            #expect(error?.path.description == expected, "\(item)")
        }
    }

    @Test("coordinates of the right width that are not a point on the curve fail in publicKey()")
    func notOnCurve() throws {
        let x = CBOR.byteString([UInt8](repeating: 1, count: 32))
        let key = try COSEKey(cbor: [1: 2, -1: 1, -2: x, -3: x], at: path)
        #expect(throws: CryptoError.self) { try key.publicKey() }
    }
}
