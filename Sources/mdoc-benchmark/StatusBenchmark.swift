// `mdoc-benchmark status`: how long a reader takes to read one document's status from a Status
// List Token it already holds (draft-ietf-oauth-status-list section 8.3), beside the work that
// cannot be avoided, measured in the same run:
//   - the token check: decoding the token as received, the ES256 signature, sub, iat and exp,
//     inflating the list and reading the document's entry;
//   - the checker: the same through TokenStatusListChecker, with the binding of the token's
//     x5chain to the document signer;
// against the floor of the ES256 verification of the token's Sig_structure (OpenSSL) plus the
// inflation of its list (zlib). Lists of 2^14 and 2^20 one-bit entries, 1 % of them revoked at
// random, as an issuer of that many documents publishes them. Then getting each token, from the
// cache and over loopback HTTP, beside its floor (StatusFetchBenchmark.swift).
// `status --soak N` checks one document's status N times, for the counts of instructions and
// allocations of scripts/perf-gates.py.

import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocSession
import MdocStatusList

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum StatusBenchmark {
    /// The list sizes measured, in entries.
    static let listSizes = [1 << 14, 1 << 20]
    /// The share of entries set to INVALID.
    static let revokedShare = 0.01
    static let uri = "https://benchmark.example/status/1"

    /// One list size's figures.
    struct Row {
        let entries: Int
        let tokenBytes: Int
        let check: Measurement
        let checker: Measurement
        let signature: Measurement
        let inflate: Measurement
        let fetching: StatusFetchBenchmark.Row

        var floor: Double { signature.median + inflate.median }
    }

    static func run(iterations: Int?, json: Bool, scratch: String) {
        let pki = prepare("a P-256 IACA and document signer") { try GeneratedResponses() }
        let stopwatch = Stopwatch(fixedIterations: iterations)
        var rows: [Row] = []
        for entries in listSizes {
            rows.append(measure(entries: entries, pki: pki, stopwatch: stopwatch, scratch: scratch + "/\(entries)"))
        }
        report(rows, json: json)
    }

    private static func measure(entries: Int, pki: GeneratedResponses, stopwatch: Stopwatch, scratch: String) -> Row {
        var generator = SystemRandomNumberGenerator()
        var values = [StatusValue](repeating: .valid, count: entries)
        for _ in 0..<Int(Double(entries) * revokedShare) { values[Int.random(in: 0..<entries, using: &generator)] = .invalid }
        let index = UInt64(entries / 2)
        let signer = pki.issuer.documentSignerChain[0]
        let token = self.token(of: values, pki: pki)
        let bytes = token.bytes
        let expected = values[Int(index)]
        let key = signer.publicKey
        guard case .sign1(let message) = token.message else { fail("the token is not a COSE_Sign1") }
        let toBeSigned = message.toBeSigned()
        let compressed = token.statusList.compressed
        let query = self.query(index: index, pki: pki)
        let checker = TokenStatusListChecker(fetched: [uri: .token(bytes)])
        let benchmarks = [
            Benchmark("token check", {
                let validation = try StatusListToken(bytes: bytes).validate(uri: uri, at: pki.time, key: .publicKey(key))
                return try validation.token.statusList.value(at: index)
            }, check: { $0 == expected }),
            Benchmark("checker", { checker.status(of: query) }, check: { status in
                switch status {
                case .good: return expected == .valid
                case .revoked: return expected == .invalid
                case .suspended: return expected == .suspended
                case .unknown: return false
                }
            }),
            Benchmark("ES256 verify (OpenSSL)", {
                key.isValidSignature(message.signature, for: toBeSigned, digest: .sha256)
            }, check: { $0 }),
            Benchmark("inflate (zlib)", { try ZlibInflater.inflate(compressed, limit: StatusListLimits.decompressedBytes) },
                      check: { $0.count == (entries + 7) / 8 }),
        ]
        let measured = stopwatch.measure(benchmarks)
        let fetching = StatusFetchBenchmark.measure(bytes, scratch: scratch, stopwatch: stopwatch)
        return Row(
            entries: entries, tokenBytes: bytes.count, check: measured[0], checker: measured[1], signature: measured[2], inflate: measured[3],
            fetching: fetching)
    }

    /// Checks the status of one document `count` times through TokenStatusListChecker, from
    /// a token of 2^20 one-bit entries (every hundredth INVALID, the same list each run) it
    /// holds, printing resident memory and open descriptors at the start and after each tenth
    /// of the run; ends the program when a status is not the one listed.
    static func soak(count: Int) {
        let pki = prepare("a P-256 IACA and document signer") { try GeneratedResponses() }
        let entries = listSizes[listSizes.count - 1]
        let values = (0..<entries).map { $0 % 100 == 0 ? StatusValue.invalid : .valid }
        let index = UInt64(entries / 2)
        let checker = TokenStatusListChecker(fetched: [uri: .token(token(of: values, pki: pki).bytes)])
        let query = query(index: index, pki: pki)
        print("status: 0 of \(count): \(ProcessResources.current())")
        let step = max(1, count / 10)
        for done in 1...count {
            guard case .good = checker.status(of: query) else { fail("the status of entry \(index) is not the valid one listed") }
            if done % step == 0 || done == count {
                print("status: \(done) of \(count): \(ProcessResources.current())")
            }
        }
    }

    /// A Status List Token of `values`, one bit each, for ``uri``, signed ES256 by the document
    /// signer of `pki`, issued an hour before its time and valid for a day.
    private static func token(of values: [StatusValue], pki: GeneratedResponses) -> StatusListToken {
        let issuedAt = Int64(pki.time.timeIntervalSince1970) - 3600
        return prepare("a Status List Token of \(values.count) entries") {
            let claims = StatusListTokenClaims(
                subject: uri, issuedAt: issuedAt, expiration: issuedAt + 86_400, timeToLive: 43_200,
                statusList: try StatusList(bits: 1, values: values))
            return try StatusListTokenBuilder(claims: claims, x5chain: [pki.issuer.documentSignerChain[0].derRepresentation])
                .sign(with: pki.issuer.documentSignerKey)
        }
    }

    /// The query of a document of `pki`'s signer whose MSO points at entry `index` of ``uri``.
    private static func query(index: UInt64, pki: GeneratedResponses) -> RevocationQuery {
        RevocationQuery(
            docType: DocType.mDL, certificatePath: [pki.issuer.documentSignerChain[0], pki.iaca],
            status: .map(statusEntry(index: index)), time: pki.time)
    }

    /// `{"status_list": {"idx": index, "uri": uri}}`, the MSO's `status`.
    private static func statusEntry(index: UInt64) -> CBORMap {
        var reference = CBORMap()
        reference.append("idx", .unsignedInt(index))
        reference.append("uri", .textString(uri))
        var status = CBORMap()
        status.append("status_list", .map(reference))
        return status
    }

    private static func report(_ rows: [Row], json: Bool) {
        if json {
            let objects = rows.map { row in
                "{\"entries\": \(row.entries), \"tokenBytes\": \(row.tokenBytes), "
                    + "\"checkMedianMicroseconds\": \(rounded(row.check.median)), \"checkerMedianMicroseconds\": \(rounded(row.checker.median)), "
                    + "\"signatureMedianMicroseconds\": \(rounded(row.signature.median)), \"inflateMedianMicroseconds\": \(rounded(row.inflate.median)), "
                    + "\"floorMicroseconds\": \(rounded(row.floor)), \"checkOverFloor\": \(rounded(row.check.median / row.floor)), "
                    + "\"checkerOverFloor\": \(rounded(row.checker.median / row.floor)), "
                    + "\"cacheMedianMicroseconds\": \(rounded(row.fetching.cache.median)), \"cacheFloorMicroseconds\": \(rounded(row.fetching.cacheFloor.median)), "
                    + "\"fetchMedianMicroseconds\": \(rounded(row.fetching.fetch.median)), \"fetchFloorMicroseconds\": \(rounded(row.fetching.fetchFloor.median))}"
            }
            print("{\"status\": [\(objects.joined(separator: ", "))]}")
            return
        }
        print("Status List Token checks (1-bit lists, \(format(revokedShare * 100, digits: 0)) % revoked), median and p90 in microseconds:")
        for row in rows {
            print("")
            print("\(row.entries) entries, token \(row.tokenBytes) bytes:")
            for measurement in [row.check, row.checker, row.signature, row.inflate] {
                print("  \(pad(measurement.name, 24)) \(padLeft(format(measurement.median), 10)) \(padLeft(format(measurement.p90), 10))")
            }
            print("  \(pad("floor (ES256 + inflate)", 24)) \(padLeft(format(row.floor), 10))")
            print("  token check / floor: \(format(row.check.median / row.floor, digits: 2))x; checker / floor: \(format(row.checker.median / row.floor, digits: 2))x")
            let fetching = row.fetching
            for measurement in [fetching.cache, fetching.cacheFloor, fetching.fetch, fetching.fetchFloor] {
                print("  \(pad(measurement.name, 24)) \(padLeft(format(measurement.median), 10)) \(padLeft(format(measurement.p90), 10))")
            }
            print("  from the cache / its files: \(format(fetching.cache.median / fetching.cacheFloor.median, digits: 2))x; "
                + "fetch / plain socket GET: \(format(fetching.fetch.median / fetching.fetchFloor.median, digits: 2))x")
        }
    }
}
