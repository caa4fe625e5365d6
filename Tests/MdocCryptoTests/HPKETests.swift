import Foundation
@testable import MdocCrypto
import MdocTestSupport
import Testing

/// HPKE (RFC 9180) base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-GCM, against RFC 9180
/// Appendix A.3.1 and messages sealed by pyca/cryptography (Vectors/rfc9180-hpke/PROVENANCE.md).
@Suite("HPKE (RFC 9180)")
struct HPKETests {
    /// A vector file's JSON object.
    private static func vectorFile(_ name: String) throws -> Any {
        let path = Vectors.path("rfc9180-hpke/\(name)")
        let data = try #require(FileManager.default.contents(atPath: path), "missing \(path)")
        return try JSONSerialization.jsonObject(with: data)
    }

    /// RFC 9180 Appendix A.3.1.
    private static func appendixA31() throws -> [String: Any] {
        try #require(try vectorFile("base-p256-sha256-aes128gcm.json") as? [String: Any])
    }

    private func field(_ name: String) throws -> [UInt8] {
        let vector = try Self.appendixA31()
        return hex(try #require(vector[name] as? String, "no \(name)"))
    }

    @Test("Appendix A.3.1: the suite's identifiers")
    func suiteIdentifiers() throws {
        let vector = try Self.appendixA31()
        let suite = HPKECipherSuite.p256SHA256AES128GCM
        #expect(vector["mode"] as? Int == 0)
        #expect(vector["kem_id"] as? Int == Int(suite.kemIdentifier))
        #expect(vector["kdf_id"] as? Int == Int(suite.kdfIdentifier))
        #expect(vector["aead_id"] as? Int == Int(suite.aeadIdentifier))
        #expect(HPKECipherSuite.p256SHA256AES256GCM.aeadIdentifier == 2)
    }

    @Test("Appendix A.3.1: encapsulation with skEm gives enc and shared_secret; decapsulation with skRm the same secret")
    func kem() throws {
        let suite = HPKECipherSuite.p256SHA256AES128GCM
        let ephemeral = try PrivateKey(rawRepresentation: try field("skEm"), curve: .p256)
        let recipient = try PrivateKey(rawRepresentation: try field("skRm"), curve: .p256)
        #expect(ephemeral.publicKey.x963Representation == (try field("pkEm")))
        #expect(recipient.publicKey.x963Representation == (try field("pkRm")))
        let (sent, encapsulatedKey) = try HPKE.encapsulate(to: recipient.publicKey, ephemeralKey: ephemeral, suite: suite)
        #expect(encapsulatedKey == (try field("enc")))
        #expect(sent.withUnsafeBytes { Array($0) } == (try field("shared_secret")))
        let received = try HPKE.decapsulate(encapsulatedKey, recipientKey: recipient, suite: suite)
        #expect(received.withUnsafeBytes { Array($0) } == (try field("shared_secret")))
    }

    @Test("Appendix A.3.1: the key schedule gives key and base_nonce")
    func keySchedule() throws {
        let context = try HPKEContext(
            sharedSecret: SecureBytes(try field("shared_secret")), info: try field("info"), suite: .p256SHA256AES128GCM)
        #expect(context.key.bytes == (try field("key")))
        #expect(context.baseNonce == (try field("base_nonce")))
    }

    @Test("Appendix A.3.1: nonce and ciphertext of every listed sequence number, and opening each")
    func encryptions() throws {
        let vector = try Self.appendixA31()
        let encryptions = try #require(vector["encryptions"] as? [[String: Any]])
        #expect(encryptions.count == 6)
        let context = try HPKEContext(
            sharedSecret: SecureBytes(try field("shared_secret")), info: try field("info"), suite: .p256SHA256AES128GCM)
        for encryption in encryptions {
            let sequenceNumber = UInt64(try #require(encryption["sequence_number"] as? Int))
            let plaintext = hex(try #require(encryption["pt"] as? String))
            let aad = hex(try #require(encryption["aad"] as? String))
            let ciphertext = hex(try #require(encryption["ct"] as? String))
            #expect(context.nonce(sequenceNumber: sequenceNumber) == hex(try #require(encryption["nonce"] as? String)))
            #expect(try context.seal(plaintext, authenticating: aad, sequenceNumber: sequenceNumber) == ciphertext)
            #expect(try context.open(ciphertext, authenticating: aad, sequenceNumber: sequenceNumber) == plaintext)
        }
    }

    @Test("Appendix A.3.1: single-shot SealBase with skEm, and OpenBase with skRm (sequence number 0)")
    func singleShot() throws {
        let vector = try Self.appendixA31()
        let first = try #require((vector["encryptions"] as? [[String: Any]])?.first)
        #expect(first["sequence_number"] as? Int == 0)
        let plaintext = hex(try #require(first["pt"] as? String))
        let aad = hex(try #require(first["aad"] as? String))
        let ephemeral = try PrivateKey(rawRepresentation: try field("skEm"), curve: .p256)
        let recipient = try PrivateKey(rawRepresentation: try field("skRm"), curve: .p256)
        let sealed = try HPKE.seal(
            plaintext, to: recipient.publicKey, info: try field("info"), authenticating: aad, suite: .p256SHA256AES128GCM,
            ephemeralKey: ephemeral)
        #expect(sealed == HPKESealedMessage(encapsulatedKey: try field("enc"), ciphertext: hex(try #require(first["ct"] as? String))))
        #expect(try HPKE.open(sealed, recipientKey: recipient, info: try field("info"), authenticating: aad) == plaintext)
    }

    @Test("Messages sealed by pyca/cryptography open, with AES-128-GCM and AES-256-GCM")
    func independentImplementation() throws {
        let vectors = try #require(try Self.vectorFile("pyca-cryptography-base-p256.json") as? [[String: Any]])
        #expect(vectors.count == 2)
        for vector in vectors {
            func value(_ name: String) throws -> [UInt8] { hex(try #require(vector[name] as? String)) }
            let suite = try #require(HPKECipherSuite.allCases.first { Int($0.aeadIdentifier) == vector["aead_id"] as? Int })
            let recipient = try PrivateKey(rawRepresentation: try value("skRm"), curve: .p256)
            let message = HPKESealedMessage(encapsulatedKey: try value("enc"), ciphertext: try value("ct"))
            #expect(try HPKE.open(message, recipientKey: recipient, info: try value("info"), suite: suite) == (try value("pt")))
            let other = try #require(HPKECipherSuite.allCases.first { $0 != suite })
            #expect(throws: CryptoError(.authenticationFailure, "")) {
                try HPKE.open(message, recipientKey: recipient, info: try value("info"), suite: other)
            }
        }
    }

    @Test("A round trip with fresh keys, in both suites; each seal uses a new ephemeral key")
    func roundTrip() throws {
        let recipient = try PrivateKey(generating: .p256)
        let info = Array("SessionTranscript".utf8)
        for suite in HPKECipherSuite.allCases {
            for plaintext in [[], [UInt8](repeating: 0x5A, count: 1000)] {
                let first = try HPKE.seal(plaintext, to: recipient.publicKey, info: info, suite: suite)
                let second = try HPKE.seal(plaintext, to: recipient.publicKey, info: info, suite: suite)
                #expect(first.encapsulatedKey != second.encapsulatedKey)
                #expect(first.ciphertext.count == plaintext.count + AESGCM.tagByteCount)
                #expect(try HPKE.open(first, recipientKey: recipient, info: info, suite: suite) == plaintext)
                #expect(try HPKE.open(second, recipientKey: recipient, info: info, suite: suite) == plaintext)
            }
        }
    }

    @Test("Hostile: another recipient key, info or aad, and every altered or truncated part, fail without plaintext")
    func tampering() throws {
        let recipient = try PrivateKey(generating: .p256)
        let info = Array("info".utf8)
        let sealed = try HPKE.seal(Array("DeviceResponse".utf8), to: recipient.publicKey, info: info, authenticating: [1, 2])
        let failed = CryptoError(.authenticationFailure, "")
        #expect(throws: failed) { try HPKE.open(sealed, recipientKey: try PrivateKey(generating: .p256), info: info, authenticating: [1, 2]) }
        #expect(throws: failed) { try HPKE.open(sealed, recipientKey: recipient, info: info + [0], authenticating: [1, 2]) }
        #expect(throws: failed) { try HPKE.open(sealed, recipientKey: recipient, info: info, authenticating: [1]) }
        for index in sealed.ciphertext.indices {
            let altered = HPKESealedMessage(encapsulatedKey: sealed.encapsulatedKey, ciphertext: flippingBit(sealed.ciphertext, at: index))
            #expect(throws: failed) { try HPKE.open(altered, recipientKey: recipient, info: info, authenticating: [1, 2]) }
        }
        let truncated = HPKESealedMessage(encapsulatedKey: sealed.encapsulatedKey, ciphertext: Array(sealed.ciphertext.dropLast()))
        #expect(throws: failed) { try HPKE.open(truncated, recipientKey: recipient, info: info, authenticating: [1, 2]) }
        let tagOnly = HPKESealedMessage(encapsulatedKey: sealed.encapsulatedKey, ciphertext: Array(sealed.ciphertext.suffix(15)))
        #expect(throws: CryptoError(.invalidParameter, "")) { try HPKE.open(tagOnly, recipientKey: recipient, info: info, authenticating: [1, 2]) }
        // Another point on the curve as enc: a valid key, the wrong secret.
        let otherPoint = try PrivateKey(generating: .p256).publicKey.x963Representation
        let swapped = HPKESealedMessage(encapsulatedKey: otherPoint, ciphertext: sealed.ciphertext)
        #expect(throws: failed) { try HPKE.open(swapped, recipientKey: recipient, info: info, authenticating: [1, 2]) }
    }

    @Test("Hostile: an enc of the wrong length or form, or off the curve, is refused before key agreement")
    func encapsulatedKeyForms() throws {
        let recipient = try PrivateKey(generating: .p256)
        let sealed = try HPKE.seal([1, 2, 3], to: recipient.publicKey, info: [])
        let enc = sealed.encapsulatedKey
        let compressed = [0x02 | (enc[64] & 1)] + enc[1...32]
        let offCurve = Array(enc.dropLast()) + [enc[64] ^ 1]
        let cases: [([UInt8], CryptoError)] = [
            ([], CryptoError(.invalidKey, "")),
            (Array(enc.dropLast()), CryptoError(.invalidKey, "")),
            (enc + [0], CryptoError(.invalidKey, "")),
            (Array(compressed), CryptoError(.invalidKey, "")),
            ([0x05] + enc.dropFirst(), CryptoError(.invalidKey, "")),
            (offCurve, CryptoError(.invalidPoint, "")),
            ([0x04] + [UInt8](repeating: 0, count: 64), CryptoError(.invalidPoint, "")),
        ]
        for (encapsulatedKey, expected) in cases {
            let message = HPKESealedMessage(encapsulatedKey: encapsulatedKey, ciphertext: sealed.ciphertext)
            #expect(throws: expected) { try HPKE.open(message, recipientKey: recipient, info: []) }
        }
    }

    @Test("Keys on another curve are refused")
    func otherCurves() throws {
        let p384 = try PrivateKey(generating: .p384)
        let mismatch = CryptoError(.curveMismatch, "")
        #expect(throws: mismatch) { try HPKE.seal([1], to: p384.publicKey, info: []) }
        let sealed = try HPKE.seal([1], to: try PrivateKey(generating: .p256).publicKey, info: [])
        #expect(throws: mismatch) { try HPKE.open(sealed, recipientKey: p384, info: []) }
    }

    @Test("Limits: plaintext, ciphertext, info and aad, each side")
    func limits() throws {
        let recipient = try PrivateKey(generating: .p256)
        let tooLarge = CryptoError(.inputTooLarge, "")
        let largest = [UInt8](repeating: 7, count: HPKE.maximumPlaintextByteCount)
        let sealed = try HPKE.seal(largest, to: recipient.publicKey, info: [])
        #expect(sealed.ciphertext.count == HPKE.maximumPlaintextByteCount + AESGCM.tagByteCount)
        #expect(try HPKE.open(sealed, recipientKey: recipient, info: []) == largest)
        #expect(throws: tooLarge) { try HPKE.seal(largest + [7], to: recipient.publicKey, info: []) }
        let oversize = HPKESealedMessage(encapsulatedKey: sealed.encapsulatedKey, ciphertext: sealed.ciphertext + [0])
        #expect(throws: tooLarge) { try HPKE.open(oversize, recipientKey: recipient, info: []) }

        let info = [UInt8](repeating: 1, count: HPKE.maximumInfoByteCount)
        let aad = [UInt8](repeating: 2, count: HPKE.maximumAssociatedDataByteCount)
        let bounded = try HPKE.seal([9], to: recipient.publicKey, info: info, authenticating: aad)
        #expect(try HPKE.open(bounded, recipientKey: recipient, info: info, authenticating: aad) == [9])
        #expect(throws: tooLarge) { try HPKE.seal([9], to: recipient.publicKey, info: info + [1]) }
        #expect(throws: tooLarge) { try HPKE.seal([9], to: recipient.publicKey, info: [], authenticating: aad + [2]) }
        #expect(throws: tooLarge) { try HPKE.open(bounded, recipientKey: recipient, info: info + [1], authenticating: aad) }
        #expect(throws: tooLarge) { try HPKE.open(bounded, recipientKey: recipient, info: info, authenticating: aad + [2]) }
    }

    @Test("No secret in a description or a message")
    func noSecrets() throws {
        let recipient = try PrivateKey(generating: .p256)
        let sealed = try HPKE.seal([1, 2, 3], to: recipient.publicKey, info: [])
        let context = try HPKEContext(sharedSecret: SecureBytes([UInt8](repeating: 0xAB, count: 32)), info: [], suite: .p256SHA256AES128GCM)
        #expect(String(describing: context.key) == "SymmetricKey(16 bytes)")
        let altered = HPKESealedMessage(encapsulatedKey: sealed.encapsulatedKey, ciphertext: flippingBit(sealed.ciphertext, at: 0))
        do {
            _ = try HPKE.open(altered, recipientKey: recipient, info: [])
            Issue.record("an altered ciphertext opened")
        } catch {
            #expect(!error.description.lowercased().contains(recipient.rawRepresentation.map { String(format: "%02x", $0) }.joined()))
        }
    }
}
