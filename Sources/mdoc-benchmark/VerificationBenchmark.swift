import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `mdoc-benchmark verify`: one DeviceResponse decoded and verified, warm and cold, beside the
/// OpenSSL floor of its verification (``VerificationFloor``) measured in the same run, and the
/// peak memory of one verification (``PeakMemory``).
enum VerificationBenchmark {
    /// Warm verification: at most this multiple of the floor.
    static let warmTarget = 1.2
    /// Cold verification (a verifier meeting the document signer for the first time, as every
    /// `mdoc-reader verify` process does): at most this multiple of the floor...
    static let coldTarget = 1.5
    /// ...and at most this multiple of warm verification.
    static let coldOverWarmTarget = 1.3
    /// Peak memory above the base: at most this many bytes per input byte.
    static let memoryTarget = 1.5

    /// Measures `input` and prints the report.
    static func run(_ input: VerificationInput, iterations: Int?, json: Bool, scratch: String) throws {
        let response = try DeviceResponse(encoded: input.responseBytes)
        let warmVerifier = input.makeVerifier()
        _ = try input.verify(with: warmVerifier)
        let floor = try VerificationFloor(input)
        let bytes = input.responseBytes
        let decode = Benchmark("decode DeviceResponse") {
            try DeviceResponse(encoded: bytes)
        } check: { $0.documents?.count == response.documents?.count }
        let warm = input.verification("verify, warm (signer seen before)") { warmVerifier }
        let cold = input.verification("verify, cold (first response of its signer)") { input.makeVerifier() }
        let stages = try Self.stages(response, input: input)

        let measurements = Stopwatch(fixedIterations: iterations).measure([decode, warm, cold] + floor.benchmarks + stages)
        let primitives = Array(measurements[3..<(3 + floor.benchmarks.count)])
        let stageMeasurements = Array(measurements[(3 + floor.benchmarks.count)...])
        let memory = try PeakMemory.measure(input, scratch: scratch)
        let summary = Summary(
            input: input, elementCount: floor.itemCount, decode: measurements[0], warm: measurements[1],
            cold: measurements[2], primitives: primitives, stages: stageMeasurements, memory: memory)
        print(json ? summary.json : summary.text)
    }

    /// Parts of a warm verification of the first document, timed alone for orientation.
    private static func stages(_ response: DeviceResponse, input: VerificationInput) throws -> [Benchmark] {
        guard let document = response.documents?.first, let der = document.issuerSigned.issuerAuth.x5chain.first else { return [] }
        let documentSigner = try Certificate(derEncoded: der)
        let validator = CertificateChainValidator(trustAnchors: input.trustAnchors)
        let mso = try document.issuerSigned.mobileSecurityObjectBytes().value
        let deviceKey = try mso.deviceKeyInfo.deviceKey.publicKey()
        let time = input.time
        return [
            Benchmark("parse the document signer certificate") {
                try Certificate(derEncoded: der)
            } check: { $0 == documentSigner },
            Benchmark("validate its chain to the IACA") {
                validator.validate(chain: [documentSigner], profile: .documentSigner, at: time)
            } check: { $0.isValid },
            Benchmark("decode the MSO from the IssuerAuth payload") {
                try document.issuerSigned.mobileSecurityObjectBytes()
            } check: { $0.value.docType == document.docType },
            Benchmark("COSE_Key -> new PublicKey (MSO deviceKey)") {
                try mso.deviceKeyInfo.deviceKey.publicKey()
            } check: { $0 == deviceKey },
            // What verification does: the key on a reused OpenSSL object.
            Benchmark("COSE_Key -> lent PublicKey (MSO deviceKey)") {
                try mso.deviceKeyInfo.deviceKey.withPublicKey { $0.curve }
            } check: { $0 == deviceKey.curve },
        ]
    }

    /// The figures of one run and their two renderings.
    struct Summary {
        let input: VerificationInput
        let elementCount: Int
        let decode: Measurement
        let warm: Measurement
        let cold: Measurement
        let primitives: [Measurement]
        let stages: [Measurement]
        let memory: PeakMemory

        var floor: Double { primitives.reduce(0) { $0 + $1.median } }
        var memoryPerByte: Double { memory.perInputByte(input.responseBytes.count) }

        /// The figures against their targets.
        var targets: (warmOverFloor: Target, coldOverFloor: Target, coldOverWarm: Target, peakMemoryPerInputByte: Target) {
            (Target(value: warm.median / floor, bound: warmTarget), Target(value: cold.median / floor, bound: coldTarget),
             Target(value: cold.median / warm.median, bound: coldOverWarmTarget), Target(value: memoryPerByte, bound: memoryTarget))
        }

        var text: String {
            func row(_ label: String, _ median: Double, _ p90: Double? = nil, _ iterations: Int? = nil) -> String {
                let p90Text = p90.map { format($0) } ?? ""
                let iterationText = iterations.map(String.init) ?? ""
                return pad(label, 52) + padLeft(format(median), 11) + padLeft(p90Text, 11) + padLeft(iterationText, 12)
            }
            func row(_ measurement: Measurement, indent: String = "") -> String {
                row(indent + measurement.name, measurement.median, measurement.p90, measurement.iterations)
            }
            var lines = [
                "mdoc-benchmark: \(input.name) (\(input.responseBytes.count) bytes, \(elementCount) elements), verified at \(TDate(input.time).text)",
                pad("", 52) + padLeft("median µs", 11) + padLeft("p90 µs", 11) + padLeft("iterations", 12),
                row(decode), row(warm), row(cold),
                "OpenSSL floor of this verification, same run",
            ]
            lines += primitives.map { row($0, indent: "    ") }
            lines += [
                row("    floor: sum of the medians", floor),
                "warm / floor: \(format(warm.median / floor, digits: 2))×   \(targets.warmOverFloor.text(unit: "×"))",
                "cold / floor: \(format(cold.median / floor, digits: 2))×   \(targets.coldOverFloor.text(unit: "×"))",
                "cold / warm:  \(format(cold.median / warm.median, digits: 2))×   \(targets.coldOverWarm.text(unit: "×"))",
                "peak memory of one verification above the base: \(memory.aboveBaseKiB) KiB, \(format(memoryPerByte, digits: 2)) bytes per input byte"
                    + " \(targets.peakMemoryPerInputByte.text(more: "; base \(memory.baseKiB) KiB"))",
                "parts of a warm verification, for orientation",
            ]
            lines += stages.map { row($0, indent: "    ") }
            return lines.joined(separator: "\n")
        }

        var json: String {
            func entry(_ measurement: Measurement) -> String {
                #"{"name": \#(jsonString(measurement.name)), "medianMicroseconds": \#(rounded(measurement.median)), "p90Microseconds": \#(rounded(measurement.p90)), "iterations": \#(measurement.iterations)}"#
            }
            func list(_ measurements: [Measurement]) -> String {
                "[\n    " + measurements.map(entry).joined(separator: ",\n    ") + "\n  ]"
            }
            return """
                {
                  "input": \(jsonString(input.name)),
                  "responseBytes": \(input.responseBytes.count),
                  "elements": \(elementCount),
                  "verificationTime": "\(TDate(input.time).text)",
                  "decode": \(entry(decode)),
                  "verifyWarm": \(entry(warm)),
                  "verifyCold": \(entry(cold)),
                  "floor": \(list(primitives)),
                  "floorMicroseconds": \(rounded(floor)),
                  "warmOverFloor": \(rounded(warm.median / floor)),
                  "coldOverFloor": \(rounded(cold.median / floor)),
                  "coldOverWarm": \(rounded(cold.median / warm.median)),
                  "peakMemoryBaseKiB": \(memory.baseKiB),
                  "peakMemoryAboveBaseKiB": \(memory.aboveBaseKiB),
                  "peakMemoryPerInputByte": \(rounded(memoryPerByte)),
                  "targets": {"warmOverFloor": \(warmTarget), "coldOverFloor": \(coldTarget), "coldOverWarm": \(coldOverWarmTarget), "peakMemoryPerInputByte": \(memoryTarget)},
                  "targetsMet": {"warmOverFloor": \(targets.warmOverFloor.json), "coldOverFloor": \(targets.coldOverFloor.json), "coldOverWarm": \(targets.coldOverWarm.json), "peakMemoryPerInputByte": \(targets.peakMemoryPerInputByte.json)},
                  "stages": \(list(stages))
                }
                """
        }
    }
}
