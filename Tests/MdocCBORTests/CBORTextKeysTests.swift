@testable import MdocCBOR
import Testing

@Suite("CBORTextKeys: a received key is the key of its bytes, or none")
struct CBORTextKeysTests {
    /// Keys of every length from 0 to 20, several sharing a length, around the 4- and 8-byte
    /// steps of the comparison.
    static let keys: CBORTextKeys = [
        "", "a", "ab", "ac", "abc", "abcd", "abce", "abcde", "abcdefg", "abcdefgh", "bbcdefgh", "abcdefghi", "abcdefghijklmnop",
        "abcdefghijklmnopq", "elementIdentifier", "abcdefghijklmnopqrst",
    ]
    static let texts = [
        "", "a", "ab", "ac", "abc", "abcd", "abce", "abcde", "abcdefg", "abcdefgh", "bbcdefgh", "abcdefghi", "abcdefghijklmnop",
        "abcdefghijklmnopq", "elementIdentifier", "abcdefghijklmnopqrst",
    ]

    func position(_ text: [UInt8]) -> Int? {
        text.withUnsafeBytes { Self.keys.position(of: $0) }
    }

    @Test("Each key is found at its position, whether or not another key has its length")
    func everyKeyFound() {
        #expect(Self.keys.count == Self.texts.count)
        for (position, text) in Self.texts.enumerated() {
            #expect(self.position(Array(text.utf8)) == position, "\(text)")
        }
    }

    @Test("A key with any one byte changed, or one byte longer, is none of them unless it is another key")
    func nearMissesNotFound() {
        for text in Self.texts {
            let utf8 = Array(text.utf8)
            for index in utf8.indices {
                var changed = utf8
                changed[index] ^= 0x20
                #expect(position(changed) == Self.texts.firstIndex(of: String(decoding: changed, as: UTF8.self)), "\(text) at \(index)")
            }
            let longer = utf8 + [0x7a]
            #expect(position(longer) == Self.texts.firstIndex(of: String(decoding: longer, as: UTF8.self)), "\(text)z")
        }
        // Longer than every key.
        #expect(position(Array("abcdefghijklmnopqrstu".utf8)) == nil)
    }
}
