import COpenSSL
@testable import MdocCrypto
import Testing

/// ``X509Time/comparableSeconds(_:)`` against `X509_cmp_time` itself: path validation compares
/// certificate validity with the seconds it reads once, so wherever it reads a time, the answer
/// must be the one `X509_cmp_time` gives at every validation time it can compare.
@Suite("X509Time: validity times compared as X509_cmp_time compares them (RFC 5280 section 4.1.2.5)")
struct X509TimeTests {
    /// Times as certificates carry them, well formed or not, with their ASN.1 type.
    static let encodedTimes: [(text: String, type: Int32)] = [
        ("210101000000Z", V_ASN1_UTCTIME), ("491231235959Z", V_ASN1_UTCTIME), ("500101000000Z", V_ASN1_UTCTIME),
        ("000229120000Z", V_ASN1_UTCTIME), ("691231235959Z", V_ASN1_UTCTIME), ("700101000000Z", V_ASN1_UTCTIME),
        ("20210101000000Z", V_ASN1_GENERALIZEDTIME), ("99991231235959Z", V_ASN1_GENERALIZEDTIME),
        ("00000101000000Z", V_ASN1_GENERALIZEDTIME), ("19691231235959Z", V_ASN1_GENERALIZEDTIME),
        ("20240229000000Z", V_ASN1_GENERALIZEDTIME), ("20500101000000Z", V_ASN1_GENERALIZEDTIME),
        // Refused by X509_cmp_time: wrong length, fraction, offset, letters, impossible dates.
        ("2101010000Z", V_ASN1_UTCTIME), ("210101000000+0100", V_ASN1_UTCTIME), ("21010100000aZ", V_ASN1_UTCTIME),
        ("20210101000000.5Z", V_ASN1_GENERALIZEDTIME), ("202101010000Z", V_ASN1_GENERALIZEDTIME),
        ("20211301000000Z", V_ASN1_GENERALIZEDTIME), ("20210230000000Z", V_ASN1_GENERALIZEDTIME),
        ("20210101250000Z", V_ASN1_GENERALIZEDTIME), ("20210101000060Z", V_ASN1_GENERALIZEDTIME),
        ("210101000000Z", V_ASN1_GENERALIZEDTIME), ("20210101000000Z", V_ASN1_UTCTIME),
        ("2021010100000 Z", V_ASN1_GENERALIZEDTIME), ("20210101000000z", V_ASN1_GENERALIZEDTIME),
    ]

    /// Validation times: each encoded time's own second and the seconds either side of it, the
    /// ends of the years X509_cmp_time can write, and beyond them.
    static func validationTimes(around seconds: [time_t]) -> [time_t] {
        let bounds = X509Time.comparableTimes
        let edges: [time_t] = [
            bounds.lowerBound - 1, bounds.lowerBound, bounds.upperBound, bounds.upperBound + 1, 0, -1, 1, 1_609_459_200,
        ]
        return edges + seconds.flatMap { [$0 - 1, $0, $0 + 1] }
    }

    @Test("Every time read agrees with X509_cmp_time at every comparable validation time")
    func agreesWithOpenSSL() throws {
        var read: [(time: UnsafeMutablePointer<ASN1_TIME>, seconds: time_t)] = []
        var refused = 0
        for (text, type) in Self.encodedTimes {
            let time = try #require(ASN1_STRING_type_new(type))
            defer { ASN1_STRING_free(time) }
            #expect(ASN1_STRING_set(time, text, Int32(text.utf8.count)) == 1)
            guard let seconds = X509Time.comparableSeconds(time) else {
                refused += 1
                continue
            }
            read.append((try #require(ASN1_STRING_dup(time)), seconds))
        }
        defer { for entry in read { ASN1_STRING_free(entry.time) } }
        // Each malformed time above is refused, and every well-formed one is read but the last
        // second of 1969, whose seconds since the epoch (-1) are timegm's answer for an error:
        // path validation asks X509_cmp_time about that one.
        #expect(read.count == 10 && refused == Self.encodedTimes.count - 10)
        for entry in read {
            for var time in Self.validationTimes(around: read.map(\.seconds)) where X509Time.comparableTimes.contains(time) {
                let expected: Int32 = entry.seconds <= time ? -1 : 1
                #expect(X509_cmp_time(entry.time, &time) == expected, "time \(entry.seconds) at \(time)")
            }
        }
    }

    @Test("A time X509_cmp_time refuses is not read", arguments: X509TimeTests.encodedTimes.indices.dropFirst(12))
    func refusedTimesAreNotRead(index: Int) throws {
        let (text, type) = Self.encodedTimes[index]
        let time = try #require(ASN1_STRING_type_new(type))
        defer { ASN1_STRING_free(time) }
        #expect(ASN1_STRING_set(time, text, Int32(text.utf8.count)) == 1)
        #expect(X509Time.comparableSeconds(time) == nil)
        var now: time_t = 1_609_459_200
        #expect(X509_cmp_time(time, &now) == 0)
    }
}
