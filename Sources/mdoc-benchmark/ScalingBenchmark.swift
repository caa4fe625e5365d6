import MdocCBOR
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-benchmark scaling`: how verification grows with the number of elements and with the
/// size of the response, on DeviceResponses made for the purpose by ``GeneratedResponses``.
///
/// Each row is one response, measured like `mdoc-benchmark verify` measures one (warm
/// verification beside its OpenSSL floor in the same run, peak memory in a child process). The
/// slopes are least-squares fits over the rows: the cost of one more element against the cost of
/// that element's own digest, and the cost of one more byte against the digest's cost per byte.
enum ScalingBenchmark {
    /// The element counts of the first table.
    static let defaultElementCounts = [1, 10, 100, 500, 1_000, 2_000, 4_000]
    /// The response sizes of the second table, up to the decoder's input limit.
    static let defaultResponseSizes = [15_000, 64 * 1024, 256 * 1024, 1024 * 1024, 4 * 1024 * 1024, CBORLimits.defaultMaximumInputSize]
    /// The elements beside the portrait in the responses of the second table.
    static let elementsBesidePortrait = 10
    /// One more element may cost at most this multiple of its own digest.
    static let perElementTarget = 3.0

    /// One measured response.
    struct Row {
        let elements: Int
        let bytes: Int
        let verify: Measurement
        let floor: Double
        let digests: Double
        let memory: PeakMemory
    }

    /// Generates the responses, measures them and prints both tables; with `saveInputs`, each
    /// response is kept in a folder of its own there with the files `mdoc-reader verify` needs.
    static func run(elementCounts: [Int], responseSizes: [Int], iterations: Int?, json: Bool, scratch: String, saveInputs: String?) throws {
        let generator = try GeneratedResponses()
        func folder(_ name: String) throws -> String {
            let path = (saveInputs ?? scratch) + "/" + name
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }
        var elementRows: [Row] = []
        for count in elementCounts {
            let bytes = try generator.response(elementCount: count)
            let input = try generator.input(bytes, name: "\(count) elements", writingTo: try folder("elements-\(count)"))
            elementRows.append(try measure(input, elements: count, iterations: iterations, scratch: scratch))
        }
        var sizeRows: [Row] = []
        for size in responseSizes {
            let bytes = try response(of: size, generator: generator)
            let input = try generator.input(bytes, name: "\(bytes.count) bytes", writingTo: try folder("bytes-\(size)"))
            sizeRows.append(try measure(input, elements: elementsBesidePortrait + 1, iterations: iterations, scratch: scratch))
        }
        print(json ? Self.json(elementRows, sizeRows) : Self.text(elementRows, sizeRows))
    }

    /// A response of at most `size` bytes, as close to it as the encoding allows: the
    /// portrait fills what the elements leave.
    private static func response(of size: Int, generator: GeneratedResponses) throws -> [UInt8] {
        let overhead = try generator.response(elementCount: elementsBesidePortrait, portraitByteCount: 1).count - 1
        var portrait = max(1, size - overhead)
        var bytes = try generator.response(elementCount: elementsBesidePortrait, portraitByteCount: portrait)
        // Longer length heads can add a few bytes: take them off the portrait.
        while bytes.count > size, portrait > 1 {
            portrait -= bytes.count - size
            bytes = try generator.response(elementCount: elementsBesidePortrait, portraitByteCount: portrait)
        }
        return bytes
    }

    private static func measure(_ input: VerificationInput, elements: Int, iterations: Int?, scratch: String) throws -> Row {
        let verifier = input.makeVerifier()
        _ = try input.verify(with: verifier)
        let floor = try VerificationFloor(input)
        let verify = input.verification("verify, warm") { verifier }
        var stopwatch = Stopwatch(fixedIterations: iterations)
        stopwatch.minimumIterations = 10
        stopwatch.minimumWarmUpIterations = 2
        let measurements = stopwatch.measure([verify] + floor.benchmarks)
        let primitives = measurements.dropFirst()
        return Row(
            elements: elements, bytes: input.responseBytes.count, verify: measurements[0],
            floor: primitives.reduce(0) { $0 + $1.median }, digests: measurements[1 + floor.digestIndex].median,
            memory: try PeakMemory.measure(input, scratch: scratch))
    }

    // MARK: Report

    private struct Slopes {
        /// Verification, per unit.
        let verify: Double
        /// The digests, per unit.
        let digest: Double
        /// Peak memory above the base, bytes per input byte.
        let memory: Double
    }

    private static func elementSlopes(_ rows: [Row]) -> Slopes {
        let x = rows.map { Double($0.elements) }
        return Slopes(
            verify: slope(x, rows.map(\.verify.median)), digest: slope(x, rows.map(\.digests)),
            memory: slope(rows.map { Double($0.bytes) }, rows.map { Double($0.memory.aboveBaseKiB * 1024) }))
    }

    private static func byteSlopes(_ rows: [Row]) -> Slopes {
        let x = rows.map { Double($0.bytes) }
        return Slopes(
            verify: slope(x, rows.map(\.verify.median)), digest: slope(x, rows.map(\.digests)),
            memory: slope(x, rows.map { Double($0.memory.aboveBaseKiB * 1024) }))
    }

    private static func text(_ elementRows: [Row], _ sizeRows: [Row]) -> String {
        let header = padLeft("verify µs", 12) + padLeft("floor µs", 11) + padLeft("×floor", 8) + padLeft("digests µs", 12)
        func cells(_ row: Row) -> String {
            padLeft(format(row.verify.median), 12) + padLeft(format(row.floor), 11) + padLeft(format(row.verify.median / row.floor, digits: 2), 8)
                + padLeft(format(row.digests), 12)
        }
        func memory(_ row: Row) -> String {
            padLeft(String(row.memory.aboveBaseKiB), 11) + padLeft(format(row.memory.perInputByte(row.bytes), digits: 2), 9)
        }
        var lines = [
            "mdoc-benchmark scaling: DeviceResponses issued and presented by this toolkit (P-256, SHA-256, DeviceMac), warm verification",
            "",
            "by element count (short text elements)",
            padLeft("elements", 8) + padLeft("bytes", 10) + header + padLeft("Δverify/el µs", 15) + padLeft("Δdigest/el µs", 15)
                + padLeft("ratio", 7) + padLeft("peak KiB", 11) + padLeft("B/B in", 9),
        ]
        for (index, row) in elementRows.enumerated() {
            var marginal = padLeft("", 37)
            if index > 0 {
                let previous = elementRows[index - 1]
                let count = Double(row.elements - previous.elements)
                let verify = (row.verify.median - previous.verify.median) / count
                let digest = (row.digests - previous.digests) / count
                marginal = padLeft(format(verify, digits: 3), 15) + padLeft(format(digest, digits: 3), 15) + padLeft(format(verify / digest, digits: 1), 7)
            }
            lines.append(padLeft(String(row.elements), 8) + padLeft(String(row.bytes), 10) + cells(row) + marginal + memory(row))
        }
        let perElement = elementSlopes(elementRows)
        lines.append(
            "per element (least squares): verification \(format(perElement.verify, digits: 3)) µs, its digest \(format(perElement.digest, digits: 3)) µs:"
                + " \(format(perElement.verify / perElement.digest, digits: 2))× \(Target(value: perElement.verify / perElement.digest, bound: perElementTarget).text(unit: "×"))")
        lines += [
            "",
            "by response size (\(elementsBesidePortrait) short text elements and a portrait byte string)",
            padLeft("bytes", 10) + header + padLeft("Δverify ns/B", 14) + padLeft("Δdigest ns/B", 14) + padLeft("ratio", 7)
                + padLeft("peak KiB", 11) + padLeft("B/B in", 9),
        ]
        for (index, row) in sizeRows.enumerated() {
            var marginal = padLeft("", 35)
            if index > 0 {
                let previous = sizeRows[index - 1]
                let count = Double(row.bytes - previous.bytes)
                let verify = (row.verify.median - previous.verify.median) * 1000 / count
                let digest = (row.digests - previous.digests) * 1000 / count
                marginal = padLeft(format(verify, digits: 3), 14) + padLeft(format(digest, digits: 3), 14) + padLeft(format(verify / digest, digits: 1), 7)
            }
            lines.append(padLeft(String(row.bytes), 10) + cells(row) + marginal + memory(row))
        }
        let perByte = byteSlopes(sizeRows)
        lines.append(
            "per byte (least squares): verification \(format(perByte.verify * 1000, digits: 3)) ns, the digest \(format(perByte.digest * 1000, digits: 3)) ns:"
                + " \(format(perByte.verify / perByte.digest, digits: 2))×")
        lines.append(
            "peak memory above the base per input byte (least squares): \(format(perByte.memory, digits: 2))"
                + " \(Target(value: perByte.memory, bound: VerificationBenchmark.memoryTarget).text())")
        return lines.joined(separator: "\n")
    }

    private static func json(_ elementRows: [Row], _ sizeRows: [Row]) -> String {
        func row(_ row: Row) -> String {
            #"{"elements": \#(row.elements), "responseBytes": \#(row.bytes), "verifyMedianMicroseconds": \#(rounded(row.verify.median)), "#
                + #""verifyP90Microseconds": \#(rounded(row.verify.p90)), "iterations": \#(row.verify.iterations), "#
                + #""floorMicroseconds": \#(rounded(row.floor)), "digestsMicroseconds": \#(rounded(row.digests)), "#
                + #""peakMemoryBaseKiB": \#(row.memory.baseKiB), "peakMemoryAboveBaseKiB": \#(row.memory.aboveBaseKiB)}"#
        }
        let perElement = elementSlopes(elementRows)
        let perByte = byteSlopes(sizeRows)
        return """
            {
              "byElementCount": [
                \(elementRows.map(row).joined(separator: ",\n    "))
              ],
              "perElement": {"verifyMicroseconds": \(rounded(perElement.verify)), "digestMicroseconds": \(rounded(perElement.digest)), "ratio": \(rounded(perElement.verify / perElement.digest)), "target": \(perElementTarget), "met": \(Target(value: perElement.verify / perElement.digest, bound: perElementTarget).json)},
              "byResponseSize": [
                \(sizeRows.map(row).joined(separator: ",\n    "))
              ],
              "perByte": {"verifyNanoseconds": \(rounded(perByte.verify * 1000)), "digestNanoseconds": \(rounded(perByte.digest * 1000)), "ratio": \(rounded(perByte.verify / perByte.digest))},
              "peakMemoryPerInputByte": {"slope": \(rounded(perByte.memory)), "target": \(VerificationBenchmark.memoryTarget), "met": \(Target(value: perByte.memory, bound: VerificationBenchmark.memoryTarget).json)}
            }
            """
    }
}
