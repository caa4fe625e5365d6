import MdocCBOR
import MdocCrypto
import MdocModel
import MdocOnline
import MdocSession
import Testing

/// The SessionTranscripts of online presentation against the examples their specifications and
/// their editors published, byte for byte.
@Suite("Online SessionTranscripts and Handovers")
struct HandoverTests {
    /// The verifier's encryption key of OpenID4VP 1.0 Appendix B.2.6.1 and B.2.6.2 (the JWK
    /// "input for calculating the JWK Thumbprint"; `use`, `alg` and `kid` take no part in it).
    private static func openID4VPExampleKey() throws -> PublicKey {
        try PublicKey(
            x: try #require(Base64URL.decode("DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0")),
            y: try #require(Base64URL.decode("XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc")), curve: .p256)
    }

    /// The `nonce` of both OpenID4VP 1.0 examples.
    private static let openID4VPExampleNonce = "exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA"

    @Test("JWK Thumbprint of the OpenID4VP 1.0 example key, the bytes its examples put in the Handover info")
    func jwkThumbprint() throws {
        let thumbprint = try JWKThumbprint(of: try Self.openID4VPExampleKey())
        // OpenID4VP 1.0 Appendix B.2.6.1: the third element of the OpenID4VPHandoverInfo example.
        #expect(thumbprint.bytes == hex("4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047"))
    }

    @Test("A thumbprint given as bytes is 32 bytes long: 31 and 33 are refused")
    func jwkThumbprintBytes() throws {
        let bytes = hex("4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047")
        #expect(try JWKThumbprint(bytes: bytes) == JWKThumbprint(of: try Self.openID4VPExampleKey()))
        for count in [JWKThumbprint.byteCount - 1, JWKThumbprint.byteCount + 1] {
            #expect(throws: OnlineError(.unsupportedKey, "")) { try JWKThumbprint(bytes: [UInt8](repeating: 1, count: count)) }
        }
    }

    @Test("JWK Thumbprint of RFC 7638 section 3.1's form for P-384 and P-521, and refused for other curves")
    func jwkThumbprintCurves() throws {
        for curve in [Curve.p384, .p521] {
            let key = try PrivateKey(generating: curve).publicKey
            let (x, y) = try #require(key.coordinates)
            let input = #"{"crv":"\#(curve.rawValue)","kty":"EC","x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(y))"}"#
            #expect(try JWKThumbprint(of: key).bytes == DigestAlgorithm.sha256.hash(Array(input.utf8)))
        }
        for curve in [Curve.brainpoolP256r1, .x25519, .ed25519] {
            let key = try PrivateKey(generating: curve).publicKey
            #expect(throws: OnlineError(.unsupportedKey, "")) { try JWKThumbprint(of: key) }
        }
    }

    @Test("OpenID4VP 1.0 Appendix B.2.6.1: OpenID4VPHandoverInfo, OpenID4VPHandover and SessionTranscript examples")
    func openID4VPRedirect() throws {
        let handover = OpenID4VPHandover(
            clientID: "x509_san_dns:example.com", nonce: Self.openID4VPExampleNonce,
            jwkThumbprint: try JWKThumbprint(of: try Self.openID4VPExampleKey()), responseURI: "https://example.com/response")
        #expect(handover.info.encoded() == hex("""
            847818783530395f73616e5f646e733a6578616d706c652e636f6d782b6578633767
            426b786a7831726463397564527276654b7653734a4971383061766c58654c486847
            7771744158204283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6
            bd669047781c68747470733a2f2f6578616d706c652e636f6d2f726573706f6e7365
            """))
        #expect(handover.cbor.encoded() == hex("""
            82714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494c
            efdd9d95240d254b046b11b68013722aad38ac
            """))
        #expect(handover.sessionTranscript.cbor.encoded() == hex("""
            83f6f682714f70656e494434565048616e646f7665725820048bc053c00442af9b8e
            ed494cefdd9d95240d254b046b11b68013722aad38ac
            """))
    }

    @Test("OpenID4VP 1.0 Appendix B.2.6.2: OpenID4VPDCAPIHandoverInfo, OpenID4VPDCAPIHandover and SessionTranscript examples")
    func openID4VPDigitalCredentialsAPI() throws {
        let handover = OpenID4VPDCAPIHandover(
            origin: "https://example.com", nonce: Self.openID4VPExampleNonce,
            jwkThumbprint: try JWKThumbprint(of: try Self.openID4VPExampleKey()))
        #expect(handover.info.encoded() == hex("""
            837368747470733a2f2f6578616d706c652e636f6d782b6578633767426b786a7831
            726463397564527276654b7653734a4971383061766c58654c486847777174415820
            4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047
            """))
        #expect(handover.cbor.encoded() == hex("""
            82764f70656e4944345650444341504948616e646f7665725820fbece366f4212f97
            62c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a
            """))
        #expect(handover.sessionTranscript.cbor.encoded() == hex("""
            83f6f682764f70656e4944345650444341504948616e646f7665725820fbece366f4
            212f9762c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a
            """))
    }

    @Test("Without encryption the thumbprint is null, and the hash changes with it")
    func unencryptedResponses() throws {
        let thumbprint = try JWKThumbprint(of: try Self.openID4VPExampleKey())
        let plain = OpenID4VPHandover(clientID: "x509_san_dns:example.com", nonce: "n", jwkThumbprint: nil, responseURI: "https://example.com/response")
        let encrypted = OpenID4VPHandover(clientID: "x509_san_dns:example.com", nonce: "n", jwkThumbprint: thumbprint, responseURI: "https://example.com/response")
        #expect(plain.info == .array(["x509_san_dns:example.com", "n", .null, "https://example.com/response"]))
        #expect(plain.infoHash != encrypted.infoHash)
        let dcPlain = OpenID4VPDCAPIHandover(origin: "https://example.com", nonce: "n", jwkThumbprint: nil)
        #expect(dcPlain.info == .array(["https://example.com", "n", .null]))
        #expect(dcPlain.infoHash == DigestAlgorithm.sha256.hash(dcPlain.info.encoded()))
    }

    @Test("ISO/IEC TS 18013-7:2024 Annex B: the OID4VPHandover and SessionTranscript of the Annex B examples")
    func annexB() {
        // awoie/annex-b-examples, examples/annex-b-examples.txt and index.js (the example set of
        // Annex B, also the test data of the EUDI wallet libraries): mdocGeneratedNonce
        // "1234567890abcdefgh", client_id "example.com", response_uri
        // "https://example.com/12345/response", nonce "abcdefgh1234567890".
        let handover = OID4VPHandover(
            clientID: "example.com", responseURI: "https://example.com/12345/response", nonce: "abcdefgh1234567890",
            mdocGeneratedNonce: "1234567890abcdefgh")
        #expect(handover.cbor.encoded() == hex("""
            835820DA25C527E5FB75BC2DD31267C02237C4462BA0C1BF37071F692E7DD93B10AD0B5820F6ED8E3220D3C59A5F17EB45F48AB70AEECF9EE2
            1744B1014982350BD96AC0C572616263646566676831323334353637383930
            """))
        #expect(handover.sessionTranscript.cbor.encoded() == hex("""
            83F6F6835820DA25C527E5FB75BC2DD31267C02237C4462BA0C1BF37071F692E7DD93B10AD0B5820F6ED8E3220D3C59A5F17EB45F48AB70AEE
            CF9EE21744B1014982350BD96AC0C572616263646566676831323334353637383930
            """))
    }

    @Test("ISO/IEC TS 18013-7 Annex C: the dcapi Handover of the EU age verification request example")
    func annexC() throws {
        // The org-iso-mdoc request example of the EU age verification profile's technical
        // specification (Annex A, "W3C Digital Credentials API"), made for the origin of its
        // reference verifier; the digest as that example prints it (cited by
        // Tessio.Verifier's Iso18013AnnexCVectors), reproduced with python3 cbor2 and hashlib.
        let encryptionInfo = "gmVkY2FwaaJlbm9uY2VQtJvGiCZ0egQII8fQgu960HJyZWNpcGllbnRQdWJsaWNLZXmkAQIgASFYIMmliVBWgs8KKpAychO3py0Eqagows-CrraFX1rVOniXIlggIMvYr_x55AY4LKiWZLHBlQJmX1R9Y5BkUfnuSddAmyE"
        let handover = DCAPIHandover(encryptionInfo: encryptionInfo, origin: "https://verifier.ageverification.dev")
        #expect(handover.infoHash == hex("4a292708fcf38ad55a7969f1c97ead9decf7756b7e9d8cfee942fe9f31b8db0a"))
        #expect(handover.cbor == .array(["dcapi", .byteString(handover.infoHash)]))
        #expect(handover.sessionTranscript.cbor.encoded() == hex(
            "83f6f6826564636170695820" + "4a292708fcf38ad55a7969f1c97ead9decf7756b7e9d8cfee942fe9f31b8db0a"))
        // The base64url text is hashed as sent: the same EncryptionInfo with padding is another Handover.
        #expect(DCAPIHandover(encryptionInfo: encryptionInfo + "=", origin: handover.origin).infoHash != handover.infoHash)
    }

    @Test("Each transcript reads back as [null, null, Handover] and binds DeviceAuthentication to its exact bytes")
    func binding() throws {
        let handovers: [any OnlineHandover] = [
            OID4VPHandover(clientID: "c", responseURI: "r", nonce: "n", mdocGeneratedNonce: "m"),
            OpenID4VPHandover(clientID: "c", nonce: "n", jwkThumbprint: nil, responseURI: "r"),
            OpenID4VPDCAPIHandover(origin: "o", nonce: "n", jwkThumbprint: nil),
            DCAPIHandover(encryptionInfo: "e", origin: "o"),
        ]
        for handover in handovers {
            let bytes = handover.sessionTranscript.cbor.encoded()
            let binding = try SessionTranscriptBinding(encoded: bytes)
            #expect(binding.itemBytes == bytes)
            #expect(binding.transcript.deviceEngagementBytes == nil)
            #expect(binding.transcript.eReaderKeyBytes == nil)
            #expect(binding.transcript.handover == .other(handover.cbor))
        }
    }
}
