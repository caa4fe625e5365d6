import MdocCBOR
import MdocCrypto
@testable import MdocSession
import MdocTestSupport
import Testing

@Suite("The verifiers' cache of parsed x5chain certificates")
struct CertificateCacheTests {
    /// The Annex D document signer certificate with the last byte of its signature set to `n`:
    /// a distinct DER encoding that still parses.
    static func variant(_ n: Int) -> [UInt8] {
        var der = Vectors.annexD("ds_cert")
        der[der.count - 1] = UInt8(n)
        return der
    }

    @Test("the same DER bytes are parsed once and give an equal certificate")
    func parsesOnce() throws {
        let cache = CertificateCache()
        let first = try cache.certificate(derEncoded: Vectors.annexD("ds_cert"))
        let second = try cache.certificate(derEncoded: Vectors.annexD("ds_cert"))
        #expect(first == second)
        #expect(cache.count == 1)
        #expect(first.subject == "CN=utopia ds, C=US")
    }

    @Test("the cache holds maximumEntries certificates and starts over at one more")
    func boundedSize() throws {
        let cache = CertificateCache()
        for n in 0..<CertificateCache.maximumEntries {
            _ = try cache.certificate(derEncoded: Self.variant(n))
        }
        #expect(cache.count == CertificateCache.maximumEntries)
        _ = try cache.certificate(derEncoded: Self.variant(CertificateCache.maximumEntries))
        #expect(cache.count == 1)
    }

    @Test("certificates of one length and one signature, differing in one serial number byte, are told apart")
    func sameTailDifferentBytes() throws {
        let original = Vectors.annexD("ds_cert")
        let serial = try #require(Hex.decode(try Certificate(derEncoded: original).serialNumber))
        let start = try #require((0...(original.count - serial.count)).first { Array(original[$0..<($0 + serial.count)]) == serial })
        let cache = CertificateCache()
        var serials: Set<String> = []
        // A byte near the start (compared in the first words) and the serial's last byte.
        for position in [start + 1, start + serial.count - 1] {
            var variant = original
            variant[position] ^= 0x01
            serials.insert(try cache.certificate(derEncoded: variant).serialNumber)
        }
        serials.insert(try cache.certificate(derEncoded: original).serialNumber)
        #expect(serials.count == 3)
        #expect(cache.count == 3)
        #expect(try cache.certificate(derEncoded: original).derRepresentation == original)
    }

    @Test("bytes that are not a certificate are not cached")
    func failuresAreNotCached() {
        let cache = CertificateCache()
        #expect(throws: CryptoError.self) { try cache.certificate(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x01]) }
        #expect(cache.count == 0)
    }
}
