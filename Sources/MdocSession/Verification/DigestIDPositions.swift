import MdocCBOR
import MdocModel

/// Where the digest of each digestID of one name space sits among the MSO's value digests
/// (ISO/IEC 18013-5 9.1.2.4, `DigestIDs = {+ DigestID => Digest}`), as ``ValueDigestPolicy``
/// looks it up once per returned IssuerSignedItem.
///
/// Issuers number the digestIDs of a name space from 0, in shuffled order (9.1.2.5 asks only
/// that they be unique there), so the largest is below their number. When it is, and enough
/// elements were returned to pay for it, a table indexed by digestID holds each digest's
/// position, and a lookup reads one slot instead of hashing the digestID; otherwise the map's
/// own lookup answers. Either way the position is the same.
struct DigestIDPositions {
    /// 4: a table has at most this many slots per digest of the name space, so that large
    /// digestIDs, which an MSO may hold, never make a large table.
    static let maximumSlotsPerDigest = 4
    /// 8: a table is made only when at least one element was returned for this many digests of
    /// the name space; for fewer, making it would cost more than the lookups it saves.
    static let maximumDigestsPerReturnedElement = 8

    /// The name space's value digests.
    private let digests: OrderedMap<UInt64, CBORBytes>
    /// The position of the digest of each digestID, plus one; 0 for a digestID the MSO does not
    /// hold. Empty when there is no table.
    let table: [UInt32]

    /// The positions of `digests`, looked up for `returnedCount` returned elements.
    init(_ digests: OrderedMap<UInt64, CBORBytes>, returnedCount: Int) {
        self.digests = digests
        let slotCount = digests.count * Self.maximumSlotsPerDigest
        guard returnedCount * Self.maximumDigestsPerReturnedElement >= digests.count,
              digests.elements.allSatisfy({ $0.key < UInt64(slotCount) })
        else {
            table = []
            return
        }
        var table = [UInt32](repeating: 0, count: digests.elements.reduce(0) { max($0, Int($1.key) + 1) })
        for (position, entry) in digests.elements.enumerated() {
            table[Int(entry.key)] = UInt32(position + 1)
        }
        self.table = table
    }

    /// The position of the digest of `digestID` among the digests, or `nil`.
    func position(of digestID: UInt64) -> Int? {
        guard !table.isEmpty else { return digests.position(of: digestID) }
        guard digestID < UInt64(table.count), table[Int(digestID)] != 0 else { return nil }
        return Int(table[Int(digestID)]) - 1
    }
}
