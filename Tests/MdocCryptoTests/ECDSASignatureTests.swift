import MdocCrypto
import Testing

@Suite("ECDSA signature encodings")
struct ECDSASignatureTests {
    @Test("raw to DER: minimal integers, a zero byte before a set high bit")
    func rawToDER() throws {
        let r = [UInt8](repeating: 0, count: 31) + [0x01]
        let s = [0x80] + [UInt8](repeating: 0, count: 31)
        let der = try ECDSASignature.derFromRaw(r + s)
        #expect(der == [0x30, 0x26, 0x02, 0x01, 0x01, 0x02, 0x21, 0x00, 0x80] + [UInt8](repeating: 0, count: 31))
        #expect(try ECDSASignature.rawFromDER(der, coordinateByteCount: 32) == r + s)
        // Zero encodes as one zero byte.
        #expect(try ECDSASignature.derFromRaw([0, 0, 0, 0]) == [0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00])
    }

    @Test("P-521 sizes use a two-byte DER length")
    func longForm() throws {
        let raw = [UInt8](repeating: 0xFF, count: 132)
        let der = try ECDSASignature.derFromRaw(raw)
        #expect(Array(der.prefix(5)) == [0x30, 0x81, 0x8A, 0x02, 0x43])
        #expect(der.count == 141)
        #expect(try ECDSASignature.rawFromDER(der, coordinateByteCount: 66) == raw)
    }

    @Test("coordinate length limit, each side")
    func coordinateLimit() throws {
        let limit = ECDSASignature.maximumCoordinateByteCount
        let invalid = CryptoError(.invalidParameter, "")
        let der = try ECDSASignature.derFromRaw([UInt8](repeating: 0x11, count: 2 * limit))
        #expect(try ECDSASignature.rawFromDER(der, coordinateByteCount: limit).count == 2 * limit)
        #expect(throws: invalid) { try ECDSASignature.rawFromDER(der, coordinateByteCount: limit + 1) }
        #expect(throws: invalid) { try ECDSASignature.rawFromDER(der, coordinateByteCount: 0) }
        #expect(throws: invalid) { try ECDSASignature.derFromRaw([UInt8](repeating: 0x11, count: 2 * limit + 2)) }
        #expect(throws: invalid) { try ECDSASignature.derFromRaw([UInt8](repeating: 0x11, count: 63)) }
        #expect(throws: invalid) { try ECDSASignature.derFromRaw([]) }
    }

    @Test("DER that is not strict, or does not fit, is refused")
    func strictDER() throws {
        let invalid = CryptoError(.invalidEncoding, "")
        let good: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]
        #expect(try ECDSASignature.rawFromDER(good, coordinateByteCount: 1) == [1, 2])
        #expect(throws: invalid) { try ECDSASignature.rawFromDER(good + [0], coordinateByteCount: 1) }
        #expect(throws: invalid) { try ECDSASignature.rawFromDER(Array(good.dropLast()), coordinateByteCount: 1) }
        #expect(throws: invalid) { try ECDSASignature.rawFromDER([], coordinateByteCount: 1) }
        // Non-minimal length of the SEQUENCE.
        #expect(throws: invalid) {
            try ECDSASignature.rawFromDER([0x30, 0x81, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02], coordinateByteCount: 1)
        }
        // Non-minimal INTEGER (a needless leading zero).
        #expect(throws: invalid) {
            try ECDSASignature.rawFromDER([0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x02], coordinateByteCount: 1)
        }
        // Negative r.
        #expect(throws: invalid) { try ECDSASignature.rawFromDER([0x30, 0x06, 0x02, 0x01, 0xFF, 0x02, 0x01, 0x02], coordinateByteCount: 1) }
        // r wider than the coordinate length.
        #expect(throws: invalid) {
            try ECDSASignature.rawFromDER([0x30, 0x07, 0x02, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02], coordinateByteCount: 1)
        }
        // Three integers.
        #expect(throws: invalid) {
            try ECDSASignature.rawFromDER([0x30, 0x09, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02, 0x02, 0x01, 0x03], coordinateByteCount: 1)
        }
    }
}
