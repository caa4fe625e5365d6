@testable import MdocCrypto
import Testing

@Suite("A private key sealed with a passphrase: scrypt (RFC 7914), then AES-256-GCM")
struct SealedPrivateKeyTests {
    /// The cheapest parameters accepted, so that the tests that seal and open run quickly;
    /// ``standardParametersRoundTrip()`` runs the default ones.
    static let quick = try! SealedPrivateKey.Parameters(cost: SealedPrivateKey.Parameters.minimumCost, blockSize: 8, parallelization: 1)
    static let passphrase = Array("correct horse battery staple".utf8)
    static let associatedData = Array("the public key".utf8)

    static func sealed(_ key: PrivateKey) throws -> SealedPrivateKey {
        try SealedPrivateKey(sealing: key, passphrase: passphrase, associatedData: associatedData, parameters: quick)
    }

    @Test("scrypt is RFC 7914's: the test vector of section 12 (N=16384, r=8, p=1), first 32 bytes")
    func scryptVector() throws {
        let parameters = try SealedPrivateKey.Parameters(cost: 16384, blockSize: 8, parallelization: 1)
        let key = try SealedPrivateKey.deriveKey(passphrase: Array("pleaseletmein".utf8), salt: Array("SodiumChloride".utf8), parameters: parameters)
        #expect(key.bytes == hex("7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"))
    }

    @Test("a key seals and opens with its passphrase", arguments: [Curve.p256, .p384, .p521, .ed25519, .x25519])
    func roundTrip(curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        let sealed = try Self.sealed(key)
        #expect(sealed.salt.count == SealedPrivateKey.saltByteCount)
        #expect(sealed.nonce.count == AESGCM.nonceByteCount)
        #expect(sealed.ciphertext.count == curve.coordinateByteCount + AESGCM.tagByteCount)
        // The private key's bytes are nowhere in the sealed form.
        let raw = key.rawRepresentation
        for part in [sealed.salt, sealed.nonce, sealed.ciphertext] {
            #expect(!(0...max(0, part.count - raw.count)).contains { Array(part.dropFirst($0).prefix(raw.count)) == raw })
        }
        let opened = try sealed.privateKey(passphrase: Self.passphrase, curve: curve, associatedData: Self.associatedData)
        #expect(opened.rawRepresentation == key.rawRepresentation)
        // A new salt and nonce each time: the same key sealed twice is sealed differently.
        let again = try Self.sealed(key)
        #expect(again.salt != sealed.salt && again.nonce != sealed.nonce && again.ciphertext != sealed.ciphertext)
    }

    @Test("the default parameters, N=2^17, r=8, p=1 (128 MiB), seal and open")
    func standardParametersRoundTrip() throws {
        #expect(SealedPrivateKey.Parameters.standard.cost == 1 << 17)
        #expect(SealedPrivateKey.Parameters.standard.memoryByteCount == 128 << 20)
        let key = try PrivateKey(generating: .p256)
        let sealed = try SealedPrivateKey(sealing: key, passphrase: Self.passphrase, associatedData: Self.associatedData)
        #expect(sealed.parameters == .standard)
        #expect(try sealed.privateKey(passphrase: Self.passphrase, curve: .p256, associatedData: Self.associatedData).publicKey == key.publicKey)
    }

    @Test("the costliest parameters accepted, 256 MiB with r and p at their bounds, are ones OpenSSL runs")
    func costliestParametersRun() throws {
        let parameters = try Parameters(
            cost: Parameters.maximumMemoryByteCount / (128 * UInt64(Parameters.maximumBlockSize)), blockSize: Parameters.maximumBlockSize,
            parallelization: Parameters.maximumParallelization)
        #expect(parameters.memoryByteCount == Parameters.maximumMemoryByteCount)
        let key = try SealedPrivateKey.deriveKey(passphrase: Self.passphrase, salt: [UInt8](repeating: 7, count: SealedPrivateKey.saltByteCount),
                                                 parameters: parameters)
        #expect(key.byteCount == AESGCM.keyByteCount)
    }

    @Test("a wrong passphrase, or any altered part, fails the tag: \"wrong passphrase or altered sealed key\"")
    func alterations() throws {
        let sealed = try Self.sealed(try PrivateKey(generating: .p256))
        func fails(_ candidate: SealedPrivateKey, passphrase: [UInt8] = Self.passphrase, associatedData: [UInt8] = Self.associatedData) {
            let error = #expect(throws: CryptoError.self) {
                _ = try candidate.privateKey(passphrase: passphrase, curve: .p256, associatedData: associatedData)
            }
            #expect(error?.code == .authenticationFailure)
            #expect(error?.reason == "wrong passphrase or altered sealed key")
        }
        fails(sealed, passphrase: Array("correct horse battery stapler".utf8))
        fails(sealed, associatedData: Array("another public key".utf8))
        fails(try SealedPrivateKey(parameters: sealed.parameters, salt: flippingBit(sealed.salt, at: 0), nonce: sealed.nonce, ciphertext: sealed.ciphertext))
        fails(try SealedPrivateKey(parameters: sealed.parameters, salt: sealed.salt, nonce: flippingBit(sealed.nonce, at: 11), ciphertext: sealed.ciphertext))
        fails(try SealedPrivateKey(parameters: sealed.parameters, salt: sealed.salt, nonce: sealed.nonce, ciphertext: flippingBit(sealed.ciphertext, at: 3)))
        fails(try SealedPrivateKey(
            parameters: sealed.parameters, salt: sealed.salt, nonce: sealed.nonce, ciphertext: flippingBit(sealed.ciphertext, at: sealed.ciphertext.count - 1)))
        let otherCost = try SealedPrivateKey.Parameters(cost: SealedPrivateKey.Parameters.minimumCost * 2, blockSize: 8, parallelization: 1)
        fails(try SealedPrivateKey(parameters: otherCost, salt: sealed.salt, nonce: sealed.nonce, ciphertext: sealed.ciphertext))
        // The unaltered key still opens.
        #expect(throws: Never.self) { _ = try sealed.privateKey(passphrase: Self.passphrase, curve: .p256, associatedData: Self.associatedData) }
    }

    @Test("an empty passphrase, and a ciphertext of another curve's length, are refused")
    func refusedInput() throws {
        let key = try PrivateKey(generating: .p256)
        #expect(throws: CryptoError(.invalidParameter, "")) {
            _ = try SealedPrivateKey(sealing: key, passphrase: [], associatedData: [], parameters: Self.quick)
        }
        let sealed = try Self.sealed(key)
        #expect(throws: CryptoError(.invalidParameter, "")) {
            _ = try sealed.privateKey(passphrase: [], curve: .p256, associatedData: Self.associatedData)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            _ = try sealed.privateKey(passphrase: Self.passphrase, curve: .p384, associatedData: Self.associatedData)
        }
    }

    @Test("the salt is 16 bytes, the nonce 12, the ciphertext more than a tag: each length checked on both sides")
    func storedLengths() throws {
        let parameters = Self.quick
        let salt = [UInt8](repeating: 1, count: SealedPrivateKey.saltByteCount)
        let nonce = [UInt8](repeating: 2, count: AESGCM.nonceByteCount)
        let ciphertext = [UInt8](repeating: 3, count: AESGCM.tagByteCount + 1)
        #expect(throws: Never.self) { _ = try SealedPrivateKey(parameters: parameters, salt: salt, nonce: nonce, ciphertext: ciphertext) }
        for (salt, nonce, ciphertext) in [
            (Array(salt.dropLast()), nonce, ciphertext), (salt + [0], nonce, ciphertext),
            (salt, Array(nonce.dropLast()), ciphertext), (salt, nonce + [0], ciphertext),
            (salt, nonce, Array(ciphertext.dropLast())),
        ] {
            #expect(throws: CryptoError(.invalidParameter, "")) {
                _ = try SealedPrivateKey(parameters: parameters, salt: salt, nonce: nonce, ciphertext: ciphertext)
            }
        }
    }

    typealias Parameters = SealedPrivateKey.Parameters

    @Test("scrypt parameters inside their bounds are accepted (checked without running scrypt)", arguments: [
        (Parameters.minimumCost, UInt32(1), UInt32(1)),
        (Parameters.maximumCost, UInt32(2), UInt32(1)),  // 2^20 × 2 × 128 = 256 MiB, the memory bound
        (UInt64(1 << 18), UInt32(8), UInt32(1)),  // 256 MiB
        (Parameters.minimumCost, Parameters.maximumBlockSize, UInt32(1)),
        (Parameters.minimumCost, UInt32(8), Parameters.maximumParallelization),
    ])
    func parametersWithinBounds(cost: UInt64, blockSize: UInt32, parallelization: UInt32) throws {
        let parameters = try Parameters(cost: cost, blockSize: blockSize, parallelization: parallelization)
        #expect(parameters.memoryByteCount <= Parameters.maximumMemoryByteCount)
    }

    @Test("scrypt parameters just outside each bound are refused before any work", arguments: [
        (Parameters.minimumCost / 2, UInt32(1), UInt32(1)),
        (Parameters.maximumCost * 2, UInt32(1), UInt32(1)),
        (Parameters.minimumCost + 1, UInt32(1), UInt32(1)),  // not a power of two
        (UInt64(0), UInt32(1), UInt32(1)),
        (Parameters.minimumCost, UInt32(0), UInt32(1)),
        (Parameters.minimumCost, Parameters.maximumBlockSize + 1, UInt32(1)),
        (Parameters.minimumCost, UInt32(8), UInt32(0)),
        (Parameters.minimumCost, UInt32(8), Parameters.maximumParallelization + 1),
        (Parameters.maximumCost, UInt32(3), UInt32(1)),  // 384 MiB
        (UInt64(1 << 18), UInt32(9), UInt32(1)),  // 288 MiB
    ])
    func parametersOutsideBounds(cost: UInt64, blockSize: UInt32, parallelization: UInt32) {
        #expect(throws: CryptoError(.invalidParameter, "")) {
            _ = try Parameters(cost: cost, blockSize: blockSize, parallelization: parallelization)
        }
    }
}
