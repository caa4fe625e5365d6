import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocStatusList
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("Status List Tokens in CWT form (draft-ietf-oauth-status-list sections 5.2 and 8.3)")
struct StatusListTokenTests {
    typealias Vectors = TokenStatusListVectors

    @Test("the draft's example verifies with the draft's key and yields its 16 statuses")
    func draftExample() throws {
        let token = try StatusListToken(bytes: Vectors.exampleToken)
        let validation = try token.validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .publicKey(Vectors.examplePublicKey()))
        #expect(validation.checks.map(\.kind) == [.form, .type, .claims, .authenticity, .subject, .issuedAt, .expiration, .statusList])
        #expect(token.bytes == Vectors.exampleToken)
        #expect(token.keyIdentifier == Array("12".utf8))
        #expect(token.x5chain.isEmpty)
        #expect(token.claims.issuedAt == Vectors.exampleIssuedAt)
        #expect(token.claims.expiration == Vectors.exampleExpiration)
        #expect(token.claims.timeToLive == 43_200)
        #expect(token.claims.otherClaims.isEmpty)
        let list = validation.statusList
        #expect(try (0..<UInt64(list.count)).map { try list.value(at: $0).rawValue } == Vectors.exampleStatuses)
    }

    @Test("exp: valid the second before, expired at exp and after (2042-08-15T12:56:11Z)")
    func expiry() throws {
        let token = try StatusListToken(bytes: Vectors.exampleToken)
        let key = StatusListToken.Key.publicKey(try Vectors.examplePublicKey())
        let exp = Double(Vectors.exampleExpiration)
        _ = try token.validate(uri: Vectors.exampleURI, at: Date(timeIntervalSince1970: exp - 1), key: key)
        #expect(throws: StatusListError(.expired, "")) { try token.validate(uri: Vectors.exampleURI, at: Date(timeIntervalSince1970: exp), key: key) }
        #expect(throws: StatusListError(.expired, "")) { try token.validate(uri: Vectors.exampleURI, at: Date(timeIntervalSince1970: exp + 1), key: key) }
    }

    @Test("a wrong key, a symmetric key and a tampered signature fail")
    func wrongKey() throws {
        let token = try StatusListToken(bytes: Vectors.exampleToken)
        let other = try PrivateKey(generating: .p256).publicKey
        #expect(throws: StatusListError(.signatureInvalid, "")) {
            try token.validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .publicKey(other))
        }
        #expect(throws: StatusListError(.signatureInvalid, "")) {
            try token.validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .symmetric(SymmetricKey(bytes: [UInt8](repeating: 1, count: 32))))
        }
        let p384 = try PrivateKey(generating: .p384).publicKey
        #expect(throws: StatusListError(.signatureInvalid, "")) {
            try token.validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .publicKey(p384))
        }
        var tampered = Vectors.exampleToken
        tampered[tampered.count - 1] ^= 0x01
        #expect(throws: StatusListError(.signatureInvalid, "")) {
            try StatusListToken(bytes: tampered).validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .publicKey(Vectors.examplePublicKey()))
        }
    }

    @Test("sub must be the Referenced Token's uri")
    func subjectMismatch() throws {
        let token = try StatusListToken(bytes: Vectors.exampleToken)
        #expect(throws: StatusListError(.subjectMismatch, "")) {
            try token.validate(uri: Vectors.exampleURI + "/", at: Vectors.validationTime, key: .publicKey(Vectors.examplePublicKey()))
        }
    }

    @Test("iat may lie up to the clock skew after the validation time, not a second more")
    func issuedInFuture() throws {
        let now: Int64 = 1_704_067_200
        let key = StatusListToken.Key.publicKey(try Vectors.examplePublicKey())
        let time = Date(timeIntervalSince1970: Double(now))
        let atSkew = try StatusListToken(bytes: HandMadeToken.signed(claims: HandMadeToken.claims(setting: 6, to: CBOR(now + StatusListLimits.clockSkew))))
        _ = try atSkew.validate(uri: Vectors.exampleURI, at: time, key: key)
        let overSkew = try StatusListToken(bytes: HandMadeToken.signed(claims: HandMadeToken.claims(setting: 6, to: CBOR(now + StatusListLimits.clockSkew + 1))))
        #expect(throws: StatusListError(.issuedInFuture, "")) { try overSkew.validate(uri: Vectors.exampleURI, at: time, key: key) }
    }

    @Test("typ: missing, wrong, an integer, or unprotected")
    func type() throws {
        #expect(throws: StatusListError(.wrongType, "")) { try StatusListToken(bytes: HandMadeToken.signed(protected: [1: -7])) }
        #expect(throws: StatusListError(.wrongType, "")) { try StatusListToken(bytes: HandMadeToken.signed(protected: [1: -7, 16: "application/cwt"])) }
        #expect(throws: StatusListError(.wrongType, "")) { try StatusListToken(bytes: HandMadeToken.signed(protected: [1: -7, 16: 61])) }
        let unprotected = CBORMap([.init(key: 16, value: .textString(StatusListToken.mediaType))])
        #expect(throws: StatusListError(.wrongType, "")) { try StatusListToken(bytes: HandMadeToken.signed(protected: [1: -7], unprotected: unprotected)) }
    }

    @Test("crit naming typ is understood")
    func criticalType() throws {
        let bytes = try HandMadeToken.signed(protected: [1: -7, 2: [16], 16: .textString(StatusListToken.mediaType)])
        _ = try StatusListToken(bytes: bytes).validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .publicKey(Vectors.examplePublicKey()))
    }

    @Test("untagged, wrapped in the CWT tag 61, another tag, not a COSE message")
    func form() throws {
        #expect(throws: StatusListError(.untagged, "")) { try StatusListToken(bytes: Array(Vectors.exampleToken.dropFirst())) }
        #expect(throws: StatusListError(.cwtTag, "")) { try StatusListToken(bytes: [0xd8, 0x3d] + Vectors.exampleToken) }
        #expect(throws: StatusListError(.malformedToken, "")) { try StatusListToken(bytes: [0xd8, 0x62] + Vectors.exampleToken.dropFirst()) }
        #expect(throws: StatusListError(.malformedToken, "")) { try StatusListToken(bytes: [0xd2, 0x83, 0x40, 0xa0, 0xf6]) }
        #expect(throws: StatusListError(.malformedToken, "")) { try StatusListToken(bytes: Array(Vectors.exampleToken.dropLast())) }
        #expect(throws: StatusListError(.malformedToken, "")) { try StatusListToken(bytes: []) }
        let payload = try HandMadeToken.signed(payload: [0xa0], key: Vectors.examplePrivateKey())
        #expect(throws: StatusListError(.missingClaim, "")) { try StatusListToken(bytes: payload) }
    }

    @Test("claims: sub, iat or status_list missing, of the wrong type; ttl 0 or negative; a duplicate claim")
    func claims() throws {
        func decoding(_ claims: CBOR) throws -> StatusListToken {
            try StatusListToken(bytes: HandMadeToken.signed(claims: claims))
        }
        #expect(throws: StatusListError(.missingClaim, "")) { try decoding(HandMadeToken.claims(setting: 6, to: nil)) }
        #expect(throws: StatusListError(.missingClaim, "")) { try decoding(HandMadeToken.claims(setting: 2, to: nil)) }
        #expect(throws: StatusListError(.missingClaim, "")) { try decoding(HandMadeToken.claims(setting: 65533, to: nil)) }
        #expect(throws: StatusListError(.invalidClaim, "")) { try decoding(HandMadeToken.claims(setting: 65533, to: .byteString([0x78]))) }
        #expect(throws: StatusListError(.invalidClaim, "")) { try decoding(HandMadeToken.claims(setting: 65533, to: [1, 2])) }
        #expect(throws: StatusListError(.invalidClaim, "")) { try decoding(HandMadeToken.claims(setting: 65534, to: 0)) }
        #expect(throws: StatusListError(.invalidClaim, "")) { try decoding(HandMadeToken.claims(setting: 65534, to: -5)) }
        #expect(throws: StatusListError(.invalidClaim, "")) { try decoding(HandMadeToken.claims(setting: 2, to: .byteString([1]))) }
        #expect(throws: StatusListError(.invalidClaim, "")) { try decoding(HandMadeToken.claims(setting: 6, to: .float(1.5))) }
        #expect(throws: StatusListError(.invalidClaim, "")) { try decoding(HandMadeToken.claims(setting: 4, to: "tomorrow")) }
        #expect(try decoding(HandMadeToken.claims(setting: 65534, to: 1)).claims.timeToLive == 1)
        #expect(try decoding(HandMadeToken.claims(setting: 4, to: nil)).claims.expiration == nil)
        // {2: sub, 2: sub, ...}: two claims with one key.
        var duplicate = HandMadeToken.claims().mapValue ?? CBORMap()
        duplicate.append(2, "https://example.com/other")
        #expect(throws: StatusListError(.malformedToken, "")) { try decoding(.map(duplicate)) }
    }

    @Test("other claims are kept")
    func otherClaims() throws {
        let token = try StatusListToken(bytes: HandMadeToken.signed(claims: HandMadeToken.claims(setting: 1, to: "https://issuer.example")))
        #expect(token.claims.otherClaims[int: 1] == "https://issuer.example")
    }

    @Test("the signature covers the bytes received: a claims map in a non-preferred encoding verifies")
    func byteExact() throws {
        // iat 1686920170 as an 8-byte integer (1b 00000000 648c5bea) instead of the 4-byte one.
        var claims = HandMadeToken.claims().encoded()
        let preferred = CBOR(HandMadeToken.claims().mapValue?[int: 6]?.int64Value ?? 0).encoded()
        let index = try #require(claims.firstRange(of: [0x06] + preferred))
        claims.replaceSubrange(index, with: [0x06, 0x1b, 0, 0, 0, 0] + preferred.dropFirst())
        let bytes = try HandMadeToken.signed(payload: claims, key: Vectors.examplePrivateKey())
        let token = try StatusListToken(bytes: bytes)
        #expect(token.bytes == bytes)
        _ = try token.validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .publicKey(Vectors.examplePublicKey()))
    }

    @Test("the token size limit: a token of exactly the limit decodes, one byte more is refused")
    func tokenLimit() throws {
        let limit = StatusListLimits.tokenBytes
        func padded(_ count: Int) throws -> [UInt8] {
            try HandMadeToken.signed(claims: HandMadeToken.claims(setting: -70_000, to: .byteString([UInt8](repeating: 0xaa, count: count))))
        }
        let probe = try padded(limit / 2)
        let atLimit = try padded(limit / 2 + limit - probe.count)
        #expect(atLimit.count == limit)
        #expect(try StatusListToken(bytes: atLimit).claims.otherClaims.count == 1)
        let overLimit = try padded(limit / 2 + limit - probe.count + 1)
        #expect(overLimit.count == limit + 1)
        #expect(throws: StatusListError(.tokenTooLarge, "")) { try StatusListToken(bytes: overLimit) }
    }

    @Test("COSE_Mac0: the right key verifies, a wrong or a public key does not")
    func mac0() throws {
        let key = SymmetricKey(bytes: [UInt8](repeating: 0x5a, count: 32))
        let builder = StatusListTokenBuilder(claims: try StatusListTokenClaims(cbor: HandMadeToken.claims(), at: .root))
        let token = try builder.authenticate(with: key)
        #expect(token.bytes.first == 0xd1)
        let validation = try token.validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .symmetric(key))
        #expect(validation.checks.first?.detail == "a tagged COSE_Mac0 (17)")
        #expect(throws: StatusListError(.signatureInvalid, "")) {
            try token.validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .symmetric(SymmetricKey(bytes: [UInt8](repeating: 0x5b, count: 32))))
        }
        #expect(throws: StatusListError(.signatureInvalid, "")) {
            try token.validate(uri: Vectors.exampleURI, at: Vectors.validationTime, key: .publicKey(Vectors.examplePublicKey()))
        }
    }
}
