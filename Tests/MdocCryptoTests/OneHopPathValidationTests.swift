import COpenSSL
@testable import MdocCrypto
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one-hop path (a certificate issued directly by a trust anchor) decided without OpenSSL's
/// path builder, against `X509_verify_cert` on the same certificates: each case breaks one rule
/// OpenSSL enforces for that path, and the one-hop check must never accept what OpenSSL rejects.
@Suite("One-hop path validation against X509_verify_cert (RFC 5280 section 6.1)")
struct OneHopPathValidationTests {
    /// What `X509_verify_cert` must make of a path.
    enum Verdict: Sendable {
        /// It validates the path.
        case accepts
        /// It reports at least one error.
        case rejects
        /// It reports this error (among others).
        case rejectsWith(Int32)
        /// Either: the case is about the one-hop check leaving the path to OpenSSL.
        case either
    }

    /// One path: the anchors trusted, the chain as an x5chain carries it, the time, whether the
    /// one-hop check is expected to establish it, and what OpenSSL must make of it.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let anchors: [Certificate]
        let chain: [Certificate]
        var time = TestPKI.referenceTime
        var takesOneHop = false
        var openSSL = Verdict.either

        var testDescription: String { name }
    }

    static let root = TestPKI.root()
    static let sameNameRoot = TestPKI.root()
    static let rootKeyIdentifier = root.certificate.subjectKeyIdentifier ?? []

    static func leaf(
        _ extensions: [(String, String)] = TestPKI.leafExtensions(), issuer: TestCredential = root, name: String = "test ds",
        key: TestKeyPair = TestKeyPair(), notBefore: Date = TestPKI.defaultNotBefore,
        notAfter: Date = TestPKI.defaultNotAfter, digest: OpaquePointer? = EVP_sha256()
    ) -> Certificate {
        TestPKI.issue(
            name, key: key, issuer: issuer, extensions: extensions, notBefore: notBefore, notAfter: notAfter, digest: digest
        ).certificate
    }

    /// The leaf extensions with the one named `name` replaced by `value` (or dropped when `nil`).
    static func leafExtensions(replacing name: String, with value: String?) -> [(String, String)] {
        TestPKI.leafExtensions().compactMap { entry in
            guard entry.0 == name else { return entry }
            return value.map { (name, $0) }
        }
    }

    /// The root extensions with the one named `name` replaced by `value` (or dropped when `nil`).
    static func rootExtensions(replacing name: String, with value: String?) -> [(String, String)] {
        TestPKI.rootExtensions().compactMap { entry in
            guard entry.0 == name else { return entry }
            return value.map { (name, $0) }
        }
    }

    /// A path from a freshly made root with `extensions` to a leaf with `leafExtensions`.
    static func anchorCase(
        _ name: String, _ extensions: [(String, String)], leafExtensions: [(String, String)] = TestPKI.leafExtensions(),
        _ verdict: Verdict
    ) -> Case {
        let root = TestPKI.root(extensions: extensions)
        return Case(name: name, anchors: [root.certificate], chain: [leaf(leafExtensions, issuer: root)], openSSL: verdict)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// `der` with the first occurrence of `pattern` replaced by `replacement` (same length).
    static func patched(_ der: [UInt8], _ pattern: [UInt8], _ replacement: [UInt8]) throws -> Certificate {
        let start = try #require((0...(der.count - pattern.count)).first { Array(der[$0..<($0 + pattern.count)]) == pattern })
        var bytes = der
        bytes.replaceSubrange(start..<(start + pattern.count), with: replacement)
        return try Certificate(derEncoded: bytes)
    }

    static let anchors = [root.certificate]
    static let validLeaf = leaf()
    static let notBefore = TestPKI.defaultNotBefore
    static let notAfter = TestPKI.defaultNotAfter
    /// A leaf valid for a shorter period inside the anchor's, so that its own validity decides.
    static let innerStart = notBefore + 86_400
    static let innerEnd = notAfter - 86_400
    static let innerLeaf = leaf(notBefore: innerStart, notAfter: innerEnd)

    static func cases() throws -> [Case] {
        let ecdsaWithSHA256: [UInt8] = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]
        var tampered = validLeaf.derRepresentation
        tampered[tampered.count - 1] ^= 0x01
        let edRoot = TestPKI.issue(
            "ed iaca", key: TestKeyPair(algorithm: "ED25519", group: nil), issuer: nil, extensions: TestPKI.rootExtensions(),
            digest: nil)
        let p384Root = TestPKI.issue(
            "p384 iaca", key: TestKeyPair(group: "P-384"), issuer: nil, extensions: TestPKI.rootExtensions(),
            digest: EVP_sha384())
        let intermediate = TestPKI.issue("test intermediate", issuer: root, extensions: TestPKI.intermediateExtensions)
        let foreignIdentifier = "DER:30168014" + String(repeating: "ab", count: 20)
        let lateRoot = TestPKI.root(notBefore: notBefore + 86_400)
        return [
            // Paths OpenSSL validates, taken by the one-hop check.
            Case(name: "Annex B document signer", anchors: anchors, chain: [validLeaf], takesOneHop: true, openSSL: .accepts),
            Case(name: "with the anchor in the chain", anchors: anchors, chain: [validLeaf, root.certificate], takesOneHop: true, openSSL: .accepts),
            Case(name: "ecdsa-with-SHA384", anchors: anchors, chain: [leaf(digest: EVP_sha384())], takesOneHop: true, openSSL: .accepts),
            Case(name: "P-384 anchor", anchors: [p384Root.certificate], chain: [leaf(issuer: p384Root, digest: EVP_sha384())], takesOneHop: true, openSSL: .accepts),
            Case(
                name: "Ed25519 anchor and leaf", anchors: [edRoot.certificate],
                chain: [leaf(issuer: edRoot, key: TestKeyPair(algorithm: "ED25519", group: nil), digest: nil)], takesOneHop: true, openSSL: .accepts),
            Case(name: "subjectAltName", anchors: anchors, chain: [leaf(TestPKI.leafExtensions() + [("subjectAltName", "DNS:ds.example")])], takesOneHop: true, openSSL: .accepts),
            Case(
                name: "cRLDistributionPoints", anchors: anchors,
                chain: [leaf(TestPKI.leafExtensions() + [("crlDistributionPoints", "URI:https://crl.example/iaca.crl")])], takesOneHop: true, openSSL: .accepts),
            Case(name: "unknown non-critical extension", anchors: anchors, chain: [leaf(TestPKI.leafExtensions() + [("1.2.3.4", "DER:0500")])], takesOneHop: true, openSSL: .accepts),
            Case(name: "at the leaf's notBefore", anchors: anchors, chain: [innerLeaf], time: innerStart, takesOneHop: true, openSSL: .accepts),
            Case(
                name: "a second before the leaf's notAfter", anchors: anchors, chain: [innerLeaf], time: innerEnd - 1, takesOneHop: true,
                openSSL: .accepts),

            // Paths OpenSSL validates that the one-hop check leaves to it.
            Case(
                name: "two anchors of the same name", anchors: [sameNameRoot.certificate, root.certificate], chain: [validLeaf],
                openSSL: .accepts),
            Case(
                name: "authority key identifier naming the issuer", anchors: anchors,
                chain: [leaf(leafExtensions(replacing: "authorityKeyIdentifier", with: "keyid:always,issuer:always"))],
                openSSL: .accepts),

            // Validity at the validation time, of both certificates.
            Case(
                name: "leaf expired at its notAfter", anchors: anchors, chain: [innerLeaf], time: innerEnd,
                openSSL: .rejectsWith(X509_V_ERR_CERT_HAS_EXPIRED)),
            Case(
                name: "leaf not yet valid", anchors: anchors, chain: [innerLeaf], time: innerStart - 1,
                openSSL: .rejectsWith(X509_V_ERR_CERT_NOT_YET_VALID)),
            Case(
                name: "leaf not yet valid half a second before its notBefore", anchors: anchors, chain: [innerLeaf],
                time: innerStart - 0.5, openSSL: .rejectsWith(X509_V_ERR_CERT_NOT_YET_VALID)),
            Case(
                name: "anchor expired", anchors: anchors,
                chain: [leaf(notBefore: notBefore, notAfter: notAfter + 86_400)], time: notAfter + 10,
                openSSL: .rejectsWith(X509_V_ERR_CERT_HAS_EXPIRED)),

            // The signature by the anchor's key.
            Case(name: "tampered signature", anchors: anchors, chain: [try Certificate(derEncoded: tampered)], openSSL: .rejectsWith(X509_V_ERR_CERT_SIGNATURE_FAILURE)),
            Case(
                name: "signed by another key claiming the anchor's identifier", anchors: anchors,
                chain: [leaf(
                    leafExtensions(replacing: "authorityKeyIdentifier", with: "DER:30168014" + hex(rootKeyIdentifier)),
                    issuer: sameNameRoot)],
                openSSL: .rejectsWith(X509_V_ERR_CERT_SIGNATURE_FAILURE)),
            Case(
                name: "signature algorithm inside tbsCertificate differs", anchors: anchors,
                chain: [try patched(validLeaf.derRepresentation, ecdsaWithSHA256, ecdsaWithSHA256.dropLast() + [0x03])],
                openSSL: .rejectsWith(X509_V_ERR_SIGNATURE_ALGORITHM_INCONSISTENCY)),

            // The issuer: name, key identifiers, self-issued leaf.
            Case(name: "issued by another anchor of the same name", anchors: anchors, chain: [leaf(issuer: sameNameRoot)], openSSL: .rejects),
            Case(
                name: "authority key identifier of another key", anchors: anchors,
                chain: [leaf(leafExtensions(replacing: "authorityKeyIdentifier", with: foreignIdentifier))], openSSL: .rejects),
            Case(name: "self-issued leaf", anchors: anchors, chain: [leaf(name: "test iaca")]),
            Case(name: "chain with a certificate other than the anchor", anchors: anchors, chain: [validLeaf, intermediate.certificate]),

            // The leaf's extensions in strict mode.
            Case(
                name: "no authority key identifier", anchors: anchors,
                chain: [leaf(leafExtensions(replacing: "authorityKeyIdentifier", with: nil))],
                openSSL: .rejectsWith(X509_V_ERR_MISSING_AUTHORITY_KEY_IDENTIFIER)),
            Case(
                name: "unknown critical extension", anchors: anchors,
                chain: [leaf(TestPKI.leafExtensions() + [("1.2.3.4", "critical,DER:0500")])],
                openSSL: .rejectsWith(X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION)),
            Case(
                name: "critical subject key identifier", anchors: anchors,
                chain: [leaf(leafExtensions(replacing: "subjectKeyIdentifier", with: "critical,hash"))],
                openSSL: .rejectsWith(X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION)),
            Case(
                name: "critical authority key identifier", anchors: anchors,
                chain: [leaf(leafExtensions(replacing: "authorityKeyIdentifier", with: "critical,keyid:always"))],
                openSSL: .rejectsWith(X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION)),
            Case(
                name: "keyCertSign without basicConstraints", anchors: anchors,
                chain: [leaf(leafExtensions(replacing: "keyUsage", with: "critical,digitalSignature,keyCertSign"))],
                openSSL: .rejectsWith(X509_V_ERR_INVALID_CA)),
            Case(
                name: "keyCertSign in a non-CA", anchors: anchors,
                chain: [leaf(
                    leafExtensions(replacing: "keyUsage", with: "critical,digitalSignature,keyCertSign")
                        + [("basicConstraints", "critical,CA:FALSE")])],
                openSSL: .rejectsWith(X509_V_ERR_KU_KEY_CERT_SIGN_INVALID_FOR_NON_CA)),
            Case(
                name: "CA leaf without critical basicConstraints", anchors: anchors,
                chain: [leaf(TestPKI.leafExtensions() + [("basicConstraints", "CA:TRUE")])],
                openSSL: .rejectsWith(X509_V_ERR_CA_BCONS_NOT_CRITICAL)),
            Case(
                name: "pathLenConstraint in a non-CA", anchors: anchors,
                chain: [leaf(TestPKI.leafExtensions() + [("basicConstraints", "critical,DER:3003020101")])],
                openSSL: .rejectsWith(X509_V_ERR_PATHLEN_INVALID_FOR_NON_CA)),
            Case(
                name: "empty subjectAltName", anchors: anchors,
                chain: [leaf(TestPKI.leafExtensions() + [("subjectAltName", "DER:3000")])],
                openSSL: .rejectsWith(X509_V_ERR_EMPTY_SUBJECT_ALT_NAME)),
            Case(
                name: "keyUsage with no bit set", anchors: anchors,
                chain: [leaf(leafExtensions(replacing: "keyUsage", with: "critical,DER:030100"))], openSSL: .rejects),
            Case(
                name: "subjectAltName twice", anchors: anchors,
                chain: [leaf(TestPKI.leafExtensions() + [("subjectAltName", "DNS:a.example"), ("subjectAltName", "DNS:b.example")])],
                openSSL: .rejects),
            Case(
                name: "distribution point naming nothing", anchors: anchors,
                chain: [leaf(TestPKI.leafExtensions() + [("crlDistributionPoints", "DER:30023000")])], openSSL: .rejects),

            // The anchor.
            anchorCase("anchor without keyCertSign", rootExtensions(replacing: "keyUsage", with: "critical,cRLSign"), .rejects),
            anchorCase(
                "anchor without keyUsage", rootExtensions(replacing: "keyUsage", with: nil),
                .rejectsWith(X509_V_ERR_CA_CERT_MISSING_KEY_USAGE)),
            anchorCase(
                "anchor without critical basicConstraints", rootExtensions(replacing: "basicConstraints", with: "CA:TRUE,pathlen:0"),
                .rejectsWith(X509_V_ERR_CA_BCONS_NOT_CRITICAL)),
            anchorCase(
                "anchor that is not a CA", rootExtensions(replacing: "basicConstraints", with: "critical,CA:FALSE"),
                .rejectsWith(X509_V_ERR_INVALID_CA)),
            anchorCase(
                "anchor without subjectKeyIdentifier", rootExtensions(replacing: "subjectKeyIdentifier", with: nil),
                leafExtensions: leafExtensions(replacing: "authorityKeyIdentifier", with: nil),
                .rejectsWith(X509_V_ERR_MISSING_SUBJECT_KEY_IDENTIFIER)),
            anchorCase(
                "anchor with an unknown critical extension", TestPKI.rootExtensions() + [("1.2.3.4", "critical,DER:0500")],
                .rejectsWith(X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION)),
            anchorCase(
                "anchor that is not self-signed", TestPKI.rootExtensions() + [("authorityKeyIdentifier", foreignIdentifier)],
                .rejects),
            Case(
                name: "anchor not yet valid", anchors: [lateRoot.certificate], chain: [leaf(issuer: lateRoot)],
                time: notBefore + 10, openSSL: .rejectsWith(X509_V_ERR_CERT_NOT_YET_VALID)),
            Case(
                name: "anchor that is an intermediate", anchors: [intermediate.certificate], chain: [leaf(issuer: intermediate)],
                openSSL: .rejects),
        ]
    }

    @Test func theRulesAreThoseOfTheOpenSSLLoaded() {
        // The toolkit is built and tested with OpenSSL 3.0; on another series every chain goes
        // to X509_verify_cert, and the expectations of the one-hop cases below do not hold.
        #expect(OneHopPathValidation.restatesLoadedOpenSSL, "OpenSSL \(OPENSSL_version_major()).\(OPENSSL_version_minor()) is loaded")
    }

    @Test(arguments: try cases())
    func oneHopNeverAcceptsWhatOpenSSLRejects(_ path: Case) throws {
        let leaf = try #require(path.chain.first)
        let outcome = TrustStore(anchors: path.anchors).verify(
            leaf: leaf, intermediates: path.chain.dropFirst(), at: path.time,
            maximumIntermediates: CertificateChainValidator.maximumChainLength - 2)
        let codes = outcome.errors.map(\.code)
        let established = OneHopPathValidation(anchors: path.anchors).anchor(for: path.chain, at: path.time)
        #expect(established == nil || codes.isEmpty, "the one-hop check accepts a path OpenSSL rejects with \(codes)")
        #expect((established != nil) == path.takesOneHop, "one-hop check: \(established.map { "\($0)" } ?? "not established")")
        switch path.openSSL {
        case .accepts:
            #expect(codes.isEmpty, "OpenSSL reported \(codes)")
            #expect(outcome.chain.count == 2)
        case .rejects:
            #expect(!codes.isEmpty)
        case .rejectsWith(let error):
            #expect(codes.contains(error), "OpenSSL reported \(codes)")
        case .either:
            break
        }
    }

    @Test func validatorReportsTheOneHopPathAsOpenSSLDoes() throws {
        let validator = CertificateChainValidator(trustAnchors: Self.anchors)
        let fast = validator.validate(chain: [Self.validLeaf], profile: .documentSigner, at: TestPKI.referenceTime)
        // With the anchor twice more in the chain, OpenSSL builds the same path.
        let built = validator.validate(
            chain: [Self.validLeaf, Self.root.certificate, Self.root.certificate], profile: .documentSigner,
            at: TestPKI.referenceTime)
        #expect(fast.isValid, "\(fast)")
        #expect(fast.path == built.path)
        #expect(fast.passedChecks == built.passedChecks)
        #expect(fast.failures.isEmpty && built.failures.isEmpty)
    }
}
