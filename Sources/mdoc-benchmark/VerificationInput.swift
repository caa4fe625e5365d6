import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocModel
import MdocSession
import MdocStores

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one verification needs: the DeviceResponse's bytes and what `mdoc-reader verify` is
/// given beside them (trust anchors, SessionTranscript, EReaderKey, time), both as values and as
/// the files they came from, so that a child process can load exactly the same input.
struct VerificationInput {
    /// What the input is, as printed.
    let name: String
    /// The encoded DeviceResponse.
    let responseBytes: [UInt8]
    /// The IACA certificates.
    let trustAnchors: [Certificate]
    /// The SessionTranscript the response is bound to, when given.
    let transcript: SessionTranscriptBinding?
    /// The reader's ephemeral private key, for DeviceMac.
    let readerKey: PrivateKey?
    /// The verification time.
    let time: Date
    /// The files of this input.
    let files: Files

    /// Paths of the files an input was read from, in `mdoc-reader verify`'s options.
    struct Files {
        var response: String
        var trust: [String]
        var transcript: String?
        var readerKey: String?

        /// The arguments `mdoc-reader verify` and `mdoc-benchmark` take for these files at `time`.
        func arguments(at time: Date) -> [String] {
            var arguments = [response, "--trust"] + trust
            if let transcript { arguments += ["--transcript", transcript] }
            if let readerKey { arguments += ["--reader-key", readerKey] }
            return arguments + ["--at", TDate(time).text]
        }
    }

    /// A verifier for this input: a new one has parsed no certificate yet.
    func makeVerifier() -> DeviceResponseVerifier {
        DeviceResponseVerifier(trustAnchors: trustAnchors, sessionTranscript: transcript, readerKey: readerKey)
    }

    /// Verifies this input with `verifier`; throws unless it verified, so that no time or memory
    /// is reported for a verification that failed.
    func verify(with verifier: DeviceResponseVerifier) throws -> VerificationReport {
        let report = try verifier.verify(responseBytes, at: time)
        guard report.outcome == .verified else {
            throw BenchmarkError("\(name) does not verify (\(report.outcome)): \(report.failureSummary.joined(separator: "; "))")
        }
        return report
    }

    /// A benchmark of verifying this input, decoding included, with the verifier `verifier`
    /// gives for each call (made inside the timed call); the outcome is checked outside it.
    /// The verifier is released with the report, after the timed call: as a program shows the
    /// report before it tears down what it used.
    func verification(_ benchmarkName: String, verifier: @escaping () -> DeviceResponseVerifier) -> Benchmark {
        Benchmark(benchmarkName) { () throws -> (report: VerificationReport, verifier: DeviceResponseVerifier) in
            let verifier = verifier()
            return (try verifier.verify(responseBytes, at: time), verifier)
        } check: { $0.report.outcome == .verified }
    }

    /// The time the Annex D certificates and MSO are all valid at (Vectors/README.md).
    static let annexDTime = Date(timeIntervalSince1970: 1_609_459_200)  // 2021-01-01T00:00:00Z

    /// The ISO/IEC 18013-5 Annex D DeviceResponse with its IACA, SessionTranscriptBytes and
    /// EReaderKey, read from the checkout's Vectors/ and Certs/.
    static func annexD() throws -> VerificationInput {
        let folder = Checkout.vectors + "/iso18013-5-annex-d"
        guard FileManager.default.fileExists(atPath: folder + "/device_response.hex") else {
            throw BenchmarkError("no Annex D vectors in \(Checkout.vectors); run from a swift-mdoc checkout, set MDOC_VECTORS_DIR, or name a response")
        }
        let files = Files(
            response: folder + "/device_response.hex", trust: [folder + "/iaca_cert.hex"],
            transcript: folder + "/session_transcript_bytes.hex",
            readerKey: Checkout.root + "/Certs/annex-d/eReaderKey.pem")
        return try load(files, at: annexDTime, name: "ISO/IEC 18013-5 Annex D DeviceResponse")
    }

    /// Reads the files `mdoc-reader verify` would read.
    static func load(_ files: Files, at time: Date, name: String? = nil) throws -> VerificationInput {
        let response = try InputSource.load(files.response).bytes
        let anchors = try CertificateFiles.load(files.trust)
        let transcript = try files.transcript.map { path in
            try SessionTranscriptBinding(encoded: try InputSource.load(path).bytes)
        }
        let readerKey = try files.readerKey.map { path in try KeyFiles.loadPrivateKey(path) }
        return VerificationInput(
            name: name ?? files.response, responseBytes: response, trustAnchors: anchors, transcript: transcript,
            readerKey: readerKey, time: time, files: files)
    }
}

/// Why the benchmark cannot run.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
