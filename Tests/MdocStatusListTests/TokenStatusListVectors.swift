import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocStatusList
import MdocTestSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The draft's examples and test vectors in Vectors/token-status-list (PROVENANCE.md there).
enum TokenStatusListVectors {
    /// The bytes of `NAME.hex`.
    static func bytes(_ name: String) -> [UInt8] {
        let path = Vectors.path("token-status-list/\(name).hex")
        guard let data = FileManager.default.contents(atPath: path), let bytes = Hex.decode(String(decoding: data, as: UTF8.self)) else {
            fatalError("missing or malformed test vector \(path)")
        }
        return bytes
    }

    /// The `index value` lines of `NAME.statuses`: the entries the draft's appendix lists.
    static func statuses(_ name: String) -> [(index: Int, value: UInt8)] {
        let path = Vectors.path("token-status-list/\(name).statuses")
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("missing test vector \(path)") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let index = Int(fields[0]), let value = UInt8(fields[1]) else { fatalError("bad line in \(path): \(line)") }
            return (index, value)
        }
    }

    /// The draft's example token.
    static var exampleToken: [UInt8] { bytes("status_list_cwt") }

    /// The example key's public half, from its coordinates.
    static func examplePublicKey() throws -> PublicKey {
        try PublicKey(x: bytes("example_key_x"), y: bytes("example_key_y"), curve: .p256)
    }

    /// The example key.
    static func examplePrivateKey() throws -> PrivateKey {
        try PrivateKey(rawRepresentation: bytes("example_key_d"), curve: .p256)
    }

    /// The example token's `sub`.
    static let exampleURI = "https://example.com/statuslists/1"
    /// The example token's `iat`, 2023-06-16T12:56:10Z.
    static let exampleIssuedAt: Int64 = 1_686_920_170
    /// The example token's `exp`, 2042-08-15T12:56:10Z.
    static let exampleExpiration: Int64 = 2_291_720_170
    /// 2024-01-01T00:00:00Z, inside the example token's life.
    static let validationTime = Date(timeIntervalSince1970: 1_704_067_200)
    /// The statuses of the example token's 1-bit list (draft section 4.1).
    static let exampleStatuses: [UInt8] = [1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1]
}

/// Tokens made by hand, to break one rule at a time.
enum HandMadeToken {
    /// `{1: -7, 16: "application/statuslist+cwt"}`, as the draft's example writes it.
    static var protectedHeader: CBOR {
        [1: -7, 16: .textString(StatusListToken.mediaType)]
    }

    /// The example token's list, `{"bits": 1, "lst": h'78dadbb918000217015d'}`.
    static var exampleList: CBOR {
        ["bits": 1, "lst": .byteString(Hex.decode("78dadbb918000217015d") ?? [])]
    }

    /// Claims like the example's, with `iat` and `exp` around `now`.
    static func claims(now: Int64 = 1_704_067_200, list: CBOR = exampleList) -> CBOR {
        [2: .textString(TokenStatusListVectors.exampleURI), 6: CBOR(now - 3600), 4: CBOR(now + 86_400), 65534: 43_200, 65533: list]
    }

    /// `claims` with `key` removed, or set to `value`.
    static func claims(_ base: CBOR = claims(), setting key: Int64, to value: CBOR?) -> CBOR {
        var map = CBORMap((base.mapValue ?? CBORMap()).entries.filter { $0.key.int64Value != key })
        if let value { map.append(CBOR(key), value) }
        return .map(map)
    }

    /// A COSE_Sign1 of `payload` signed with `key` (ES256), with the protected header encoded from
    /// `protected`, inside `tag` (none when nil).
    static func signed(protected: CBOR = protectedHeader, unprotected: CBORMap = CBORMap(), payload: [UInt8],
                       key: PrivateKey, tag: UInt64? = COSESign1.tag) throws -> [UInt8] {
        let headers = try COSEHeaders(protectedBytes: protected.encoded(), unprotected: unprotected)
        let unsigned = COSESign1(headers: headers, payload: CBORBytes(payload), signature: [])
        let signed = COSESign1(headers: headers, payload: CBORBytes(payload),
                               signature: try key.signature(for: unsigned.toBeSigned(), digest: .sha256))
        return tag.map { CBOR.tagged($0, signed.cbor) }.map { $0.encoded() } ?? signed.cbor.encoded()
    }

    /// `signed(...)` of `claims` with the example key.
    static func signed(protected: CBOR = protectedHeader, unprotected: CBORMap = CBORMap(), claims: CBOR = claims()) throws -> [UInt8] {
        try signed(protected: protected, unprotected: unprotected, payload: claims.encoded(), key: TokenStatusListVectors.examplePrivateKey())
    }
}
