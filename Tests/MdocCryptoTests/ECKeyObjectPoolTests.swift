@testable import MdocCrypto
import Testing

/// Public keys lent on reused OpenSSL key objects (`PublicKey.withPublicKey`): each is the key
/// `PublicKey(x:y:curve:)` makes, for OpenSSL's operations too, and an object is reused only when
/// nothing kept the key lent on it. Every test has a pool of its own.
@Suite("Key objects reused for public keys")
struct ECKeyObjectPoolTests {
    static let weierstrassCurves = Curve.allCases.filter(\.isWeierstrass)

    /// The coordinates of a new key pair's public key, with the pair.
    private static func keyPair(_ curve: Curve) throws -> (PrivateKey, x: [UInt8], y: [UInt8]) {
        let pair = try PrivateKey(generating: curve)
        let coordinates = try #require(pair.publicKey.coordinates)
        return (pair, coordinates.x, coordinates.y)
    }

    private static func secret(_ privateKey: PrivateKey, _ peer: PublicKey) throws -> [UInt8] {
        try privateKey.sharedSecret(with: peer).withUnsafeBytes { Array($0) }
    }

    @Test("each key lent is the one PublicKey(x:y:curve:) makes, for ECDH too, on one reused object", arguments: weierstrassCurves)
    func lentKeysAreTheKeys(curve: Curve) throws {
        let pool = ECKeyObjectPool()
        let reader = try PrivateKey(generating: curve)
        var objects: Set<ObjectIdentifier> = []
        for _ in 0..<3 {
            let (device, x, y) = try Self.keyPair(curve)
            let made = try PublicKey(x: x, y: y, curve: curve)
            let (same, secret, object) = try PublicKey.withPublicKey(x: x, y: y, curve: curve, from: pool) { lent in
                (lent == made, Result { try Self.secret(reader, lent) }, ObjectIdentifier(lent.key))
            }
            #expect(same)
            #expect(try secret.get() == Self.secret(reader, made))
            #expect(try secret.get() == Self.secret(device, reader.publicKey))
            objects.insert(object)
            #expect(pool.keptCount(for: curve) == 1)
        }
        #expect(objects.count == 1, "the object of the first key served the next two")
    }

    @Test("a point off the curve is refused as PublicKey(x:y:curve:) refuses it, and its object is not kept")
    func pointOffTheCurve() throws {
        let pool = ECKeyObjectPool()
        let (_, x, y) = try Self.keyPair(.p256)
        try PublicKey.withPublicKey(x: x, y: y, curve: .p256, from: pool) { _ in }
        #expect(pool.keptCount(for: .p256) == 1)
        var offCurve = y
        offCurve[offCurve.count - 1] ^= 0x01
        let expected = #expect(throws: CryptoError.self) { try PublicKey(x: x, y: offCurve, curve: .p256) }
        let refused = #expect(throws: CryptoError.self) {
            try PublicKey.withPublicKey(x: x, y: offCurve, curve: .p256, from: pool) { _ in }
        }
        #expect(refused?.code == .invalidPoint)
        #expect(refused?.code == expected?.code)
        #expect(pool.keptCount(for: .p256) == 0, "the object that refused the point is freed")
        let wrongLength = #expect(throws: CryptoError.self) {
            try PublicKey.withPublicKey(x: x, y: Array(y.dropLast()), curve: .p256, from: pool) { _ in }
        }
        #expect(wrongLength?.code == .invalidKey)
        let lent = try PublicKey.withPublicKey(x: x, y: y, curve: .p256, from: pool) { $0.x963Representation }
        #expect(lent == [0x04] + x + y)
    }

    @Test("a key kept beyond the call keeps its point, and its object is not reused")
    func keptKeyStaysAsItIs() throws {
        let pool = ECKeyObjectPool()
        let reader = try PrivateKey(generating: .p256)
        let (_, x, y) = try Self.keyPair(.p256)
        var kept: PublicKey?
        try PublicKey.withPublicKey(x: x, y: y, curve: .p256, from: pool) { kept = $0 }
        #expect(pool.keptCount(for: .p256) == 0)
        let (_, otherX, otherY) = try Self.keyPair(.p256)
        try PublicKey.withPublicKey(x: otherX, y: otherY, curve: .p256, from: pool) { _ in }
        let keptKey = try #require(kept)
        #expect(keptKey.x963Representation == [0x04] + x + y)
        #expect(try Self.secret(reader, keptKey) == Self.secret(reader, PublicKey(x: x, y: y, curve: .p256)))
    }

    /// Lends `depth` keys at once, each inside the last, and returns how many objects the pool
    /// keeps afterwards.
    private static func keptAfterLending(_ depth: Int, keys: [(x: [UInt8], y: [UInt8])], pool: ECKeyObjectPool) throws -> Int {
        func lend(_ level: Int) throws {
            guard level < depth else { return }
            try PublicKey.withPublicKey(x: keys[level].x, y: keys[level].y, curve: .p256, from: pool) { _ in Result { try lend(level + 1) } }.get()
        }
        try lend(0)
        return pool.keptCount(for: .p256)
    }

    @Test("at most maximumKeptPerCurve objects are kept")
    func keptObjectsAreBounded() throws {
        let maximum = ECKeyObjectPool.maximumKeptPerCurve
        let keys = try (0...maximum).map { _ in try Self.keyPair(.p256) }.map { (x: $0.x, y: $0.y) }
        #expect(try Self.keptAfterLending(maximum, keys: keys, pool: ECKeyObjectPool()) == maximum)
        #expect(try Self.keptAfterLending(maximum + 1, keys: keys, pool: ECKeyObjectPool()) == maximum)
    }

    @Test("keys lent on many threads at once are each their own")
    func concurrentLending() async throws {
        let pool = ECKeyObjectPool()
        let reader = try PrivateKey(generating: .p256)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<25 {
                        let (device, x, y) = try Self.keyPair(.p256)
                        let expected = try Self.secret(device, reader.publicKey)
                        let lent = try PublicKey.withPublicKey(x: x, y: y, curve: .p256, from: pool) { key in
                            Result { try Self.secret(reader, key) }
                        }
                        guard try lent.get() == expected else { return false }
                    }
                    return true
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
        #expect(pool.keptCount(for: .p256) <= ECKeyObjectPool.maximumKeptPerCurve)
    }
}
