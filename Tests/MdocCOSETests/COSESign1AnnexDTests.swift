import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocTestSupport
import Testing

@Suite("COSE_Sign1 with the ISO/IEC 18013-5 Annex D vectors")
struct COSESign1AnnexDTests {
    let path = CBORPath("issuerAuth")

    func issuerAuth() throws -> COSESign1 {
        try COSESign1(cbor: CBOR.decode(Vectors.annexD("issuer_auth")), at: path)
    }

    @Test("D.5.2 issuerAuth decodes with the exact protected header and the DS certificate")
    func issuerAuthDecodes() throws {
        let sign1 = try issuerAuth()
        #expect(sign1.protectedHeaderBytes == hex("a10126"))
        #expect(sign1.protectedHeaders[int: 1] == CBOR(-7))
        #expect(sign1.algorithm == .es256)
        #expect(sign1.x5chain == [Vectors.annexD("ds_cert")])
        #expect(sign1.payload == CBORBytes(Vectors.annexD("mobile_security_object_bytes")))
        #expect(sign1.signature.count == 64)
        #expect(Hex.encode(sign1.signature.prefix(4)) == "59e64205")
    }

    @Test("D.5.2 Sig_structure is built from the received bytes")
    func issuerAuthSigStructure() throws {
        #expect(try issuerAuth().toBeSigned() == Vectors.annexD("issuer_auth_sig_structure"))
    }

    @Test("the Sig_structure parts join to the Sig_structure: IssuerAuth, ReaderAuth, DeviceSignature, with external_aad")
    func sigStructureParts() throws {
        let readerAuth = try COSESign1(encoded: Vectors.annexD("reader_auth"))
        let deviceAuthentication = Vectors.annexD("device_authentication_bytes")
        let deviceSignature = try COSESign1.sign(
            payload: deviceAuthentication, detached: true, algorithm: .es256, key: try PrivateKey(generating: .p256))
        let cases: [(COSESign1, [UInt8]?)] = [
            (try issuerAuth(), nil), (readerAuth, Vectors.annexD("reader_authentication_bytes")), (deviceSignature, deviceAuthentication),
        ]
        for (sign1, detached) in cases {
            for aad in [[], [0x01], [UInt8](repeating: 0xaa, count: 300)] {
                let parts = sign1.toBeSignedParts(detachedPayload: detached, externalAAD: aad)
                #expect(parts.prefix + Array(parts.payload) == sign1.toBeSigned(detachedPayload: detached, externalAAD: aad))
                let payload = try detached ?? Array(#require(sign1.payload))
                #expect(parts.payload == CBORBytes(payload))
            }
        }
        #expect(try issuerAuth().toBeSignedParts().payload.count == Vectors.annexD("mobile_security_object_bytes").count)
        let parts = try issuerAuth().toBeSignedParts()
        #expect(parts.prefix + Array(parts.payload) == Vectors.annexD("issuer_auth_sig_structure"))
    }

    @Test("D.5.2 the IssuerAuth signature verifies over its Sig_structure parts, and not with either part altered")
    func issuerAuthPartsVerify() throws {
        let sign1 = try issuerAuth()
        let key = try annexDCertificateKey(Vectors.annexD("ds_cert"))
        let (prefix, payload) = sign1.toBeSignedParts()
        func verifies(_ prefix: [UInt8], _ payload: [UInt8]) -> Bool {
            prefix.withUnsafeBytes { prefix in
                payload.withUnsafeBytes { key.isValidSignature(sign1.signature, forConcatenationOf: [prefix, $0], digest: .sha256) }
            }
        }
        #expect(verifies(prefix, Array(payload)))
        for index in [0, 1, prefix.count - 1] {
            #expect(!verifies(flippingBit(prefix, at: index), Array(payload)), "prefix byte \(index)")
        }
        #expect(!verifies(prefix, flippingBit(Array(payload), at: 0)))
        #expect(!verifies(prefix, flippingBit(Array(payload), at: payload.count - 1)))
        #expect(!verifies(prefix, Array(payload.dropLast())))
    }

    @Test("D.5.2 signature verifies with the DS certificate key, fails on a flipped payload bit")
    func issuerAuthVerifies() throws {
        let sign1 = try issuerAuth()
        let key = try annexDCertificateKey(Vectors.annexD("ds_cert"))
        #expect(sign1.isValidSignature(publicKey: key))
        var tampered = sign1
        let payload = try #require(tampered.payload)
        tampered.payload = CBORBytes(flippingBit(Array(payload), at: payload.count / 2))
        #expect(!tampered.isValidSignature(publicKey: key))
        var badSignature = sign1
        badSignature.signature = flippingBit(sign1.signature, at: 0)
        #expect(!badSignature.isValidSignature(publicKey: key))
        #expect(!sign1.isValidSignature(publicKey: key, externalAAD: [0]))
    }

    @Test("D.5.2 issuerAuth re-encodes byte for byte")
    func issuerAuthReencodes() throws {
        #expect(try issuerAuth().encoded() == Vectors.annexD("issuer_auth"))
    }

    @Test("D.5.4 readerAuth: detached payload, x5chain is the reader certificate, Sig_structure and signature")
    func readerAuth() throws {
        let sign1 = try COSESign1(encoded: Vectors.annexD("reader_auth"))
        #expect(sign1.payload == nil)
        #expect(sign1.algorithm == .es256)
        #expect(sign1.x5chain == [Vectors.annexD("reader_cert")])
        let detached = Vectors.annexD("reader_authentication_bytes")
        #expect(sign1.toBeSigned(detachedPayload: detached) == Vectors.annexD("reader_auth_sig_structure"))
        let key = try annexDCertificateKey(Vectors.annexD("reader_cert"))
        #expect(sign1.isValidSignature(publicKey: key, detachedPayload: detached))
        #expect(!sign1.isValidSignature(publicKey: key, detachedPayload: flippingBit(detached, at: detached.count - 1)))
        #expect(!sign1.isValidSignature(publicKey: key), "a detached payload must be supplied")
        #expect(sign1.encoded() == Vectors.annexD("reader_auth"))
    }

    @Test("the payload may not be both attached and supplied detached")
    func ambiguousPayload() throws {
        let sign1 = try issuerAuth()
        let key = try annexDCertificateKey(Vectors.annexD("ds_cert"))
        #expect(!sign1.isValidSignature(publicKey: key, detachedPayload: Vectors.annexD("mobile_security_object_bytes")))
    }

    @Test("tag 18 is accepted on input; the output is untagged")
    func tagged() throws {
        let item = CBOR.tagged(COSESign1.tag, try CBOR.decode(Vectors.annexD("issuer_auth")))
        let sign1 = try COSESign1(cbor: item, at: path)
        #expect(sign1.encoded() == Vectors.annexD("issuer_auth"))
        #expect(sign1.isValidSignature(publicKey: try annexDCertificateKey(Vectors.annexD("ds_cert"))))
    }

    @Test("the DS key is not the reader key")
    func wrongKey() throws {
        let key = try annexDCertificateKey(Vectors.annexD("reader_cert"))
        #expect(!(try issuerAuth()).isValidSignature(publicKey: key))
    }
}
