import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocStatusList
import Testing

@Suite("Making Status List Tokens (the issuer's side)")
struct StatusListTokenBuilderTests {
    typealias Vectors = TokenStatusListVectors

    @Test("the example's claims signed again with the example key: the same bytes but the signature")
    func example() throws {
        let example = try StatusListToken(bytes: Vectors.exampleToken)
        guard case .sign1(let received) = example.message else {
            Issue.record("the example is a COSE_Sign1")
            return
        }
        #expect(example.claims.cbor.encoded() == Array(received.payload ?? []))
        let builder = StatusListTokenBuilder(claims: example.claims, keyIdentifier: Array("12".utf8))
        let token = try builder.sign(with: Vectors.examplePrivateKey())
        #expect(token.bytes.count == Vectors.exampleToken.count)
        #expect(token.bytes.dropLast(64) == Vectors.exampleToken.dropLast(64))
        _ = try token.validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .publicKey(Vectors.examplePublicKey()))
    }

    @Test("round trip: a built list and token decode to the same values, byte for byte", arguments: StatusList.allowedBits)
    func roundTrip(bits: Int) throws {
        let values = (0..<1000).map { StatusValue(rawValue: UInt8(($0 * 7) % (1 << bits))) }
        let claims = StatusListTokenClaims(
            subject: "https://status.example/lists/\(bits)", issuedAt: 1_704_000_000, expiration: 1_704_086_400, timeToLive: 3600,
            statusList: try StatusList(bits: bits, values: values, aggregationURI: "https://status.example/aggregation"),
            otherClaims: CBORMap([.init(key: 1, value: "https://status.example")]))
        let certificate: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x01]
        let key = try PrivateKey(generating: .p256)
        let token = try StatusListTokenBuilder(claims: claims, x5chain: [certificate]).sign(with: key)
        let decoded = try StatusListToken(bytes: token.bytes)
        #expect(decoded.bytes == token.bytes)
        #expect(decoded.claims == claims)
        #expect(decoded.x5chain == [certificate])
        #expect(decoded.headers.protectedBytes == HandMadeToken.protectedHeader.encoded())
        let validation = try decoded.validate(uri: claims.subject, at: Vectors.validationTime, key: .publicKey(key.publicKey))
        #expect(try (0..<1000).map { try validation.statusList.value(at: UInt64($0)) } == values)
        #expect(throws: StatusListError(.indexOutOfRange, "")) { try validation.statusList.value(at: UInt64(validation.statusList.count)) }
    }

    @Test("ES384 and ES512 keys sign with their algorithm; an X25519 key cannot sign", arguments: [Curve.p384, .p521])
    func otherCurves(curve: Curve) throws {
        let claims = try StatusListTokenClaims(cbor: HandMadeToken.claims(), at: .root)
        let key = try PrivateKey(generating: curve)
        let token = try StatusListTokenBuilder(claims: claims).sign(with: key)
        _ = try token.validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .publicKey(key.publicKey))
        #expect(throws: StatusListError(.signingFailed, "")) { try StatusListTokenBuilder(claims: claims).sign(with: PrivateKey(generating: .x25519)) }
    }
}
