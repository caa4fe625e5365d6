// `mdoc-benchmark keys`: what a device or reader key held by a PKCS#11 token or a TPM 2.0 costs
// per operation against the same operation with a software key in OpenSSL's default provider,
// measured in the same run: ECDSA P-256 with SHA-256 over a message the size of
// DeviceAuthenticationBytes (ISO/IEC 18013-5 9.1.3.6 DeviceSignature, 9.1.4 reader
// authentication), and ECDH P-256 with a reader's ephemeral key (9.1.3.5, the IKM of EMacKey).
// The software key is the floor: the same arithmetic without the token's or TPM's round trip.

import MdocCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum KeyBenchmark {
    /// The bytes signed: about the size of the DeviceAuthenticationBytes of a one-document
    /// response (the SessionTranscript with its engagement, the doc type, the empty
    /// DeviceNameSpaces).
    static let messageByteCount = 400

    /// One key's figures.
    struct Row {
        let name: String
        let signature: Measurement
        let keyAgreement: Measurement
    }

    /// The keys the command line names, loaded through their providers, each with the name it is
    /// reported under; the token's PIN from `MDOC_TOKEN_PIN`.
    static func keys(named options: MdocBenchmark.Keys) throws(CryptoError) -> [(String, PrivateKey)] {
        var keys: [(String, PrivateKey)] = []
        if let uri = options.pkcs11URI, let module = options.module {
            let pin = ProcessInfo.processInfo.environment[MdocBenchmark.Keys.pinVariable].map { Array($0.utf8) }
            let provider = try KeyProvider.pkcs11(module: module, pin: pin)
            keys.append(("PKCS#11 token (\(module))", try provider.privateKey(pkcs11URI: uri)))
        }
        if let keyFile = options.tpm2KeyFile {
            let provider = try KeyProvider.tpm2(tcti: options.tcti)
            keys.append(("TPM 2.0 (\(options.tcti))", try provider.privateKey(tss2KeyFile: keyFile)))
        }
        return keys
    }

    /// Measures the software key and each of `keys` (name, key) beside it.
    static func run(keys: [(String, PrivateKey)], iterations: Int?, json: Bool) {
        let software = prepare("a software P-256 key") { try PrivateKey(generating: .p256) }
        let reader = prepare("a reader's ephemeral P-256 key") { try PrivateKey(generating: .p256) }
        let peer = reader.publicKey
        var message = [UInt8](repeating: 0, count: messageByteCount)
        for index in message.indices { message[index] = UInt8.random(in: 0...255) }
        let stopwatch = Stopwatch(fixedIterations: iterations)
        let all = [("software (OpenSSL default provider)", software)] + keys
        for (name, key) in all where key.curve != .p256 {
            fail("\(name) is a \(key.curve) key; this benchmark measures P-256 keys")
        }
        let benchmarks = all.flatMap { name, key in
            // What the key's agreement must give: the reader's side of it, in software.
            let expected = prepare("the ECDH secret of \(name)") {
                try reader.sharedSecret(with: key.publicKey).withUnsafeBytes { Array($0) }
            }
            return [
                Benchmark("\(name): ECDSA P-256", { try key.signature(for: message, digest: .sha256) }, check: { signature in
                    key.publicKey.isValidSignature(signature, for: message, digest: .sha256)
                }),
                Benchmark("\(name): ECDH P-256", { try key.sharedSecret(with: peer) }, check: { secret in
                    secret.withUnsafeBytes { Array($0) } == expected
                }),
            ]
        }
        let measured = stopwatch.measure(benchmarks)
        let rows = all.indices.map { index in
            Row(name: all[index].0, signature: measured[2 * index], keyAgreement: measured[2 * index + 1])
        }
        report(rows, json: json)
    }

    private static func report(_ rows: [Row], json: Bool) {
        let floor = rows[0]
        if json {
            let objects = rows.map { row in
                "{\"key\": \(jsonString(row.name)), "
                    + "\"signatureMedianMicroseconds\": \(rounded(row.signature.median)), \"signatureP90Microseconds\": \(rounded(row.signature.p90)), "
                    + "\"keyAgreementMedianMicroseconds\": \(rounded(row.keyAgreement.median)), \"keyAgreementP90Microseconds\": \(rounded(row.keyAgreement.p90)), "
                    + "\"signatureOverSoftware\": \(rounded(row.signature.median / floor.signature.median)), "
                    + "\"keyAgreementOverSoftware\": \(rounded(row.keyAgreement.median / floor.keyAgreement.median))}"
            }
            print("{\"messageBytes\": \(messageByteCount), \"keys\": [\(objects.joined(separator: ", "))]}")
            return
        }
        print("Key operations (P-256, ECDSA over \(messageByteCount) bytes with SHA-256; ECDH), median and p90 in microseconds:")
        for row in rows {
            print("")
            print("\(row.name):")
            print("  \(pad("ECDSA sign", 12)) \(padLeft(format(row.signature.median), 10)) \(padLeft(format(row.signature.p90), 10))"
                + "   \(format(row.signature.median / floor.signature.median, digits: 2))x software")
            print("  \(pad("ECDH", 12)) \(padLeft(format(row.keyAgreement.median), 10)) \(padLeft(format(row.keyAgreement.p90), 10))"
                + "   \(format(row.keyAgreement.median / floor.keyAgreement.median, digits: 2))x software")
        }
    }
}
