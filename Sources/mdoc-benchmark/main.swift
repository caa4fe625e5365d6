// mdoc-benchmark: how long a reader takes to verify the ISO/IEC 18013-5 Annex D DeviceResponse,
// compared with the OpenSSL work that verification cannot avoid.
//
//     swift run -c release mdoc-benchmark [verify] [--iterations N] [--json]
//     swift run -c release mdoc-benchmark link [--sessions N] [--json]   (LinkBenchmark.swift)
//     swift run -c release mdoc-benchmark --soak N
// (options: BenchmarkCommand.swift)
//
// With `--soak N` it measures nothing of the above: it verifies the Annex D DeviceResponse N
// times in this one process, each time with a new DeviceResponseVerifier (so every certificate
// is parsed again), and prints the resident memory and open file descriptors at the start and
// after each tenth of the run; scripts/soak.sh uses it to show that neither grows.
//
// Measures, in one run, with the Annex D vectors (Vectors/iso18013-5-annex-d):
//   (a) decoding the DeviceResponse (`DeviceResponse(encoded:)`);
//   (b) verifying it completely with `DeviceResponseVerifier` at 2021-01-01T00:00:00Z, decoding
//       included, with the Annex D trust anchor (IACA), SessionTranscriptBytes and EReaderKey;
//       every run must end `.verified`, or the program exits with status 1;
//   (c) the primitives that verification needs at the least, through MdocCrypto's thinnest calls on
//       pre-parsed keys and pre-built messages: two ECDSA P-256 verifications (the MSO signature by
//       the document signer key, ISO/IEC 18013-5 9.1.2.4; the document signer certificate by the
//       IACA key, RFC 5280 section 6.1.3), SHA-256 of the six IssuerSignedItemBytes (9.1.2.5),
//       and DeviceMac authentication (9.1.3.5): ECDH (with the full peer-key check MdocCrypto
//       makes, which costs about as much as the ECDH), HKDF-SHA-256 for EMacKey, HMAC-SHA-256.
// The floor is the sum of the (c) medians; the ratio (b) / floor shows the cost of everything
// around OpenSSL (CBOR, model, certificate parsing, path building, the report). Target: ≤ 1.5×.
// A few stages of (b) are timed on their own as well, for orientation.
//
// Each operation is warmed up, then timed call by call for at least 200 calls and 0.3 s (or
// exactly `--iterations N` calls); medians and 90th percentiles are in microseconds.

import ArgumentParser
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes `message` to standard error and exits with status 1.
func fail(_ message: String) -> Never {
    var bytes = Array("mdoc-benchmark: \(message)\n".utf8)
    _ = write(2, &bytes, bytes.count)
    exit(1)
}

// MARK: Options

let command: any ParsableCommand
do {
    command = try MdocBenchmark.parseAsRoot()
} catch {
    MdocBenchmark.exit(withError: error)
}
if let link = command as? MdocBenchmark.Link {
    await LinkBenchmark.run(sessions: link.sessions, json: link.json)
    exit(0)
}
guard let options = command as? MdocBenchmark.Verification else {
    // `--help`, `help SUBCOMMAND`: the parser's own commands, which print and end.
    do {
        var builtIn = command
        try builtIn.run()
        MdocBenchmark.exit()
    } catch {
        MdocBenchmark.exit(withError: error)
    }
}
let fixedIterations = options.iterations
let soakCount = options.soak
let json = options.json
guard FileManager.default.fileExists(atPath: Vectors.path("iso18013-5-annex-d/device_response.hex")) else {
    fail("no Annex D vectors in \(Vectors.directory); run from a swift-mdoc checkout or set MDOC_VECTORS_DIR")
}

// MARK: Fixture (Annex D; nothing here is timed)

/// Runs `body`, or ends the program naming `what` could not be prepared.
func prepare<Value>(_ what: String, _ body: () throws -> Value) -> Value {
    do {
        return try body()
    } catch {
        fail("cannot prepare \(what): \(error)")
    }
}

/// The verification time the Annex D certificates and MSO are all valid at (vectors README).
let verificationTime = Date(timeIntervalSince1970: 1_609_459_200)  // 2021-01-01T00:00:00Z
let responseBytes = Vectors.annexD("device_response")
let iaca = prepare("the IACA certificate") { try Certificate(derEncoded: Vectors.annexD("iaca_cert")) }
let transcript = prepare("the session transcript") {
    try SessionTranscriptBinding(encoded: Vectors.annexD("session_transcript_bytes"))
}
let readerKey = prepare("EReaderKey") {
    try PrivateKey(rawRepresentation: Vectors.annexD("eReaderKey_private"), curve: .p256)
}
let verifier = DeviceResponseVerifier(trustAnchors: [iaca], sessionTranscript: transcript, readerKey: readerKey)

let response = prepare("the DeviceResponse") { try DeviceResponse(encoded: responseBytes) }
guard let document = response.documents?.first else { fail("the Annex D DeviceResponse holds no document") }
let issuerAuth = document.issuerSigned.issuerAuth
guard let dsBytes = issuerAuth.x5chain.first else { fail("the Annex D issuerAuth has no x5chain") }
let documentSigner = prepare("the document signer certificate") { try Certificate(derEncoded: dsBytes) }
let mso = prepare("the MSO") { try document.issuerSigned.mobileSecurityObjectBytes().value }
let issuerSigBytes = Vectors.annexD("issuer_auth_sig_structure")
guard issuerAuth.toBeSigned() == issuerSigBytes else {
    fail("the issuerAuth Sig_structure differs from issuer_auth_sig_structure.hex")
}
let itemBytes = (document.issuerSigned.nameSpaces ?? OrderedMap()).values.flatMap { items in
    items.map { $0.cbor.encoded() }
}
guard itemBytes.count == 6 else { fail("expected 6 IssuerSignedItemBytes in Annex D, found \(itemBytes.count)") }
let expectedDigests = (document.issuerSigned.nameSpaces ?? OrderedMap()).elements.flatMap { nameSpace, items in
    items.map { mso.valueDigests[nameSpace]?[$0.value.digestID] ?? [] }
}
let deviceKey = prepare("the MSO deviceKey (SDeviceKey)") {
    try PublicKey(x: Vectors.annexD("sDeviceKey_public_x"), y: Vectors.annexD("sDeviceKey_public_y"), curve: .p256)
}
guard case .deviceMac(let deviceMac) = document.deviceSigned.deviceAuth else {
    fail("the Annex D DeviceResponse was expected to carry a DeviceMac")
}
let macStructure = Vectors.annexD("device_auth_mac_structure")
let deviceAuthenticationBytes = transcript.deviceAuthenticationBytes(
    docType: document.docType, deviceNameSpacesBytes: document.deviceSigned.nameSpaces)
guard deviceMac.toBeMACed(detachedPayload: deviceAuthenticationBytes) == macStructure else {
    fail("the DeviceMac MAC_structure differs from device_auth_mac_structure.hex")
}
let sharedSecret = prepare("the EMacKey shared secret") { try readerKey.sharedSecret(with: deviceKey) }
let eMacKey = prepare("EMacKey") {
    try EMacKey.derive(privateKey: readerKey, peerPublicKey: deviceKey, sessionTranscriptBytes: transcript.taggedBytes)
}
guard eMacKey.bytes == Vectors.annexD("EMacKey") else { fail("the derived EMacKey differs from EMacKey.hex") }

// MARK: Soak

if let soakCount {
    let start = ProcessResources.current()
    print("offline verifications: 0 of \(soakCount): \(start)")
    let step = max(1, soakCount / 10)
    for done in 1...soakCount {
        let report = DeviceResponseVerifier(trustAnchors: [iaca], sessionTranscript: transcript, readerKey: readerKey)
            .verify(prepare("the DeviceResponse") { try DeviceResponse(encoded: responseBytes) }, at: verificationTime)
        guard report.outcome == .verified else {
            fail("verification \(done) ended \(report.outcome): \(report.failureSummary.joined(separator: "; "))")
        }
        if done % step == 0 || done == soakCount {
            print("offline verifications: \(done) of \(soakCount): \(ProcessResources.current())")
        }
    }
    let end = ProcessResources.current()
    print("offline verifications: \(soakCount) verified; from start to end RSS \(end.residentKiB - start.residentKiB) KiB, descriptors \(end.openFileDescriptors - start.openFileDescriptors)")
    exit(0)
}

// MARK: Measurements

let decodeBenchmark = Benchmark("(a) decode DeviceResponse") {
    try DeviceResponse(encoded: responseBytes)
} check: { $0.documents?.count == 1 }

func checkVerified(_ report: VerificationReport) -> Bool {
    guard report.outcome == .verified else {
        fail("verification ended \(report.outcome), not verified: \(report.failureSummary.joined(separator: "; "))")
    }
    return true
}

// A verifier parses each x5chain certificate once; (b) is a reader that has seen this document
// signer before, (b') one meeting it for the first time (a new verifier on every call).
let verifyBenchmark = Benchmark("(b) verify DeviceResponse, decode included") {
    try verifier.verify(responseBytes, at: verificationTime)
} check: { checkVerified($0) }

let firstVerifyBenchmark = Benchmark("(b') the same, first response of its signer") {
    try DeviceResponseVerifier(trustAnchors: [iaca], sessionTranscript: transcript, readerKey: readerKey)
        .verify(responseBytes, at: verificationTime)
} check: { checkVerified($0) }

let primitiveBenchmarks = [
    Benchmark("ECDSA P-256 verify: MSO by DS key") {
        documentSigner.publicKey.isValidSignature(issuerAuth.signature, for: issuerSigBytes, digest: .sha256)
    } check: { $0 },
    Benchmark("ECDSA P-256 verify: DS cert by IACA") {
        documentSigner.isSignedBy(iaca)
    } check: { $0 },
    Benchmark("SHA-256 x 6 IssuerSignedItemBytes") {
        itemBytes.map { DigestAlgorithm.sha256.hash($0) }
    } check: { $0 == expectedDigests },
    Benchmark("ECDH P-256 EReaderKey x SDeviceKey + check") {
        try readerKey.sharedSecret(with: deviceKey)
    } check: { $0.byteCount == 32 },
    Benchmark("HKDF-SHA-256 EMacKey (+ salt hash)") {
        try sharedSecret.hkdfDerivedSymmetricKey(
            salt: DigestAlgorithm.sha256.hash(transcript.taggedBytes), info: EMacKey.info,
            outputByteCount: EMacKey.keyByteCount)
    } check: { $0 == eMacKey },
    Benchmark("HMAC-SHA-256 DeviceMac") {
        HMACSHA256.isValidAuthenticationCode(deviceMac.tag, for: macStructure, key: eMacKey)
    } check: { $0 },
]

// Stages of (b) by themselves: where verification spends time besides the primitives.
let validator = CertificateChainValidator(trustAnchors: [iaca])
let stageBenchmarks = [
    Benchmark("parse DS certificate (x5chain[0])") {
        try Certificate(derEncoded: dsBytes)
    } check: { $0 == documentSigner },
    Benchmark("validate chain DS -> IACA") {
        validator.validate(chain: [documentSigner], profile: .documentSigner, at: verificationTime)
    } check: { $0.isValid },
    Benchmark("decode MSO from issuerAuth payload") {
        try document.issuerSigned.mobileSecurityObjectBytes()
    } check: { $0.value.docType == document.docType },
    Benchmark("COSE_Key -> PublicKey (MSO deviceKey)") {
        try mso.deviceKeyInfo.deviceKey.publicKey()
    } check: { $0 == deviceKey },
]

let measurements = Stopwatch(fixedIterations: fixedIterations)
    .measure([decodeBenchmark, verifyBenchmark, firstVerifyBenchmark] + primitiveBenchmarks + stageBenchmarks)
let decode = measurements[0]
let verify = measurements[1]
let firstVerify = measurements[2]
let primitives = Array(measurements[3..<(3 + primitiveBenchmarks.count)])
let stages = Array(measurements[(3 + primitiveBenchmarks.count)...])

// MARK: Report

let floor = primitives.reduce(0) { $0 + $1.median }
let ratio = verify.median / floor
let firstRatio = firstVerify.median / floor
let target = 1.5

if json {
    func entry(_ measurement: Measurement) -> String {
        let name = measurement.name.replacing("\"", with: "\\\"")
        return #"{"name": "\#(name)", "medianMicroseconds": \#(rounded(measurement.median)), "p90Microseconds": \#(rounded(measurement.p90)), "iterations": \#(measurement.iterations)}"#
    }
    func list(_ measurements: [Measurement]) -> String {
        "[\n    " + measurements.map(entry).joined(separator: ",\n    ") + "\n  ]"
    }
    print("""
        {
          "vector": "ISO/IEC 18013-5 Annex D device_response",
          "responseBytes": \(responseBytes.count),
          "verificationTime": "2021-01-01T00:00:00Z",
          "decode": \(entry(decode)),
          "verify": \(entry(verify)),
          "verifyFirstOfSigner": \(entry(firstVerify)),
          "primitives": \(list(primitives)),
          "stages": \(list(stages)),
          "floorMicroseconds": \(rounded(floor)),
          "ratio": \(rounded(ratio)),
          "ratioFirstOfSigner": \(rounded(firstRatio)),
          "targetRatio": \(target)
        }
        """)
} else {
    func row(_ label: String, _ median: Double, _ p90: Double? = nil, _ iterations: Int? = nil) -> String {
        let p90Text = p90.map { format($0) } ?? ""
        let iterationText = iterations.map(String.init) ?? ""
        return pad(label, 44) + padLeft(format(median), 11) + padLeft(p90Text, 11) + padLeft(iterationText, 12)
    }
    func row(_ measurement: Measurement, indent: String = "") -> String {
        row(indent + measurement.name, measurement.median, measurement.p90, measurement.iterations)
    }
    print("mdoc-benchmark: ISO/IEC 18013-5 Annex D DeviceResponse (\(responseBytes.count) bytes), verified at 2021-01-01T00:00:00Z")
    print(pad("", 44) + padLeft("median µs", 11) + padLeft("p90 µs", 11) + padLeft("iterations", 12))
    print(row(decode))
    print(row(verify))
    print(row(firstVerify))
    print("(c) OpenSSL floor of verification")
    for measurement in primitives {
        print(row(measurement, indent: "    "))
    }
    print(row("    floor: sum of the medians", floor))
    print("verification / floor: \(format(ratio, digits: 2))×   (target ≤ \(format(target, digits: 1))×)")
    print("first response of its signer / floor: \(format(firstRatio, digits: 2))×")
    print("stages of (b), for orientation")
    for measurement in stages {
        print(row(measurement, indent: "    "))
    }
}

/// `value` with `digits` decimals.
func format(_ value: Double, digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let whole = (value * scale).rounded()
    let integer = Int(whole) / Int(scale)
    let fraction = abs(Int(whole)) % Int(scale)
    guard digits > 0 else { return String(integer) }
    let fractionText = String(fraction)
    let sign = whole < 0 && integer == 0 ? "-" : ""
    return sign + String(integer) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
}

/// `value` rounded to 3 decimals, for JSON.
func rounded(_ value: Double) -> String {
    format(value, digits: 3)
}

func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

func padLeft(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}
