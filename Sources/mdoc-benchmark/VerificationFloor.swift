import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession

/// The OpenSSL work that verifying one DeviceResponse cannot avoid, as benchmarks of MdocCrypto's
/// thinnest calls on keys parsed and messages built beforehand:
/// - one X.509 signature check per certificate of each document signer's path (RFC 5280
///   section 6.1.3), the trust anchor's own excepted;
/// - the IssuerAuth signature over its Sig_structure (ISO/IEC 18013-5 9.1.2.4);
/// - the digest of every IssuerSignedItemBytes (9.1.2.5);
/// - mdoc authentication (9.1.3): the DeviceSignature over its Sig_structure, or for a DeviceMac
///   ECDH of EReaderKey with the MSO deviceKey (with the peer-key check MdocCrypto makes), HKDF
///   for EMacKey and HMAC-SHA-256 over the MAC_structure.
///
/// The floor is the sum of their medians; everything verification spends beyond it is CBOR,
/// model, certificate parsing and path building, and the report.
struct VerificationFloor {
    /// One benchmark per kind of work, each doing that work for every document.
    let benchmarks: [Benchmark]
    /// The position in ``benchmarks`` of the digests of the IssuerSignedItemBytes.
    let digestIndex: Int
    /// The number of IssuerSignedItemBytes.
    let itemCount: Int
    /// Their total size in bytes.
    let itemByteCount: Int

    /// Prepares the work of verifying `input`, which must verify.
    init(_ input: VerificationInput) throws {
        let response = try DeviceResponse(encoded: input.responseBytes)
        var certificatePairs: [(Certificate, Certificate)] = []
        var issuerSignatures: [(PublicKey, [UInt8], [UInt8], DigestAlgorithm)] = []
        var digests: [(DigestAlgorithm, [UInt8], [UInt8])] = []
        var deviceSignatures: [(PublicKey, [UInt8], [UInt8], DigestAlgorithm)] = []
        var macs: [(PrivateKey, PublicKey, [UInt8], [UInt8], [UInt8])] = []
        for document in response.documents ?? [] {
            let issuerAuth = document.issuerSigned.issuerAuth
            let chain = try issuerAuth.x5chain.map { try Certificate(derEncoded: $0) }
            certificatePairs += try Self.signedPairs(chain, anchors: input.trustAnchors)
            guard let signer = chain.first, let algorithm = issuerAuth.algorithm else {
                throw BenchmarkError("document \(document.docType) has no x5chain or no IssuerAuth algorithm")
            }
            issuerSignatures.append((signer.publicKey, issuerAuth.signature, issuerAuth.toBeSigned(), algorithm.digest ?? .sha256))

            let mso = try document.issuerSigned.mobileSecurityObjectBytes().value
            guard let digestAlgorithm = DigestAlgorithm(rawValue: mso.digestAlgorithm) else {
                throw BenchmarkError("the MSO digest algorithm \(mso.digestAlgorithm) is not supported")
            }
            for (nameSpace, items) in document.issuerSigned.nameSpaces ?? OrderedMap() {
                for item in items {
                    guard let expected = mso.valueDigests[nameSpace]?[item.value.digestID] else {
                        throw BenchmarkError("no value digest for \(nameSpace) digestID \(item.value.digestID)")
                    }
                    digests.append((digestAlgorithm, item.cbor.encoded(), Array(expected)))
                }
            }

            guard let transcript = input.transcript else {
                throw BenchmarkError("device authentication needs the SessionTranscript (--transcript)")
            }
            let deviceKey = try mso.deviceKeyInfo.deviceKey.publicKey()
            let payload = transcript.deviceAuthenticationBytes(
                docType: document.docType, deviceNameSpacesBytes: document.deviceSigned.nameSpaces)
            switch document.deviceSigned.deviceAuth {
            case .deviceSignature(let signature):
                deviceSignatures.append((
                    deviceKey, signature.signature, signature.toBeSigned(detachedPayload: payload),
                    signature.algorithm?.digest ?? .sha256))
            case .deviceMac(let mac):
                guard let readerKey = input.readerKey else {
                    throw BenchmarkError("a DeviceMac needs the reader's ephemeral key (--reader-key)")
                }
                macs.append((readerKey, deviceKey, transcript.taggedBytes, mac.tag, mac.toBeMACed(detachedPayload: payload)))
            }
        }

        var benchmarks: [Benchmark] = []
        if !certificatePairs.isEmpty {
            benchmarks.append(Benchmark("X.509 signature x \(certificatePairs.count) (path to the IACA)") {
                certificatePairs.allSatisfy { $0.0.isSignedBy($0.1) }
            } check: { $0 })
        }
        benchmarks.append(Benchmark("IssuerAuth signature x \(issuerSignatures.count)") {
            issuerSignatures.allSatisfy { $0.0.isValidSignature($0.1, for: $0.2, digest: $0.3) }
        } check: { $0 })
        digestIndex = benchmarks.count
        itemCount = digests.count
        itemByteCount = digests.reduce(0) { $0 + $1.1.count }
        let algorithms = Set(digests.map(\.0.rawValue)).sorted().joined(separator: ", ")
        benchmarks.append(Benchmark("\(algorithms) x \(digests.count) IssuerSignedItemBytes (\(itemByteCount) bytes)") {
            digests.allSatisfy { $0.0.hash($0.1) == $0.2 }
        } check: { $0 })
        if !deviceSignatures.isEmpty {
            benchmarks.append(Benchmark("DeviceSignature x \(deviceSignatures.count)") {
                deviceSignatures.allSatisfy { $0.0.isValidSignature($0.1, for: $0.2, digest: $0.3) }
            } check: { $0 })
        }
        if !macs.isEmpty {
            let secrets = try macs.map { try $0.0.sharedSecret(with: $0.1) }
            let keys = try macs.map { try EMacKey.derive(privateKey: $0.0, peerPublicKey: $0.1, sessionTranscriptBytes: $0.2) }
            benchmarks.append(Benchmark("ECDH EReaderKey x deviceKey + check, x \(macs.count)") {
                try macs.map { try $0.0.sharedSecret(with: $0.1) }
            } check: { $0.count == macs.count })
            benchmarks.append(Benchmark("HKDF-SHA-256 EMacKey (+ salt hash) x \(macs.count)") {
                try zip(secrets, macs).map { secret, mac in
                    try secret.hkdfDerivedSymmetricKey(
                        salt: DigestAlgorithm.sha256.hash(mac.2), info: EMacKey.info, outputByteCount: EMacKey.keyByteCount)
                }
            } check: { $0 == keys })
            benchmarks.append(Benchmark("HMAC-SHA-256 DeviceMac x \(macs.count)") {
                zip(macs, keys).allSatisfy { HMACSHA256.isValidAuthenticationCode($0.3, for: $0.4, key: $1) }
            } check: { $0 })
        }
        self.benchmarks = benchmarks
    }

    /// Each certificate of `chain` with the certificate that signed it: the next one, or for the
    /// last a trust anchor. A trust anchor carried in the chain ends it: its self-signature is
    /// not part of path validation (RFC 5280 section 6.1).
    private static func signedPairs(_ chain: [Certificate], anchors: [Certificate]) throws -> [(Certificate, Certificate)] {
        var pairs: [(Certificate, Certificate)] = []
        for (position, certificate) in chain.enumerated() {
            if anchors.contains(certificate) { return pairs }
            if position + 1 < chain.count {
                pairs.append((certificate, chain[position + 1]))
            } else if let anchor = anchors.first(where: { certificate.isSignedBy($0) }) {
                pairs.append((certificate, anchor))
            } else {
                throw BenchmarkError("no trust anchor signed \"\(certificate.subject)\"")
            }
        }
        return pairs
    }
}
