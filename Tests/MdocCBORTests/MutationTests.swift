import MdocCBOR
import MdocTestSupport
import Testing

/// Damaged copies of real messages: each either fails with a ``CBORError`` or decodes to an item
/// whose encoding decodes back to the same encoding (docs/architecture.md rule 4: no crash on any input).
struct MutationTests {
    /// A fixed-seed generator (xorshift64*), so every run checks the same inputs.
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Int((state &* 0x2545_f491_4f6c_dd1d) % UInt64(bound))
        }
    }

    @Test(arguments: ["device_request", "device_engagement", "session_termination"])
    func mutatedMessagesNeverCrash(_ name: String) {
        let original = Vectors.annexD(name)
        var generator = Generator(state: 0x9e37_79b9_7f4a_7c15)
        var decodedCount = 0
        for _ in 0..<2_000 {
            var input = original
            for _ in 0...generator.next(3) {
                let position = generator.next(input.count)
                switch generator.next(3) {
                case 0: input[position] = UInt8(generator.next(256))
                case 1: input.remove(at: position)
                default: input.insert(UInt8(generator.next(256)), at: position)
                }
                if input.isEmpty { input = [0] }
            }
            guard let decoded = try? CBOR.decode(input) else { continue }
            decodedCount += 1
            let encoded = decoded.encoded()
            #expect((try? CBOR.decode(encoded).encoded()) == encoded)
        }
        // Byte changes inside strings keep many inputs decodable.
        #expect(decodedCount > 0)
    }
}
