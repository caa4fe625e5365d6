@testable import MdocCrypto
import Testing

@Suite("Digests, HKDF, AES-GCM, HMAC")
struct SymmetricTests {
    @Test("SHA-2 of \"abc\" (FIPS 180-4 examples)")
    func digests() {
        let abc = Array("abc".utf8)
        #expect(DigestAlgorithm.sha256.hash(abc) == hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(DigestAlgorithm.sha384.hash(abc) == hex(
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"))
        #expect(DigestAlgorithm.sha512.hash(abc) == hex(
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"))
        for digest in DigestAlgorithm.allCases {
            #expect(digest.hash([]).count == digest.digestByteCount)
            #expect(DigestAlgorithm(rawValue: digest.rawValue) == digest)
        }
        #expect(DigestAlgorithm(rawValue: "SHA-1") == nil)
    }

    @Test("A digest compared in place: equal only to the whole digest of the same function")
    func digestComparison() {
        let abc = Array("abc".utf8)
        func digest(_ algorithm: DigestAlgorithm, of message: ArraySlice<UInt8>, equals expected: [UInt8]) -> Bool {
            message.withUnsafeBytes { bytes in expected.withUnsafeBytes { algorithm.digest(of: bytes, equals: $0) } }
        }
        for algorithm in DigestAlgorithm.allCases {
            let expected = algorithm.hash(abc)
            #expect(digest(algorithm, of: abc[...], equals: expected))
            #expect(!digest(algorithm, of: abc[...], equals: expected.dropLast() + [expected.last! ^ 1]))
            #expect(!digest(algorithm, of: abc[...], equals: Array(expected.dropLast())))
            #expect(!digest(algorithm, of: abc[...], equals: expected + [0]))
            #expect(!digest(algorithm, of: abc.dropLast(), equals: expected))
            let other = DigestAlgorithm.allCases.first { $0 != algorithm }!
            #expect(!digest(other, of: abc[...], equals: expected))
        }
    }

    @Test("One digest context, used again and again: each digest as EVP_Digest gives it, compared as DigestAlgorithm compares")
    func digestContextReused() {
        // Lengths across the block boundaries of SHA-256 (64 bytes) and SHA-384/512 (128 bytes),
        // one after the other in the same context, a mismatch among them.
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for algorithm in DigestAlgorithm.allCases {
            let context = DigestContext(algorithm)
            #expect(context.algorithm == algorithm)
            for length in [0, 1, 55, 56, 64, 111, 112, 128, 129, 300, 3, 0] {
                let part = message[..<length]
                let expected = algorithm.hash(Array(part))
                func matches(_ candidate: [UInt8]) -> Bool {
                    part.withUnsafeBytes { bytes in candidate.withUnsafeBytes { context.digest(of: bytes, equals: $0) } }
                }
                #expect(matches(expected), "\(algorithm) of \(length) bytes")
                // A digest differing in any one byte, wherever it sits among the bytes compared
                // together, does not match.
                for position in expected.indices {
                    var changed = expected
                    changed[position] ^= 1
                    #expect(!matches(changed), "\(algorithm) of \(length) bytes, byte \(position) changed")
                }
                #expect(!matches(Array(expected.dropLast())))
                #expect(!matches(expected + [0]))
                #expect(matches(expected), "\(algorithm) of \(length) bytes, after a mismatch")
            }
        }
    }

    @Test("HKDF-SHA-256, RFC 5869 test case 1")
    func hkdfCase1() throws {
        let key = try HKDF.deriveKey(
            inputKeyMaterial: [UInt8](repeating: 0x0b, count: 22), salt: hex("000102030405060708090a0b0c"),
            info: hex("f0f1f2f3f4f5f6f7f8f9"), outputByteCount: 42)
        #expect(key.bytes == hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
    }

    @Test("HKDF-SHA-256, RFC 5869 test case 3 (empty salt and info)")
    func hkdfCase3() throws {
        let key = try HKDF.deriveKey(
            inputKeyMaterial: [UInt8](repeating: 0x0b, count: 22), salt: [], info: [], outputByteCount: 42)
        #expect(key.bytes == hex("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
    }

    @Test("HKDF-Extract and HKDF-Expand as separate steps, RFC 5869 test cases 1 and 3 (PRK, then OKM)")
    func hkdfSteps() throws {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        let salt = hex("000102030405060708090a0b0c")
        let prk = try ikm.withUnsafeBytes { ikmBytes in
            try salt.withUnsafeBytes { saltBytes in try HKDF.extract(salt: saltBytes, inputKeyMaterial: ikmBytes) }
        }
        #expect(prk.withUnsafeBytes { Array($0) } == hex("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5"))
        let okm = try prk.withUnsafeBytes { try HKDF.expand(pseudorandomKey: $0, info: hex("f0f1f2f3f4f5f6f7f8f9"), outputByteCount: 42) }
        #expect(okm.withUnsafeBytes { Array($0) } == hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
        let unsalted = try ikm.withUnsafeBytes { try HKDF.extract(salt: UnsafeRawBufferPointer(start: nil, count: 0), inputKeyMaterial: $0) }
        #expect(unsalted.withUnsafeBytes { Array($0) } == hex("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04"))
        let unsaltedOKM = try unsalted.withUnsafeBytes { try HKDF.expand(pseudorandomKey: $0, info: [], outputByteCount: 42) }
        #expect(unsaltedOKM.withUnsafeBytes { Array($0) } == hex("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
        let invalid = CryptoError(.invalidParameter, "")
        #expect(throws: invalid) { try prk.withUnsafeBytes { try HKDF.expand(pseudorandomKey: $0, info: [], outputByteCount: 0) } }
        #expect(throws: invalid) {
            try prk.withUnsafeBytes { try HKDF.expand(pseudorandomKey: $0, info: [], outputByteCount: HKDF.maximumOutputByteCount + 1) }
        }
        #expect(throws: invalid) {
            try prk.withUnsafeBytes { try HKDF.expand(pseudorandomKey: $0, info: [UInt8](repeating: 0, count: HKDF.maximumInfoByteCount + 1), outputByteCount: 32) }
        }
        #expect(throws: invalid) { try HKDF.extract(salt: UnsafeRawBufferPointer(start: nil, count: 0), inputKeyMaterial: UnsafeRawBufferPointer(start: nil, count: 0)) }
    }

    @Test("AES-128-GCM, McGrew–Viega GCM test case 4 (128-bit key, with AAD); a 32-byte key is refused")
    func aes128GCM() throws {
        let key = SymmetricKey(bytes: hex("feffe9928665731c6d6a8f9467308308"))
        let nonce = hex("cafebabefacedbaddecaf888")
        let plaintext = hex(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let sealed = try AESGCM.seal(plaintext, key: key, nonce: nonce, authenticating: aad, keyLength: .bits128)
        #expect(sealed == hex(
            "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091"
                + "5bc94fbc3221a5db94fae95ae7121a47"))
        #expect(try AESGCM.open(sealed, key: key, nonce: nonce, authenticating: aad, keyLength: .bits128) == plaintext)
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try AESGCM.seal(plaintext, key: SymmetricKey(bytes: [UInt8](repeating: 1, count: 32)), nonce: nonce, authenticating: [], keyLength: .bits128)
        }
    }

    @Test("Concat KDF, RFC 7518 Appendix C: ECDH-ES's A128GCM key from Z and the OtherInfo of apu \"Alice\", apv \"Bob\"; limits each side")
    func concatKDF() throws {
        // Bob's private key and Alice's ephemeral public key of Appendix C, decoded from base64url.
        let bob = try PrivateKey(rawRepresentation: hex("5449836690d75caf29f0dd029ddb31b3ddb8aba9d2d515c5012465e817d4a9dc"), curve: .p256)
        let alice = try PublicKey(
            x: hex("808d060082c176eed3e776a4ac598cc8672c1779f974eecc9b03411ca5b9495d"),
            y: hex("48b5bfc527dfce53d6ac7115237d031ccff87a0570b77350a9e503ee7305a69b"), curve: .p256)
        let z = try bob.sharedSecret(with: alice)
        let otherInfo = hex("000000074131323847434d00000005416c69636500000003426f6200000080")
        let key = try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: otherInfo, outputByteCount: 16)
        #expect(key.bytes == [86, 170, 141, 234, 248, 35, 109, 32, 92, 34, 40, 205, 113, 167, 16, 26])
        // Two rounds: the first 32 bytes are round 1, whose first 16 are the key above.
        let long = try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: otherInfo, outputByteCount: ConcatKDF.maximumOutputByteCount)
        #expect(long.byteCount == 64 && Array(long.bytes.prefix(16)) == key.bytes)
        let invalid = CryptoError(.invalidParameter, "")
        #expect(throws: invalid) { try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: otherInfo, outputByteCount: 0) }
        #expect(throws: invalid) {
            try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: otherInfo, outputByteCount: ConcatKDF.maximumOutputByteCount + 1)
        }
        let longest = [UInt8](repeating: 1, count: ConcatKDF.maximumOtherInfoByteCount)
        #expect(try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: longest, outputByteCount: 32).byteCount == 32)
        #expect(throws: invalid) { try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: longest + [1], outputByteCount: 32) }
        #expect(try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: [], outputByteCount: 32) != (try ConcatKDF.deriveKey(sharedSecret: z, otherInfo: [0], outputByteCount: 32)))
    }

    @Test("HKDF limits: output length and info length, each side")
    func hkdfLimits() throws {
        let ikm = [UInt8](repeating: 1, count: 32)
        let invalid = CryptoError(.invalidParameter, "")
        #expect(try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: [], outputByteCount: HKDF.maximumOutputByteCount).byteCount == 8160)
        #expect(throws: invalid) {
            try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: [], outputByteCount: HKDF.maximumOutputByteCount + 1)
        }
        #expect(try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: [], outputByteCount: 1).byteCount == 1)
        #expect(throws: invalid) { try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: [], outputByteCount: 0) }
        let longestInfo = [UInt8](repeating: 7, count: HKDF.maximumInfoByteCount)
        let withLongestInfo = try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: longestInfo, outputByteCount: 32)
        // The whole info counts: changing its last byte changes the key.
        var changedInfo = longestInfo
        changedInfo[changedInfo.count - 1] = 8
        #expect(try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: changedInfo, outputByteCount: 32) != withLongestInfo)
        #expect(throws: invalid) { try HKDF.deriveKey(inputKeyMaterial: ikm, salt: [], info: longestInfo + [7], outputByteCount: 32) }
        #expect(throws: invalid) { try HKDF.deriveKey(inputKeyMaterial: [], salt: [], info: [], outputByteCount: 32) }
    }

    @Test("AES-256-GCM, McGrew–Viega GCM test case 16 (256-bit key, with AAD)")
    func aesGCMKnownAnswer() throws {
        let key = SymmetricKey(bytes: hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
        let nonce = hex("cafebabefacedbaddecaf888")
        let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let plaintext = hex(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
                + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let sealed = hex(
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
                + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
                + "76fc6ece0f4e1768cddf8853bb2d551b")
        #expect(try AESGCM.seal(plaintext, key: key, nonce: nonce, authenticating: aad) == sealed)
        #expect(try AESGCM.open(sealed, key: key, nonce: nonce, authenticating: aad) == plaintext)
        let failure = CryptoError(.authenticationFailure, "")
        #expect(throws: failure) { try AESGCM.open(flippingBit(sealed, at: sealed.count - 1), key: key, nonce: nonce, authenticating: aad) }
        #expect(throws: failure) { try AESGCM.open(flippingBit(sealed, at: 0), key: key, nonce: nonce, authenticating: aad) }
        #expect(throws: failure) { try AESGCM.open(sealed, key: key, nonce: nonce, authenticating: flippingBit(aad, at: 0)) }
        #expect(throws: failure) { try AESGCM.open(sealed, key: key, nonce: flippingBit(nonce, at: 11), authenticating: aad) }
        #expect(throws: failure) { try AESGCM.open(sealed, key: key, nonce: nonce) }
    }

    @Test("AES-256-GCM sizes: key, nonce, empty plaintext, input shorter than a tag")
    func aesGCMSizes() throws {
        let key = SymmetricKey(bytes: [UInt8](repeating: 3, count: 32))
        let nonce = [UInt8](repeating: 0, count: 12)
        let invalid = CryptoError(.invalidParameter, "")
        #expect(throws: invalid) { try AESGCM.seal([1], key: SymmetricKey(bytes: [UInt8](repeating: 3, count: 16)), nonce: nonce) }
        #expect(throws: invalid) { try AESGCM.seal([1], key: key, nonce: [UInt8](repeating: 0, count: 11)) }
        #expect(throws: invalid) { try AESGCM.seal([1], key: key, nonce: [UInt8](repeating: 0, count: 13)) }
        let sealedEmpty = try AESGCM.seal([], key: key, nonce: nonce)
        #expect(sealedEmpty.count == AESGCM.tagByteCount)
        #expect(try AESGCM.open(sealedEmpty, key: key, nonce: nonce) == [])
        #expect(throws: invalid) { try AESGCM.open(Array(sealedEmpty.dropLast()), key: key, nonce: nonce) }
        #expect(throws: CryptoError(.authenticationFailure, "")) { try AESGCM.open(flippingBit(sealedEmpty, at: 5), key: key, nonce: nonce) }
    }

    @Test("HMAC-SHA-256, RFC 4231 test case 2; tampered and truncated tags fail")
    func hmacKnownAnswer() {
        let key = SymmetricKey(bytes: Array("Jefe".utf8))
        let message = Array("what do ya want for nothing?".utf8)
        let tag = hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(HMACSHA256.authenticationCode(for: message, key: key) == tag)
        #expect(HMACSHA256.isValidAuthenticationCode(tag, for: message, key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode(flippingBit(tag, at: 31), for: message, key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode(Array(tag.prefix(16)), for: message, key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode(tag + [0], for: message, key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode(tag, for: message + [0], key: key))
        #expect(!HMACSHA256.isValidAuthenticationCode(tag, for: message, key: SymmetricKey(bytes: Array("Jeff".utf8))))
    }

    @Test("HMAC-SHA-256 with an empty key and message (RFC 2104 allows both)")
    func hmacEmpty() {
        let tag = HMACSHA256.authenticationCode(for: [], key: SymmetricKey(bytes: []))
        #expect(tag == hex("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
    }

    @Test("symmetric keys never print their bytes")
    func symmetricKeyDescription() {
        let key = SymmetricKey(bytes: [0xAB, 0xCD, 0xEF, 0x12])
        #expect(key.description == "SymmetricKey(4 bytes)")
        #expect(String(reflecting: key) == "SymmetricKey(4 bytes)")
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!dumped.lowercased().contains("ab") && !dumped.contains("171"))
        #expect(key.byteCount == 4)
        #expect(key.bytes == [0xAB, 0xCD, 0xEF, 0x12])
        #expect(key == SymmetricKey(bytes: [0xAB, 0xCD, 0xEF, 0x12]))
        #expect(key != SymmetricKey(bytes: [0xAB, 0xCD, 0xEF, 0x13]))
        #expect(key != SymmetricKey(bytes: [0xAB, 0xCD, 0xEF]))
    }
}
