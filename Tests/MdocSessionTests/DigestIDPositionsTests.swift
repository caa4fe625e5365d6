import MdocCBOR
import MdocModel
@testable import MdocSession
import Testing

@Suite("DigestIDPositions: the digest of each digestID among an MSO's value digests (ISO/IEC 18013-5 9.1.2.4)")
struct DigestIDPositionsTests {
    /// Value digests holding `digestIDs`, in that order, each digest a distinct byte string.
    static func digests(_ digestIDs: [UInt64]) -> OrderedMap<UInt64, CBORBytes> {
        OrderedMap(digestIDs.enumerated().map { (key: $1, value: CBORBytes([UInt8](repeating: UInt8($0 % 256), count: 32))) })
    }

    /// Whether `positions` gives, for every digestID up to `upTo` and a few far beyond, the
    /// position the map itself gives.
    static func agrees(_ positions: DigestIDPositions, with digests: OrderedMap<UInt64, CBORBytes>, upTo: UInt64) -> Bool {
        let far: [UInt64] = [upTo * 8, UInt64(UInt32.max) + 1, UInt64.max]
        return (Array(0...upTo) + far).allSatisfy { digestID in
            positions.position(of: digestID) == digests.position(of: digestID)
        }
    }

    @Test("digestIDs numbered from 0, shuffled, some not held: a table, giving the map's positions")
    func table() {
        // 0 to 99 but 17 and 63, in an order of their own.
        let shuffled: [UInt64] = (0..<UInt64(100)).map { ($0 * 37) % 100 }
        let digestIDs = shuffled.filter { $0 != 17 && $0 != 63 }
        let digests = Self.digests(digestIDs)
        let positions = DigestIDPositions(digests, returnedCount: digests.count)
        #expect(!positions.table.isEmpty)
        #expect(positions.position(of: 17) == nil)
        #expect(positions.position(of: 63) == nil)
        #expect(positions.position(of: digestIDs[5]) == 5)
        #expect(Self.agrees(positions, with: digests, upTo: 120))
    }

    @Test("a table only while the largest digestID is below maximumSlotsPerDigest times the digests")
    func largestDigestID() {
        let count = 40
        let limit = UInt64(count * DigestIDPositions.maximumSlotsPerDigest)
        let first = Array(0..<UInt64(count - 1))
        let below = Self.digests(first + [limit - 1])
        let atLimit = Self.digests(first + [limit])
        let belowPositions = DigestIDPositions(below, returnedCount: count)
        let atLimitPositions = DigestIDPositions(atLimit, returnedCount: count)
        #expect(belowPositions.table.count == Int(limit))
        #expect(atLimitPositions.table.isEmpty)
        #expect(Self.agrees(belowPositions, with: below, upTo: limit + 2))
        #expect(Self.agrees(atLimitPositions, with: atLimit, upTo: limit + 2))
        #expect(atLimitPositions.position(of: limit) == count - 1)
    }

    @Test("a table only when at least one element is returned for maximumDigestsPerReturnedElement digests")
    func returnedElements() {
        let returned = 5
        let enoughCount = UInt64(returned * DigestIDPositions.maximumDigestsPerReturnedElement)
        let enough = Self.digests(Array(0..<enoughCount))
        let tooMany = Self.digests(Array(0...enoughCount))
        let enoughPositions = DigestIDPositions(enough, returnedCount: returned)
        let tooManyPositions = DigestIDPositions(tooMany, returnedCount: returned)
        #expect(!enoughPositions.table.isEmpty)
        #expect(tooManyPositions.table.isEmpty)
        #expect(Self.agrees(enoughPositions, with: enough, upTo: 50))
        #expect(Self.agrees(tooManyPositions, with: tooMany, upTo: 50))
    }

    @Test("no digests: nothing is found")
    func empty() {
        let positions = DigestIDPositions(OrderedMap(), returnedCount: 3)
        #expect(positions.position(of: 0) == nil)
        #expect(positions.position(of: 1) == nil)
    }
}
