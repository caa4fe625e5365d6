import MdocCBOR
import Testing

/// Each limit of ``CBORLimits`` just under and just over (docs/architecture.md rule 3).
struct LimitsTests {
    @Test func defaultsAreTheNamedConstants() {
        #expect(CBORLimits.default.maximumDepth == 32)
        #expect(CBORLimits.default.maximumItemCount == 65_536)
        #expect(CBORLimits.default.maximumInputSize == 8 * 1024 * 1024)
    }

    /// `count` nested one-element arrays around 0.
    private func nestedArrays(_ count: Int) -> [UInt8] {
        [UInt8](repeating: 0x81, count: count) + [0x00]
    }

    @Test func depthAtTheLimit() throws {
        let depth = CBORLimits.defaultMaximumDepth
        var value = try CBOR.decode(nestedArrays(depth))
        var levels = 0
        while case .array(let items) = value, let first = items.first {
            levels += 1
            value = first
        }
        #expect(levels == depth)
        let error = decodingError(nestedArrays(depth + 1))
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.path == CBORPath(components: Array(repeating: .index(0), count: depth)))
    }

    @Test func depthCountsTagsMapsAndIndefiniteStrings() throws {
        let limits = CBORLimits(maximumDepth: 3, maximumItemCount: 100, maximumInputSize: 100)
        #expect(try decodingError(hex: "c1 a1 00 81 00", limits: limits) == nil)
        #expect(try decodingError(hex: "c1 a1 00 81 81 00", limits: limits)?.code == .depthLimitExceeded)
        #expect(try decodingError(hex: "c1 81 5f 4100 ff", limits: limits) == nil)
        #expect(try decodingError(hex: "c1 81 81 5f 4100 ff", limits: limits)?.code == .depthLimitExceeded)
    }

    @Test func itemCountAtTheLimit() throws {
        let maximum = CBORLimits.defaultMaximumItemCount
        // An array of maximum - 1 zeros is maximum items with its head.
        let under = [0x99, 0xff, 0xff] + [UInt8](repeating: 0, count: maximum - 1)
        #expect(try CBOR.decode(under).arrayValue?.count == maximum - 1)
        let over = [0x9a, 0x00, 0x01, 0x00, 0x00] + [UInt8](repeating: 0, count: maximum)
        let error = decodingError(over)
        #expect(error?.code == .itemCountLimitExceeded)
        #expect(error?.path == CBORPath(components: [.index(maximum - 1)]))
    }

    @Test func itemCountIncludesKeysTagsAndChunks() throws {
        let limits = CBORLimits(maximumDepth: 8, maximumItemCount: 4, maximumInputSize: 100)
        #expect(try decodingError(hex: "a1 00 c1 00", limits: limits) == nil)
        #expect(try decodingError(hex: "a1 00 c1 c1 00", limits: limits)?.code == .itemCountLimitExceeded)
        #expect(try decodingError(hex: "5f 4100 4100 4100 ff", limits: limits) == nil)
        #expect(try decodingError(hex: "5f 4100 4100 4100 4100 ff", limits: limits)?.code == .itemCountLimitExceeded)
    }

    @Test func inputSizeAtTheLimit() throws {
        let maximum = CBORLimits.defaultMaximumInputSize
        let head: [UInt8] = [0x5a] + withUnsafeBytes(of: UInt32(maximum - 5).bigEndian, Array.init)
        let atLimit = head + [UInt8](repeating: 0xab, count: maximum - 5)
        #expect(atLimit.count == maximum)
        #expect(try CBOR.decode(atLimit).bytesValue?.count == maximum - 5)
        let tooLarge = atLimit + [0x00]
        #expect(decodingError(tooLarge)?.code == .inputTooLarge)
        // Size is checked before anything else.
        #expect(decodingError([0xff] + [UInt8](repeating: 0, count: maximum))?.code == .inputTooLarge)
    }

    @Test func customLimitsApply() throws {
        let limits = CBORLimits(maximumDepth: 1, maximumItemCount: 3, maximumInputSize: 4)
        #expect(try decodingError(hex: "820102", limits: limits) == nil)
        #expect(try decodingError(hex: "83010203", limits: limits)?.code == .itemCountLimitExceeded)
        #expect(try decodingError(hex: "8181 00", limits: limits)?.code == .depthLimitExceeded)
        #expect(try decodingError(hex: "4401020304", limits: limits)?.code == .inputTooLarge)
    }
}
