import COpenSSL
@testable import MdocCrypto
import MdocTestSupport
import Testing

/// The answers a certificate keeps from its parsing for chain validation, against the checks
/// that compute them on the spot and against OpenSSL: on certificates that pass the Annex B
/// profile and on certificates that fail it.
@Suite("Certificate answers made once at parsing, against the checks made on the spot")
struct CertificateIntrinsicsTests {
    /// A validation to compare: the anchors, the chain, the time.
    struct Path: CustomTestStringConvertible, Sendable {
        let name: String
        let anchors: [Certificate]
        let chain: [Certificate]
        var time = TestPKI.referenceTime

        var testDescription: String { name }
    }

    /// Every path of the one-hop cases (accepted and refused), the Annex D chain, chains the
    /// toolkit's CertificateBuilder issues (on several curves, and with each deviation from the
    /// profile it makes for negative material), and chains whose certificates fail the Annex B
    /// profile on an answer kept from parsing.
    static func paths() throws -> [Path] {
        let root = OneHopPathValidationTests.root
        let anchors = OneHopPathValidationTests.anchors
        let leaf = { (extensions: [(String, String)], digest: OpaquePointer?) in
            OneHopPathValidationTests.leaf(extensions, digest: digest)
        }
        let sha1Root = TestPKI.issue("sha1 iaca", issuer: nil, extensions: TestPKI.rootExtensions(), digest: EVP_sha1())
        let criticalExtensionRoot = TestPKI.issue(
            "critical extension iaca", issuer: nil, extensions: TestPKI.rootExtensions() + [("1.2.3.4", "critical,DER:0500")])
        let annexD = Path(
            name: "Annex D", anchors: [try Certificate(derEncoded: Vectors.annexD("iaca_cert"))],
            chain: [try Certificate(derEncoded: Vectors.annexD("ds_cert"))], time: CertificateChainValidationTests.annexDTime)
        let failing = [
            Path(name: "leaf signed with ecdsa-with-SHA1", anchors: anchors, chain: [leaf(TestPKI.leafExtensions(), EVP_sha1())]),
            Path(
                name: "leaf with an unhandled critical extension", anchors: anchors,
                chain: [leaf(TestPKI.leafExtensions() + [("1.2.3.4", "critical,DER:0500")], EVP_sha256())]),
            Path(
                name: "leaf with two unhandled critical extensions", anchors: anchors,
                chain: [leaf(TestPKI.leafExtensions() + [("1.2.3.4", "critical,DER:0500"), ("1.2.3.5", "critical,DER:0500")], EVP_sha256())]),
            Path(
                name: "anchor self-signed with ecdsa-with-SHA1", anchors: [sha1Root.certificate],
                chain: [OneHopPathValidationTests.leaf(issuer: sha1Root)]),
            Path(
                name: "anchor with an unhandled critical extension", anchors: [criticalExtensionRoot.certificate],
                chain: [OneHopPathValidationTests.leaf(issuer: criticalExtensionRoot)]),
            Path(name: "leaf with explicit curve parameters", anchors: anchors, chain: [try explicitCurveLeaf()]),
            Path(name: "leaf given as its own anchor", anchors: [OneHopPathValidationTests.validLeaf], chain: [OneHopPathValidationTests.validLeaf]),
            Path(name: "anchor in the chain twice", anchors: anchors, chain: [OneHopPathValidationTests.validLeaf, root.certificate, root.certificate]),
        ]
        var issued: [Path] = []
        for curve in [Curve.p256, .brainpoolP320r1, .ed448] {
            let pair = try CertificateBuilderTests.pair(.documentSigner, curve: curve)
            issued.append(Path(name: "CertificateBuilder on \(curve)", anchors: [pair.root], chain: [pair.leaf], time: CertificateBuilderTests.now))
        }
        let pair = try CertificateBuilderTests.pair(.documentSigner)
        for deviation in CertificateBuilder.Deviation.allCases {
            var builder = CertificateBuilderTests.builder(.documentSigner, commonName: "\(deviation) leaf")
            builder.deviations = [deviation]
            let leaf = try builder.issued(for: try PrivateKey(generating: .p256).publicKey, by: pair.root, signingKey: pair.rootKey)
            issued.append(Path(name: "CertificateBuilder, \(deviation)", anchors: [pair.root], chain: [leaf], time: CertificateBuilderTests.now))
        }
        let oneHop = try OneHopPathValidationTests.cases().map { Path(name: $0.name, anchors: $0.anchors, chain: $0.chain, time: $0.time) }
        return [annexD] + issued + failing + oneHop
    }

    /// A leaf whose key is encoded with explicit curve parameters (RFC 5480 section 2.1.1's
    /// specifiedCurve, which OpenSSL's `check_curve` refuses on a path).
    static func explicitCurveLeaf() throws -> Certificate {
        let key = TestKeyPair()
        #expect(EVP_PKEY_set_utf8_string_param(key.pointer, "encoding", "explicit") == 1)
        return OneHopPathValidationTests.leaf(key: key)
    }

    @Test("a key with explicit curve parameters has no named curve")
    func explicitCurveParameters() throws {
        let leaf = try Self.explicitCurveLeaf()
        #expect(!leaf.intrinsics.hasNamedCurve)
        #expect(OneHopPathValidation(anchors: OneHopPathValidationTests.anchors).anchor(for: [leaf], at: TestPKI.referenceTime) == nil)
    }

    /// `certificate` parsed again from its DER: a certificate that has answered nothing yet.
    static func reparsed(_ certificate: Certificate) throws -> Certificate {
        try Certificate(derEncoded: certificate.derRepresentation)
    }

    @Test("each answer is the one its check computes on the spot, and OpenSSL's", arguments: try paths())
    func answersAreTheChecks(_ path: Path) throws {
        for certificate in path.anchors + path.chain {
            let answers = certificate.intrinsics
            let summary = certificate.extensionSummary
            #expect(answers.hasNamedCurve == OneHopPathValidation.hasNamedCurve(certificate.publicKey))
            #expect(
                answers.namesItselfAsIssuer
                    == (certificate.isSelfIssued
                        && OneHopPathValidation.keyIdentifiersMatch(summary.authorityKeyIdentifier, issuer: summary)
                        && OneHopPathValidation.signatureAlgorithm(certificate.fields.tbsSignatureAlgorithm, isFor: certificate.publicKey)))
            #expect(answers.hasAllowedSignatureAlgorithm == Certificate.SignatureAlgorithm.iso18013_5Allowed.contains(certificate.signatureAlgorithm))
            #expect(
                answers.unhandledCriticalExtensionOIDs
                    == certificate.criticalExtensionOIDs.filter { !CertificateProfilePolicy.handledCriticalExtensions.contains($0) })
            // OpenSSL's X509_self_signed without the signature asks what namesItselfAsIssuer
            // answers, for the authority key identifiers this toolkit compares itself.
            if summary.isComplete, summary.authorityKeyIdentifier?.namesIssuer != true, let handle = certificate.handle {
                let selfSigned = X509_self_signed(handle.pointer, 0) == 1
                ERR_clear_error()
                #expect(answers.namesItselfAsIssuer == selfSigned, "\(certificate.subject)")
            }
        }
    }

    @Test("validating parsed certificates again gives the result of freshly parsed ones", arguments: try paths())
    func repeatedValidationIsUnchanged(_ path: Path) throws {
        let validator = CertificateChainValidator(trustAnchors: path.anchors)
        let first = validator.validate(chain: path.chain, profile: .documentSigner, at: path.time)
        let again = validator.validate(chain: path.chain, profile: .documentSigner, at: path.time)
        let fresh = CertificateChainValidator(trustAnchors: try path.anchors.map(Self.reparsed))
            .validate(chain: try path.chain.map(Self.reparsed), profile: .documentSigner, at: path.time)
        for result in [again, fresh] {
            #expect(result.path == first.path)
            #expect(result.failures == first.failures)
            #expect(result.passedChecks == first.passedChecks)
            #expect(result.passedChecks.map(\.detail) == first.passedChecks.map(\.detail))
        }
    }

    @Test("a validation records no more passes than its report makes room for", arguments: try paths())
    func passesFitTheReservation(_ path: Path) {
        let result = CertificateChainValidator(trustAnchors: path.anchors).validate(chain: path.chain, profile: .documentSigner, at: path.time)
        let certificates = path.chain.count + 1
        #expect(
            result.passedChecks.count
                <= certificates * CertificateValidationReport.passesPerCertificate + CertificateValidationReport.passesPerPath)
    }
}
