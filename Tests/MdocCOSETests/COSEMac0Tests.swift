import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocTestSupport
import Testing

@Suite("COSE_Mac0")
struct COSEMac0Tests {
    let path = CBORPath("deviceAuth", "deviceMac")

    /// The deviceMac of Annex D.5.3, as an item.
    func deviceMacItem() throws -> CBOR {
        let deviceAuth = try CBOR.decode(Vectors.annexD("device_auth")).map(at: CBORPath("deviceAuth"))
        return try deviceAuth.required("deviceMac", at: CBORPath("deviceAuth"))
    }

    @Test("D.5.3 deviceMac: MAC_structure over the detached DeviceAuthenticationBytes, tag verifies with EMacKey")
    func annexDDeviceMac() throws {
        let mac0 = try COSEMac0(cbor: deviceMacItem(), at: path)
        #expect(mac0.protectedHeaderBytes == hex("a10105"))
        #expect(mac0.algorithm == .hmac256)
        #expect(mac0.unprotectedHeaders.isEmpty)
        #expect(mac0.payload == nil)
        #expect(mac0.tag == Vectors.annexD("device_mac_tag"))
        let detached = Vectors.annexD("device_authentication_bytes")
        #expect(mac0.toBeMACed(detachedPayload: detached) == Vectors.annexD("device_auth_mac_structure"))
        let key = SymmetricKey(bytes: Vectors.annexD("EMacKey"))
        #expect(mac0.isValidTag(key: key, detachedPayload: detached))
        var wrongKey = Vectors.annexD("EMacKey")
        wrongKey[0] = 0xcc
        #expect(!mac0.isValidTag(key: SymmetricKey(bytes: wrongKey), detachedPayload: detached))
        #expect(!mac0.isValidTag(key: key, detachedPayload: flippingBit(detached, at: 100)))
        #expect(!mac0.isValidTag(key: key), "a detached payload must be supplied")
        #expect(!mac0.isValidTag(key: key, detachedPayload: detached, externalAAD: [0]))
        #expect(mac0.cbor == (try deviceMacItem()))
    }

    @Test("D.5.3 deviceMac is reproduced exactly by authenticate")
    func annexDAuthenticate() throws {
        let key = SymmetricKey(bytes: Vectors.annexD("EMacKey"))
        let mac0 = COSEMac0.authenticate(payload: Vectors.annexD("device_authentication_bytes"), detached: true, key: key)
        #expect(mac0.cbor == (try deviceMacItem()))
        #expect(mac0.encoded() == (try deviceMacItem()).encoded())
    }

    @Test("attached payload round trip, tag 17 accepted on input")
    func attachedRoundTrip() throws {
        let key = SymmetricKey(bytes: [UInt8](repeating: 0x42, count: 32))
        let payload: [UInt8] = Array("payload".utf8)
        let mac0 = COSEMac0.authenticate(payload: payload, detached: false, key: key, externalAAD: [9])
        #expect(mac0.tag.count == 32)
        let decoded = try COSEMac0(cbor: .tagged(COSEMac0.tag, mac0.cbor), at: path)
        #expect(decoded == mac0)
        #expect(decoded.isValidTag(key: key, externalAAD: [9]))
        #expect(!decoded.isValidTag(key: key))
        #expect(!decoded.isValidTag(key: key, detachedPayload: payload, externalAAD: [9]), "attached and detached at once")
        var tampered = decoded
        tampered.payload = CBORBytes(flippingBit(payload, at: 0))
        #expect(!tampered.isValidTag(key: key, externalAAD: [9]))
        tampered = decoded
        tampered.tag = flippingBit(decoded.tag, at: 31)
        #expect(!tampered.isValidTag(key: key, externalAAD: [9]))
        tampered.tag = Array(decoded.tag.prefix(16))
        #expect(!tampered.isValidTag(key: key, externalAAD: [9]))
    }

    @Test("a protected alg other than HMAC 256/256 does not verify")
    func wrongAlgorithm() throws {
        let key = SymmetricKey(bytes: [UInt8](repeating: 0x42, count: 32))
        let genuine = COSEMac0.authenticate(payload: [1], detached: false, key: key)
        // Same tag under a protected header claiming ES256: the MAC_structure changes, and the
        // algorithm check refuses it before any comparison.
        let es256 = try COSEHeaders(protectedBytes: hex("a10126"), unprotected: .init())
        let relabelled = COSEMac0(headers: es256, payload: [1], tag: HMACSHA256.authenticationCode(
            for: COSEMac0(headers: es256, payload: [1], tag: []).toBeMACed(), key: key))
        #expect(relabelled.algorithm == .es256)
        #expect(!relabelled.isValidTag(key: key))
        #expect(genuine.isValidTag(key: key))
    }
}
