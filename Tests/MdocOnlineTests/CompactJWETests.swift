import MdocCBOR
import MdocCrypto
@testable import MdocOnline
import MdocText
import Testing

/// ECDH-ES JWEs (RFC 7516, RFC 7518 section 4.6): RFC 7518 Appendix C, JWEs made by an
/// independent implementation, round trips, and every refusal of the reader.
@Suite("Compact JWE, ECDH-ES with AES-GCM")
struct CompactJWETests {
    /// Bob's key of RFC 7518 Appendix C (the recipient), as a JWK's `x`, `y` and `d`.
    private static func bob() throws -> PrivateKey {
        let key = try PrivateKey(rawRepresentation: try #require(Base64URL.decode("VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw")), curve: .p256)
        #expect(key.publicKey.coordinates?.x == Base64URL.decode("weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ"))
        #expect(key.publicKey.coordinates?.y == Base64URL.decode("e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck"))
        return key
    }

    /// Alice's ephemeral public key of RFC 7518 Appendix C (the `epk`).
    private static func alice() throws -> PublicKey {
        try PublicKey(
            x: try #require(Base64URL.decode("gI0GAILBdu7T53akrFmMyGcsF3n5dO7MmwNBHKW5SV0")),
            y: try #require(Base64URL.decode("SLW_xSffzlPWrHEVI30DHM_4egVwt3NQqeUD7nMFpps")), curve: .p256)
    }

    @Test("RFC 7518 Appendix C: Z, then the A128GCM key derived with apu \"Alice\" and apv \"Bob\"")
    func appendixC() throws {
        let z = try Self.bob().sharedSecret(with: try Self.alice())
        #expect(z.withUnsafeBytes { Array($0) } == [
            158, 86, 217, 29, 129, 113, 53, 211, 114, 131, 66, 131, 191, 132, 38, 156,
            251, 49, 110, 163, 218, 128, 106, 72, 246, 218, 167, 121, 140, 254, 144, 196,
        ])
        let key = try CompactJWE.contentEncryptionKey(
            sharedSecret: z, encryption: .a128gcm, partyUInfo: Array("Alice".utf8), partyVInfo: Array("Bob".utf8))
        #expect(Base64URL.encode(key.bytes) == "VqqN6vgjbSBcIijNcacQGg")
    }

    @Test("JWEs made by joserfc 1.6.5 (Python) for Bob's key decrypt, A128GCM and A256GCM")
    func independentImplementation() throws {
        // jwe.encrypt_compact({"alg": "ECDH-ES", "enc": ENC, "apu": "QWxpY2U", "apv": "Qm9i",
        // "kid": "verifier-enc"}, PLAINTEXT, bob), made once and kept as text.
        let plaintext = Array(#"{"vp_token":{"mdl":["o2d2ZXJzaW9u"]},"state":"joserfc"}"#.utf8)
        let made: [(JWEContentEncryption, String)] = [
            (.a128gcm, "eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSIsImFwdSI6IlFXeHBZMlUiLCJhcHYiOiJRbTlpIiwia2lkIjoidmVyaWZpZXItZW5jIiwiZXBrIjp7ImNydiI6IlAtMjU2IiwieCI6IlQ4cVNUS2hsQVdiRjJJeU9kb1VXcDkwNDIyelhaTFo2bmpRM0hIc1ZYbzAiLCJ5IjoiZDAyem5iOXdiell6T2ZjLTBnblB2Y0xTTHlTbjJuTG9adjdveU05LTJfMCIsImt0eSI6IkVDIn19..i42g5nxrx-M1DWbC._mrihr8fg-mvOxuggvotgdFB2rxm1_xlGKmdV0W8MrbF9PtczNZ7FmcWswpgVxYbDnP-ChY8NA.9Ck5gECUlaOMqalver94mQ"),
            (.a256gcm, "eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTI1NkdDTSIsImFwdSI6IlFXeHBZMlUiLCJhcHYiOiJRbTlpIiwia2lkIjoidmVyaWZpZXItZW5jIiwiZXBrIjp7ImNydiI6IlAtMjU2IiwieCI6Img5aGJfVlVtbHNxMDgtdVNhV2Y4Q1FSWENNNWF6d1hpOWhGY2JXRHpEYU0iLCJ5Ijoib09ONkJ6clJ2enlKMWp3R1pCUnlPb2F5TmRoOFpPZm5IYWFPUXN5NGxZbyIsImt0eSI6IkVDIn19..8wtRp97EAkXcaE_Z._IkWokttJaD6I8mCjV7t7TpdW9Lt5fMmWdlQJsg_5sY1OivQ4mGfY5hTNtkbb1BUrc-vVYWMNA.s8nUDTEkd4ITKxZKQWIo4A"),
        ]
        for (encryption, compact) in made {
            let jwe = try CompactJWE(compact: compact)
            #expect(jwe.contentEncryption == encryption)
            #expect(jwe.partyUInfo == Array("Alice".utf8))
            #expect(jwe.partyVInfo == Array("Bob".utf8))
            #expect(jwe.keyID == "verifier-enc")
            #expect(try jwe.decrypt(with: try Self.bob()) == plaintext)
            #expect(throws: OnlineError(.jweDecryptionFailed, "")) { try jwe.decrypt(with: try PrivateKey(generating: .p256)) }
            #expect(throws: OnlineError(.unsupportedJWEAlgorithm, "")) {
                try CompactJWE(compact: compact, accepting: Set(JWEContentEncryption.allCases.filter { $0 != encryption }))
            }
        }
    }

    @Test("A round trip in both encryptions, with and without apu, apv and kid; each JWE has its own epk and IV")
    func roundTrip() throws {
        let recipient = try PrivateKey(generating: .p256)
        for encryption in JWEContentEncryption.allCases {
            for plaintext in [[], Array("DeviceResponse".utf8)] {
                let first = try CompactJWE.encrypt(
                    plaintext, to: recipient.publicKey, encryption: encryption, partyUInfo: [1, 2, 3], partyVInfo: [], keyID: "k1")
                let second = try CompactJWE.encrypt(plaintext, to: recipient.publicKey, encryption: encryption)
                let read = try CompactJWE(compact: first)
                #expect(read.partyUInfo == [1, 2, 3])
                #expect(read.partyVInfo == [])
                #expect(read.keyID == "k1")
                #expect(read.header.serialized().hasPrefix(#"{"alg":"ECDH-ES","enc":"\#(encryption)","epk":{"kty":"EC","crv":"P-256","#))
                #expect(try read.decrypt(with: recipient) == plaintext)
                let other = try CompactJWE(compact: second)
                #expect(other.partyUInfo == nil && other.partyVInfo == nil && other.keyID == nil)
                #expect(other.ephemeralKey != read.ephemeralKey)
                #expect(other.initializationVector != read.initializationVector)
                #expect(try other.decrypt(with: recipient) == plaintext)
            }
        }
    }

    /// A compact JWE of `header` (JSON text) with the other parts of a real one, so only what the
    /// test changes is wrong.
    private static func compact(header: String, from real: String, replacing part: Int? = nil, with text: String = "") -> String {
        var parts = real.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[0] = Base64URL.encode(Array(header.utf8))
        if let part { parts[part] = text }
        return parts.joined(separator: ".")
    }

    @Test("Algorithm confusion: every alg but ECDH-ES, every enc off the allowlist, zip and crit are refused")
    func algorithmConfusion() throws {
        let recipient = try PrivateKey(generating: .p256)
        let real = try CompactJWE.encrypt([1], to: recipient.publicKey, encryption: .a128gcm)
        let epk = try #require(try CompactJWE(compact: real).header.objectMember("epk")).serialized()
        let refused = OnlineError(.unsupportedJWEAlgorithm, "")
        for alg in ["dir", "ECDH-ES+A128KW", "ECDH-ES+A256KW", "none", "RSA-OAEP", "ecdh-es", "ECDH-ES "] {
            #expect(throws: refused) { try CompactJWE(compact: Self.compact(header: #"{"alg":"\#(alg)","enc":"A128GCM","epk":\#(epk)}"#, from: real)) }
        }
        for enc in ["A192GCM", "A128CBC-HS256", "A256CBC-HS512", "a128gcm", ""] {
            #expect(throws: refused) { try CompactJWE(compact: Self.compact(header: #"{"alg":"ECDH-ES","enc":"\#(enc)","epk":\#(epk)}"#, from: real)) }
        }
        for extra in [#""zip":"DEF""#, #""crit":["b64"]"#] {
            #expect(throws: refused) {
                try CompactJWE(compact: Self.compact(header: #"{"alg":"ECDH-ES","enc":"A128GCM","epk":\#(epk),\#(extra)}"#, from: real))
            }
        }
        #expect(throws: refused) { try CompactJWE(compact: real, accepting: []) }
        let malformed = OnlineError(.malformedJWE, "")
        #expect(throws: malformed) { try CompactJWE(compact: Self.compact(header: #"{"enc":"A128GCM","epk":\#(epk)}"#, from: real)) }
        #expect(throws: malformed) { try CompactJWE(compact: Self.compact(header: #"{"alg":"ECDH-ES","epk":\#(epk)}"#, from: real)) }
        #expect(throws: malformed) { try CompactJWE(compact: Self.compact(header: #"{"alg":1,"enc":"A128GCM","epk":\#(epk)}"#, from: real)) }
        #expect(throws: malformed) {
            try CompactJWE(compact: Self.compact(header: #"{"alg":"ECDH-ES","alg":"ECDH-ES","enc":"A128GCM","epk":\#(epk)}"#, from: real))
        }
    }

    @Test("The epk must be an EC P-256 public key on the curve")
    func ephemeralKeys() throws {
        let recipient = try PrivateKey(generating: .p256)
        let real = try CompactJWE.encrypt([1], to: recipient.publicKey, encryption: .a256gcm)
        let (x, y) = try #require(try PrivateKey(generating: .p256).publicKey.coordinates)
        let p384 = try #require(try PrivateKey(generating: .p384).publicKey.coordinates)
        let offCurve = Array(y.dropLast()) + [y[31] ^ 1]
        func jwk(_ members: String) -> String { #"{"alg":"ECDH-ES","enc":"A256GCM","epk":{\#(members)}}"# }
        let xy = #""x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(y))""#
        let invalid = OnlineError(.invalidEphemeralKey, "")
        let cases = [
            #"{"alg":"ECDH-ES","enc":"A256GCM"}"#,
            #"{"alg":"ECDH-ES","enc":"A256GCM","epk":"key"}"#,
            jwk(#""kty":"EC","crv":"P-384","x":"\#(Base64URL.encode(p384.x))","y":"\#(Base64URL.encode(p384.y))""#),
            jwk(#""kty":"OKP","crv":"X25519","x":"\#(Base64URL.encode(x))""#),
            jwk(#""kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(x))""#),
            jwk(#""kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(Array(x.dropFirst())))","y":"\#(Base64URL.encode(y))""#),
            jwk(#""kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(offCurve))""#),
            jwk(#""kty":"EC","crv":"P-256",\#(xy),"d":"\#(Base64URL.encode(x))""#),
        ]
        for header in cases {
            #expect(throws: invalid) { try CompactJWE(compact: Self.compact(header: header, from: real)) }
        }
        // The epk replaced by another valid key: it parses, and does not decrypt.
        let swapped = try CompactJWE(compact: Self.compact(header: jwk(#""kty":"EC","crv":"P-256",\#(xy)"#), from: real))
        #expect(throws: OnlineError(.jweDecryptionFailed, "")) { try swapped.decrypt(with: recipient) }
    }

    @Test("Malformed compact text: parts, base64url, encrypted key, IV and tag lengths, the header's JSON")
    func malformed() throws {
        let recipient = try PrivateKey(generating: .p256)
        let real = try CompactJWE.encrypt(Array("response".utf8), to: recipient.publicKey, encryption: .a128gcm)
        let parts = real.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let malformed = OnlineError(.malformedJWE, "")
        let cases = [
            "",
            parts.dropLast().joined(separator: "."),
            real + ".",
            [parts[0], "AAAA", parts[2], parts[3], parts[4]].joined(separator: "."),
            [parts[0], "", Base64URL.encode([UInt8](repeating: 1, count: 16)), parts[3], parts[4]].joined(separator: "."),
            [parts[0], "", parts[2], parts[3], Base64URL.encode([UInt8](repeating: 1, count: 15))].joined(separator: "."),
            [parts[0], "", parts[2], parts[3] + "=", parts[4]].joined(separator: "."),
            [parts[0], "", parts[2], "*", parts[4]].joined(separator: "."),
            [Base64URL.encode(Array("[1]".utf8)), "", parts[2], parts[3], parts[4]].joined(separator: "."),
            [Base64URL.encode(Array("not json".utf8)), "", parts[2], parts[3], parts[4]].joined(separator: "."),
            [Base64URL.encode(Array(#"{"a":{"b":{"c":{"d":{}}}}}"#.utf8)), "", parts[2], parts[3], parts[4]].joined(separator: "."),
        ]
        for text in cases {
            #expect(throws: malformed) { try CompactJWE(compact: text) }
        }
        let header = try #require(Base64URL.decode(parts[0]))
        let withBadApu = String(decoding: header.dropLast(), as: UTF8.self) + #","apu":"not base64url!"}"#
        #expect(throws: malformed) { try CompactJWE(compact: Self.compact(header: withBadApu, from: real)) }
    }

    @Test("Tampering: the header (the AAD), the IV, the ciphertext or the tag altered, and another recipient, fail to decrypt")
    func tampering() throws {
        let recipient = try PrivateKey(generating: .p256)
        let real = try CompactJWE.encrypt(Array("DeviceResponse".utf8), to: recipient.publicKey, encryption: .a256gcm, keyID: "a")
        var parts = real.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let failed = OnlineError(.jweDecryptionFailed, "")
        let header = String(decoding: try #require(Base64URL.decode(parts[0])), as: UTF8.self)
        let relabelled = Self.compact(header: header.replacing(#""kid":"a""#, with: #""kid":"b""#), from: real)
        #expect(throws: failed) { try CompactJWE(compact: relabelled).decrypt(with: recipient) }
        for part in 2...4 {
            var bytes = try #require(Base64URL.decode(parts[part]))
            bytes[0] ^= 1
            let original = parts[part]
            parts[part] = Base64URL.encode(bytes)
            let altered = parts.joined(separator: ".")
            #expect(throws: failed) { try CompactJWE(compact: altered).decrypt(with: recipient) }
            parts[part] = original
        }
        #expect(throws: failed) { try CompactJWE(compact: real).decrypt(with: try PrivateKey(generating: .p256)) }
        #expect(throws: OnlineError(.unsupportedKey, "")) { try CompactJWE(compact: real).decrypt(with: try PrivateKey(generating: .p384)) }
        #expect(throws: OnlineError(.unsupportedKey, "")) {
            try CompactJWE.encrypt([1], to: try PrivateKey(generating: .p384).publicKey, encryption: .a128gcm)
        }
    }

    @Test("Limits: the compact text and the protected header, each side")
    func limits() throws {
        let tooLarge = OnlineError(.jweTooLarge, "")
        // At the limit the text is read (and refused for what it is); one byte more is refused unread.
        let atLimit = String(repeating: "a", count: JWELimits.maximumCompactByteCount)
        #expect(throws: OnlineError(.malformedJWE, "")) { try CompactJWE(compact: atLimit) }
        #expect(throws: tooLarge) { try CompactJWE(compact: atLimit + "a") }

        let recipient = try PrivateKey(generating: .p256)
        let real = try CompactJWE.encrypt([1], to: recipient.publicKey, encryption: .a128gcm)
        func header(byteCount: Int) -> String {
            let start = #"{"alg":"RSA-OAEP","enc":"A128GCM","pad":""#
            return start + String(repeating: "p", count: byteCount - start.utf8.count - 2) + #""}"#
        }
        #expect(header(byteCount: JWELimits.maximumHeaderByteCount).utf8.count == JWELimits.maximumHeaderByteCount)
        #expect(throws: OnlineError(.unsupportedJWEAlgorithm, "")) {
            try CompactJWE(compact: Self.compact(header: header(byteCount: JWELimits.maximumHeaderByteCount), from: real))
        }
        #expect(throws: tooLarge) {
            try CompactJWE(compact: Self.compact(header: header(byteCount: JWELimits.maximumHeaderByteCount + 1), from: real))
        }
        // Depth: the header object holding the epk object is 2 of the 4 levels; 5 is refused.
        #expect(throws: OnlineError(.invalidEphemeralKey, "")) {
            try CompactJWE(compact: Self.compact(header: #"{"alg":"ECDH-ES","enc":"A128GCM","x":{"y":{"z":{}}}}"#, from: real))
        }
        #expect(throws: OnlineError(.malformedJWE, "")) {
            try CompactJWE(compact: Self.compact(header: #"{"alg":"ECDH-ES","enc":"A128GCM","x":{"y":{"z":{"w":{}}}}}"#, from: real))
        }
    }
}

extension JSONValue {
    /// The member `name` of an object, or `nil`.
    fileprivate func objectMember(_ name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }
}
