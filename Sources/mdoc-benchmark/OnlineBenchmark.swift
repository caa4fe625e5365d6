// `mdoc-benchmark online`: what a verifier spends on one ISO/IEC TS 18013-7 Annex C response,
// the demo mDL with every element sealed to an `org-iso-mdoc` request, beside the OpenSSL work it
// cannot avoid, measured in the same run:
//   - opening: HPKE base mode (RFC 9180 section 6.1) with DHKEM(P-256, HKDF-SHA256), HKDF-SHA256
//     and AES-128-GCM, the SessionTranscript as its info, against the floor of decoding the
//     encapsulated key, one ECDH, the HKDF-SHA-256 of RFC 9180 sections 4.1 and 5.1 (four
//     extracts: eae_prk, psk_id_hash, info_hash, secret; three expands: shared_secret, key,
//     base_nonce), as three extract-and-expands and one HMAC-SHA-256, and the AES-128-GCM
//     decryption of the ciphertext;
//   - verifying the opened DeviceResponse, bound to the `[null, null, ["dcapi", hash]]`
//     transcript, against the verification floor of `mdoc-benchmark verify`
//     (VerificationFloor.swift);
//   - both, as `mdoc-reader verify --online-state` and a verifier service do them.
// `online --soak N` opens and verifies the answer N times, for the counts of instructions and
// allocations of scripts/perf-gates.py.

import MdocCBOR
import MdocCrypto
import MdocModel
import MdocOnline
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum OnlineBenchmark {
    /// The origin of the request, as a browser gives it to the wallet.
    static let origin = "https://verifier.example"

    static func run(iterations: Int?, json: Bool, scratch: String) throws {
        let now = Date()
        let (state, sealed, iaca) = answer(at: now)
        let responseBytes = prepare("the response, opened") { try state.open(sealed, at: now) }
        // The opened response with what `mdoc-reader verify` takes beside it, as for every input.
        let files = VerificationInput.Files(
            response: scratch + "/response.cbor", trust: [scratch + "/iaca.pem"], transcript: scratch + "/session_transcript_bytes.cbor")
        for (bytes, path) in [(responseBytes, files.response), (Array(iaca.pemRepresentation.utf8), files.trust[0]),
                              (state.sessionTranscript.taggedBytes, scratch + "/session_transcript_bytes.cbor")] {
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw BenchmarkError("cannot write \(path)") }
        }
        let input = VerificationInput(
            name: "the demo mDL over 18013-7 Annex C", responseBytes: responseBytes, trustAnchors: [iaca],
            transcript: state.sessionTranscript, readerKey: nil, time: now, files: files)
        let verificationFloor = prepare("the verification floor") { try VerificationFloor(input) }
        let hpkeFloor = prepare("the HPKE floor") { try Self.hpkeFloor(sealed.sealed, info: state.sessionTranscript.itemBytes) }

        let verifier = { DeviceResponseVerifier(trustAnchors: [iaca], sessionTranscript: state.sessionTranscript) }
        let benchmarks = [
            Benchmark("open (HPKE)", { try state.open(sealed, at: now) }, check: { $0 == responseBytes }),
            input.verification("verify", verifier: verifier),
            Benchmark("open + verify", { () throws -> (report: VerificationReport, verifier: DeviceResponseVerifier) in
                let verifier = verifier()
                return (try verifier.verify(try state.open(sealed, at: now), at: now), verifier)
            }, check: { $0.report.outcome == .verified }),
        ]
        let stopwatch = Stopwatch(fixedIterations: iterations)
        let measured = stopwatch.measure(benchmarks + hpkeFloor + verificationFloor.benchmarks)
        let hpkeFloorMedian = measured[3..<(3 + hpkeFloor.count)].reduce(0) { $0 + $1.median }
        let verificationFloorMedian = measured[(3 + hpkeFloor.count)...].reduce(0) { $0 + $1.median }
        report(
            measured, responseBytes: responseBytes.count, ciphertextBytes: sealed.sealed.ciphertext.count,
            hpkeFloor: hpkeFloorMedian, verificationFloor: verificationFloorMedian, json: json)
    }

    /// An Annex C request made at `now` for every element of the demo mDL, its state, the
    /// answer the holder's ResponseBuilder makes and seals to it, and the demo IACA.
    private static func answer(at now: Date) -> (state: DCAPIRequestState, sealed: EncryptedResponse, iaca: Certificate) {
        let (credential, iaca) = Checkout.demoMaterial()
        let (request, state) = prepare("an Annex C request for every element of the demo mDL") {
            try DCAPIRequestState.make(PresentationSoak.everyElementOfTheDemoMDL, origin: origin, readerAuthentication: nil, now: now)
        }
        let sealed = prepare("the demo mDL's response, sealed to the request") {
            let response = try ResponseBuilder().deviceResponse(
                request: request.deviceRequest, credentials: [credential], approved: .all(requestedIn: request.deviceRequest),
                sessionTranscript: request.sessionTranscript(origin: origin))
            return try request.seal(response.cbor.encoded(), origin: origin)
        }
        return (state, sealed, iaca)
    }

    /// Opens and verifies one answer `count` times, each with a new verifier, printing resident
    /// memory and open descriptors at the start and after each tenth of the run; ends the
    /// program when an answer does not open or verify.
    static func soak(count: Int) {
        let now = Date()
        let (state, sealed, iaca) = answer(at: now)
        print("online: 0 of \(count): \(ProcessResources.current())")
        let step = max(1, count / 10)
        for done in 1...count {
            let report: VerificationReport
            do {
                let verifier = DeviceResponseVerifier(trustAnchors: [iaca], sessionTranscript: state.sessionTranscript)
                report = try verifier.verify(try state.open(sealed, at: now), at: now)
            } catch {
                fail("the answer did not open or verify: \(error)")
            }
            guard report.outcome == .verified else { fail("the answer did not verify: \(report.outcome)") }
            if done % step == 0 || done == count {
                print("online: \(done) of \(count): \(ProcessResources.current())")
            }
        }
    }

    /// The OpenSSL calls of opening `message`, each on inputs of the same sizes as HPKE's, with a
    /// key of its own: the encapsulated key decoded and agreed with, the HKDFs, and AES-128-GCM
    /// over a ciphertext of the response's length.
    private static func hpkeFloor(_ message: HPKESealedMessage, info: [UInt8]) throws -> [Benchmark] {
        let recipient = try PrivateKey(generating: .p256)
        let secret = [UInt8](repeating: 0x5a, count: 32)
        let key = SymmetricKey(bytes: [UInt8](repeating: 0x11, count: 16))
        let nonce = [UInt8](repeating: 0x22, count: 12)
        let plaintext = [UInt8](repeating: 0x33, count: message.ciphertext.count - AESGCM.tagByteCount)
        let ciphertext = try AESGCM.seal(plaintext, key: key, nonce: nonce, authenticating: [], keyLength: .bits128)
        let agreement = { () throws -> [UInt8] in
            try recipient.sharedSecret(with: try PublicKey(x963Representation: message.encapsulatedKey, curve: .p256)).withUnsafeBytes { Array($0) }
        }
        let macKey = SymmetricKey(bytes: secret)
        // eae_prk then shared_secret over the KEM context; info_hash over the SessionTranscript
        // then base_nonce; secret then key; psk_id_hash, an extract alone, as one HMAC.
        let derivations = { () throws -> [SymmetricKey] in
            [
                try HKDF.deriveKey(inputKeyMaterial: secret, salt: [], info: message.encapsulatedKey + message.encapsulatedKey, outputByteCount: 32),
                try HKDF.deriveKey(inputKeyMaterial: info, salt: [], info: secret, outputByteCount: 12),
                try HKDF.deriveKey(inputKeyMaterial: secret, salt: secret, info: secret, outputByteCount: 16),
                SymmetricKey(bytes: HMACSHA256.authenticationCode(for: [], key: macKey)),
            ]
        }
        let (agreed, derived) = (try agreement(), try derivations())
        return [
            Benchmark("P-256 point decode + ECDH", agreement, check: { $0 == agreed }),
            Benchmark("HKDF-SHA-256 x 3 + HMAC-SHA-256", derivations, check: { $0 == derived }),
            Benchmark("AES-128-GCM open", {
                try AESGCM.open(ciphertext, key: key, nonce: nonce, authenticating: [], keyLength: .bits128)
            }, check: { $0 == plaintext }),
        ]
    }

    private static func report(
        _ measured: [Measurement], responseBytes: Int, ciphertextBytes: Int, hpkeFloor: Double, verificationFloor: Double, json: Bool
    ) {
        let (open, verify, both) = (measured[0], measured[1], measured[2])
        if json {
            print("{\"online\": {\"responseBytes\": \(responseBytes), \"ciphertextBytes\": \(ciphertextBytes), "
                + "\"openMedianMicroseconds\": \(rounded(open.median)), \"hpkeFloorMicroseconds\": \(rounded(hpkeFloor)), "
                + "\"openOverFloor\": \(rounded(open.median / hpkeFloor)), "
                + "\"verifyMedianMicroseconds\": \(rounded(verify.median)), \"verificationFloorMicroseconds\": \(rounded(verificationFloor)), "
                + "\"verifyOverFloor\": \(rounded(verify.median / verificationFloor)), "
                + "\"openAndVerifyMedianMicroseconds\": \(rounded(both.median)), "
                + "\"openAndVerifyOverFloor\": \(rounded(both.median / (hpkeFloor + verificationFloor)))}}")
            return
        }
        print("ISO/IEC TS 18013-7 Annex C response of the demo mDL (every element), DeviceResponse \(responseBytes) bytes, "
            + "ciphertext \(ciphertextBytes) bytes; median and p90 in microseconds:")
        for measurement in measured {
            print("  \(pad(measurement.name, 44)) \(padLeft(format(measurement.median), 10)) \(padLeft(format(measurement.p90), 10))")
        }
        print("  open / HPKE floor (point, ECDH, HKDF, AES-128-GCM): \(format(open.median / hpkeFloor, digits: 2))x "
            + "(\(format(hpkeFloor)) us)")
        print("  verify / verification floor: \(format(verify.median / verificationFloor, digits: 2))x (\(format(verificationFloor)) us)")
        print("  open + verify / both floors: \(format(both.median / (hpkeFloor + verificationFloor), digits: 2))x")
    }
}
