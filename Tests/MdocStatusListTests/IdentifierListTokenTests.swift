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

@Suite("Identifier list tokens (ISO/IEC 18013-5 second edition 12.3.6): the Status List Token's envelope around a list of revoked identifiers")
struct IdentifierListTokenTests {
    typealias Vectors = TokenStatusListVectors
    static let uri = "https://issuer.example/identifiers/1"
    static let now: Int64 = 1_704_067_200
    static var time: Date { Date(timeIntervalSince1970: TimeInterval(now)) }
    static var protectedHeader: CBOR { [1: -7, 16: .textString(IdentifierListToken.mediaType)] }

    /// `{"identifiers": {h'01': {}, h'a1b2': {}}}`.
    static var list: CBOR {
        ["identifiers": .map(CBORMap([.init(key: .byteString([0x01]), value: .map(CBORMap())), .init(key: .byteString([0xa1, 0xb2]), value: [:])]))]
    }

    static func claims(list: CBOR = list) -> CBOR {
        [2: .textString(uri), 6: CBOR(now - 3600), 4: CBOR(now + 86_400), 65534: 600, 65530: list]
    }

    static func decoding(_ claims: CBOR, protected: CBOR = protectedHeader) throws -> IdentifierListToken {
        try IdentifierListToken(bytes: HandMadeToken.signed(protected: protected, payload: claims.encoded(), key: Vectors.examplePrivateKey()))
    }

    @Test("a list made by hand decodes, verifies and holds exactly its identifiers; built again, the same claims")
    func handMade() throws {
        let token = try Self.decoding(Self.claims())
        try token.validate(uri: Self.uri, at: Self.time, key: .publicKey(Vectors.examplePublicKey()))
        #expect(token.identifierList.identifiers == [[0x01], [0xa1, 0xb2]])
        #expect(token.identifierList.contains([0xa1, 0xb2]) && token.identifierList.contains([0x01]))
        #expect(!token.identifierList.contains([0xa1]) && !token.identifierList.contains([]))
        #expect(token.claims.timeToLive == 600 && token.claims.expiration == Self.now + 86_400)
        #expect(token.claims.cbor == Self.claims())
    }

    @Test("the builder's token decodes to its claims, signed (x5chain kept) or MACed")
    func builder() throws {
        let key = try PrivateKey(generating: .p256)
        let claims = IdentifierListTokenClaims(
            subject: Self.uri, issuedAt: Self.now, expiration: Self.now + 60,
            identifierList: IdentifierList(identifiers: [[1, 2, 3]], aggregationURI: "https://issuer.example/all"))
        let signed = try IdentifierListTokenBuilder(claims: claims, x5chain: [[0x30, 0x00]]).sign(with: key)
        try IdentifierListToken(bytes: signed.bytes).validate(uri: Self.uri, at: Self.time, key: .publicKey(key.publicKey))
        #expect(signed.claims == claims && signed.x5chain == [[0x30, 0x00]])
        let macKey = SymmetricKey(bytes: [UInt8](repeating: 7, count: 32))
        let maced = try IdentifierListTokenBuilder(claims: claims).authenticate(with: macKey)
        try maced.validate(uri: Self.uri, at: Self.time, key: .symmetric(macKey))
        #expect(throws: StatusListError(.signatureInvalid, "")) { try maced.validate(uri: Self.uri, at: Self.time, key: .publicKey(key.publicKey)) }
    }

    @Test("typ must be application/identifierlist+cwt: a Status List Token is not an identifier list, nor the reverse")
    func type() throws {
        #expect(throws: StatusListError(.wrongType, "")) { try Self.decoding(Self.claims(), protected: HandMadeToken.protectedHeader) }
        #expect(throws: StatusListError(.wrongType, "")) { try Self.decoding(Self.claims(), protected: [1: -7, 16: "identifierlist+cwt"]) }
        #expect(throws: StatusListError(.wrongType, "")) { try StatusListToken(bytes: HandMadeToken.signed(protected: Self.protectedHeader, claims: HandMadeToken.claims())) }
        #expect(throws: StatusListError(.wrongType, "")) { try IdentifierListToken(bytes: Vectors.exampleToken) }
    }

    @Test("claims: exp, sub, iat or identifier_list missing; a status_list beside it; identifiers of the wrong shape")
    func claims() throws {
        for key in [4, 2, 6, 65530] as [Int64] {
            #expect(throws: StatusListError(.missingClaim, ""), "\(key)") { try Self.decoding(HandMadeToken.claims(Self.claims(), setting: key, to: nil)) }
        }
        #expect(throws: StatusListError(.invalidClaim, "")) {
            try Self.decoding(HandMadeToken.claims(Self.claims(), setting: 65533, to: HandMadeToken.exampleList))
        }
        let shapes: [CBOR] = [
            [1, 2], [:], ["identifiers": [1]],
            ["identifiers": .map(CBORMap([.init(key: "01", value: [:])]))],
            ["identifiers": .map(CBORMap([.init(key: .byteString([1]), value: 0)]))],
            ["identifiers": [:], "aggregation_uri": 5],
        ]
        for shape in shapes {
            #expect(throws: StatusListError(.invalidIdentifierList, ""), "\(shape)") { try Self.decoding(Self.claims(list: shape)) }
        }
        let empty = try Self.decoding(Self.claims(list: ["identifiers": [:], "aggregation_uri": "https://issuer.example/all", "later": 1]))
        #expect(empty.identifierList.identifiers.isEmpty && empty.identifierList.aggregationURI == "https://issuer.example/all")
        #expect(empty.identifierList.otherEntries.count == 1)
    }

    @Test("validation: sub must be the MSO's uri; exp passed; iat in the future; another key")
    func validation() throws {
        let token = try Self.decoding(Self.claims())
        let key = StatusListToken.Key.publicKey(try Vectors.examplePublicKey())
        #expect(throws: StatusListError(.subjectMismatch, "")) { try token.validate(uri: Self.uri + "/", at: Self.time, key: key) }
        let expiry = Date(timeIntervalSince1970: TimeInterval(Self.now + 86_400))
        try token.validate(uri: Self.uri, at: expiry.addingTimeInterval(-1), key: key)
        #expect(throws: StatusListError(.expired, "")) { try token.validate(uri: Self.uri, at: expiry, key: key) }
        let early = Date(timeIntervalSince1970: TimeInterval(Self.now - 3600 - StatusListLimits.clockSkew - 1))
        #expect(throws: StatusListError(.issuedInFuture, "")) { try token.validate(uri: Self.uri, at: early, key: key) }
        let other = try PrivateKey(generating: .p256).publicKey
        #expect(throws: StatusListError(.signatureInvalid, "")) { try token.validate(uri: Self.uri, at: Self.time, key: .publicKey(other)) }
    }

    @Test("the token size limit holds for identifier lists too")
    func sizeLimit() throws {
        let padding = [UInt8](repeating: 0, count: StatusListLimits.tokenBytes)
        #expect(throws: StatusListError(.tokenTooLarge, "")) { try IdentifierListToken(bytes: padding + [0]) }
    }
}
