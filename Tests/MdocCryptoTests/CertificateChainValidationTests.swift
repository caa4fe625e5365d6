import COpenSSL
import MdocCrypto
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("Certificate chain validation (RFC 5280 section 6, ISO/IEC 18013-5 Annex B profiles)")
struct CertificateChainValidationTests {
    /// 2021-01-01T00:00:00Z: every Annex D certificate is valid (vectors README section 1).
    static let annexDTime = Date(timeIntervalSince1970: 1_609_459_200)
    /// 2026-11-21T00:00:00Z: the DS certificate has expired, the IACA has not.
    static let later = Date(timeIntervalSince1970: 1_795_219_200)

    static func annexD(_ name: String) throws -> Certificate {
        try Certificate(derEncoded: Vectors.annexD(name))
    }

    /// The (certificate, check) pairs of the failures.
    static func failed(_ result: CertificateValidationResult) -> [String] {
        result.failures.map { "\($0.certificate?.subject ?? "chain"): \($0.check)" }
    }

    // MARK: Annex D chains

    @Test func documentSignerChainsToIACA() throws {
        let ds = try Self.annexD("ds_cert")
        let iaca = try Self.annexD("iaca_cert")
        let validator = CertificateChainValidator(trustAnchors: [iaca])
        for chain in [[ds], [ds, iaca]] {
            let result = validator.validate(chain: chain, profile: .documentSigner, at: Self.annexDTime)
            #expect(result.isValid, "\(result)")
            #expect(result.failures.isEmpty)
            #expect(result.validatedPath == [ds, iaca])
            #expect(result.validatedLeaf == ds)
        }
    }

    @Test func everyCheckIsListedForAValidChain() throws {
        let ds = try Self.annexD("ds_cert")
        let iaca = try Self.annexD("iaca_cert")
        let result = CertificateChainValidator(trustAnchors: [iaca])
            .validate(chain: [ds], profile: .documentSigner, at: Self.annexDTime)
        let passed = Set(result.passedChecks.map { "\($0.certificate.subject): \($0.check)" })
        let dsChecks = [
            "validity", "keyUsage", "extendedKeyUsage", "basicConstraints", "keyIdentifiers", "signatureAlgorithm",
            "criticalExtension", "chainTooLong", "issuerNotTrusted", "signature",
        ].map { "CN=utopia ds, C=US: \($0)" }
        let iacaChecks = [
            "validity", "basicConstraints", "pathLength", "keyUsage", "keyIdentifiers", "signatureAlgorithm",
            "criticalExtension",
        ].map { "CN=utopia iaca, C=US: \($0)" }
        #expect(passed == Set(dsChecks + iacaChecks))
        #expect(result.passedChecks.count == passed.count)
        let validity = result.passedChecks.first { $0.check == .validity }
        #expect(validity?.description == "certificate \"CN=utopia ds, C=US\": validity: ok, valid at 2021-01-01T00:00:00Z")
        // Each finding, kept as values while validating, in the words it is read in.
        let details = result.passedChecks.map { "\($0.certificate.commonName ?? ""): \($0.check): \($0.detail)" }
        #expect(details.sorted() == [
            "utopia ds: basicConstraints: not a CA",
            "utopia ds: chainTooLong: the path holds 2 of at most 4 certificates",
            "utopia ds: criticalExtension: every critical extension is handled",
            "utopia ds: extendedKeyUsage: extendedKeyUsage has 1.0.18013.5.1.2",
            "utopia ds: issuerNotTrusted: the path ends at the trust anchor \"CN=utopia iaca, C=US\"",
            "utopia ds: keyIdentifiers: subjectKeyIdentifier present, authorityKeyIdentifier matches the issuer",
            "utopia ds: keyUsage: keyUsage has digitalSignature",
            "utopia ds: signature: signed by \"CN=utopia iaca, C=US\"",
            "utopia ds: signatureAlgorithm: ecdsa-with-SHA256",
            "utopia ds: validity: valid at 2021-01-01T00:00:00Z",
            "utopia iaca: basicConstraints: cA is true",
            "utopia iaca: criticalExtension: every critical extension is handled",
            "utopia iaca: keyIdentifiers: subjectKeyIdentifier present",
            "utopia iaca: keyUsage: keyUsage has keyCertSign, cRLSign",
            "utopia iaca: pathLength: pathLenConstraint 0 permits 0 intermediate CA certificates",
            "utopia iaca: signatureAlgorithm: ecdsa-with-SHA256",
            "utopia iaca: validity: valid at 2021-01-01T00:00:00Z",
        ])
    }

    @Test func expiredDocumentSignerIsNamed() throws {
        let ds = try Self.annexD("ds_cert")
        let iaca = try Self.annexD("iaca_cert")
        let result = CertificateChainValidator(trustAnchors: [iaca])
            .validate(chain: [ds], profile: .documentSigner, at: Self.later)
        #expect(!result.isValid)
        #expect(result.validatedPath == nil)
        #expect(result.path == [ds, iaca])
        #expect(Self.failed(result) == ["CN=utopia ds, C=US: validity"])
        #expect(
            result.failures.first?.description
                == "certificate \"CN=utopia ds, C=US\": validity: expired on 2021-10-01T00:00:00Z (checked at 2026-11-21T00:00:00Z)"
        )
        #expect(result.passedChecks.contains { $0.certificate == iaca && $0.check == .validity })
    }

    @Test func notYetValidNamesEveryCertificate() throws {
        let ds = try Self.annexD("ds_cert")
        let iaca = try Self.annexD("iaca_cert")
        let result = CertificateChainValidator(trustAnchors: [iaca])
            .validate(chain: [ds], profile: .documentSigner, at: Date(timeIntervalSince1970: 1_577_836_800))
        #expect(Self.failed(result) == ["CN=utopia ds, C=US: validity", "CN=utopia iaca, C=US: validity"])
        #expect(result.failures.first?.reason == "not valid before 2020-10-01T00:00:00Z (checked at 2020-01-01T00:00:00Z)")
    }

    @Test func validityBoundaries() throws {
        let ds = try Self.annexD("ds_cert")
        let validator = CertificateChainValidator(trustAnchors: [try Self.annexD("iaca_cert")])
        // notBefore is the first valid second (both certificates start 2020-10-01T00:00:00Z).
        #expect(validator.validate(chain: [ds], profile: .documentSigner, at: ds.notValidBefore).isValid)
        let before = validator.validate(chain: [ds], profile: .documentSigner, at: ds.notValidBefore - 1)
        #expect(Self.failed(before) == ["CN=utopia ds, C=US: validity", "CN=utopia iaca, C=US: validity"])
        // notAfter is the first expired second, as OpenSSL's X509_cmp_time decides.
        #expect(validator.validate(chain: [ds], profile: .documentSigner, at: ds.notValidAfter - 1).isValid)
        let after = validator.validate(chain: [ds], profile: .documentSigner, at: ds.notValidAfter)
        #expect(Self.failed(after) == ["CN=utopia ds, C=US: validity"])
        #expect(after.failures.first?.reason == "expired on 2021-10-01T00:00:00Z (checked at 2021-10-01T00:00:00Z)")
    }

    @Test func readerCertificateChainsToReaderRoot() throws {
        let reader = try Self.annexD("reader_cert")
        let root = try Self.annexD("reader_root_cert")
        let result = CertificateChainValidator(trustAnchors: [root])
            .validate(chain: [reader], profile: .readerAuthentication, at: Self.annexDTime)
        #expect(result.isValid, "\(result)")
        #expect(result.validatedPath == [reader, root])
    }

    @Test func documentSignerIsNotAReaderCertificate() throws {
        let ds = try Self.annexD("ds_cert")
        let result = CertificateChainValidator(trustAnchors: [try Self.annexD("iaca_cert")])
            .validate(chain: [ds], profile: .readerAuthentication, at: Self.annexDTime)
        #expect(Self.failed(result) == ["CN=utopia ds, C=US: extendedKeyUsage"])
        #expect(result.failures.first?.reason.contains("1.0.18013.5.1.6") == true)
    }

    @Test func readerCertificateIsNotADocumentSigner() throws {
        let result = CertificateChainValidator(trustAnchors: [try Self.annexD("reader_root_cert")])
            .validate(chain: [try Self.annexD("reader_cert")], profile: .documentSigner, at: Self.annexDTime)
        #expect(Self.failed(result) == ["CN=reader: extendedKeyUsage"])
    }

    @Test func documentSignerUnderTheWrongRootIsNotTrusted() throws {
        let ds = try Self.annexD("ds_cert")
        let result = CertificateChainValidator(trustAnchors: [try Self.annexD("reader_root_cert")])
            .validate(chain: [ds], profile: .documentSigner, at: Self.annexDTime)
        #expect(Self.failed(result) == ["CN=utopia ds, C=US: issuerNotTrusted"])
        #expect(result.path == [ds])
        #expect(result.failures.first?.reason.contains("CN=utopia iaca, C=US") == true)
    }

    @Test func noTrustAnchorsTrustsNothing() throws {
        let ds = try Self.annexD("ds_cert")
        let iaca = try Self.annexD("iaca_cert")
        let result = CertificateChainValidator(trustAnchors: [])
            .validate(chain: [ds, iaca], profile: .documentSigner, at: Self.annexDTime)
        #expect(Self.failed(result) == ["CN=utopia iaca, C=US: issuerNotTrusted"], "\(result)")
        #expect(result.path == [ds, iaca])
    }

    @Test func jwsSignerIsNotADocumentSigner() throws {
        let jws = try Self.annexD("server_retrieval_jws_signer_cert")
        let result = CertificateChainValidator(trustAnchors: [try Self.annexD("iaca_cert")])
            .validate(chain: [jws], profile: .documentSigner, at: Self.annexDTime)
        #expect(Self.failed(result) == ["CN=utopia jws, C=US: extendedKeyUsage"])
        #expect(result.failures.first?.reason.contains("[1.0.18013.5.1.3]") == true)
    }

    @Test func tamperedSignatureFails() throws {
        var bytes = Vectors.annexD("ds_cert")
        bytes[bytes.count - 10] ^= 0x01
        let tampered = try Certificate(derEncoded: bytes)
        let result = CertificateChainValidator(trustAnchors: [try Self.annexD("iaca_cert")])
            .validate(chain: [tampered], profile: .documentSigner, at: Self.annexDTime)
        #expect(Self.failed(result) == ["CN=utopia ds, C=US: signature"])
    }

    @Test func trustAnchorIsNotADocumentSigner() throws {
        let iaca = try Self.annexD("iaca_cert")
        let result = CertificateChainValidator(trustAnchors: [iaca])
            .validate(chain: [iaca], profile: .documentSigner, at: Self.annexDTime)
        #expect(
            Self.failed(result)
                == ["keyUsage", "extendedKeyUsage", "basicConstraints", "keyIdentifiers"].map { "CN=utopia iaca, C=US: \($0)" }
        )
    }

    @Test func emptyChainFails() {
        let result = CertificateChainValidator(trustAnchors: [])
            .validate(chain: [], profile: .documentSigner, at: Self.annexDTime)
        #expect(!result.isValid)
        #expect(result.failures.map(\.check) == [.emptyChain])
        #expect(result.failures.first?.description == "chain: emptyChain: the chain holds no certificate")
    }

    // MARK: Generated profile violations

    static func validate(_ leaf: TestCredential, _ intermediates: [TestCredential] = [], root: TestCredential) -> CertificateValidationResult {
        CertificateChainValidator(trustAnchors: [root.certificate]).validate(
            chain: [leaf.certificate] + intermediates.map(\.certificate), profile: .documentSigner, at: TestPKI.referenceTime
        )
    }

    @Test func generatedDocumentSignerIsValid() {
        let root = TestPKI.root()
        let ds = TestPKI.issue("test ds", issuer: root, extensions: TestPKI.leafExtensions())
        let result = Self.validate(ds, root: root)
        #expect(result.isValid, "\(result)")
    }

    @Test func documentSignerWithoutDigitalSignatureFails() {
        let root = TestPKI.root()
        var extensions = TestPKI.leafExtensions()
        extensions[0] = ("keyUsage", "critical,keyAgreement")
        let ds = TestPKI.issue("test ds", issuer: root, extensions: extensions)
        let result = Self.validate(ds, root: root)
        #expect(Self.failed(result) == ["CN=test ds, C=US: keyUsage"])
        #expect(result.failures.first?.reason == "keyUsage (keyAgreement) lacks digitalSignature (document signer)")
    }

    @Test func documentSignerThatIsACAFails() {
        let root = TestPKI.root()
        let ds = TestPKI.issue(
            "test ds", issuer: root, extensions: TestPKI.leafExtensions() + [("basicConstraints", "critical,CA:TRUE")]
        )
        #expect(Self.failed(Self.validate(ds, root: root)) == ["CN=test ds, C=US: basicConstraints"])
    }

    @Test func documentSignerWithoutAuthorityKeyIdentifierFails() {
        let root = TestPKI.root()
        let ds = TestPKI.issue("test ds", issuer: root, extensions: Array(TestPKI.leafExtensions().dropLast()))
        #expect(ds.certificate.authorityKeyIdentifier == nil)
        let result = Self.validate(ds, root: root)
        #expect(Self.failed(result) == ["CN=test ds, C=US: keyIdentifiers"])
    }

    @Test func unknownCriticalExtensionFails() {
        let root = TestPKI.root()
        let ds = TestPKI.issue(
            "test ds", issuer: root, extensions: TestPKI.leafExtensions() + [("1.2.3.4", "critical,DER:0500")]
        )
        #expect(ds.certificate.criticalExtensionOIDs.contains("1.2.3.4"))
        let result = Self.validate(ds, root: root)
        #expect(Self.failed(result) == ["CN=test ds, C=US: criticalExtension"])
    }

    @Test func signatureAlgorithmOutsideAnnexBFails() {
        let root = TestPKI.root()
        let ds = TestPKI.issue("test ds", issuer: root, extensions: TestPKI.leafExtensions(), digest: EVP_sha224())
        let result = Self.validate(ds, root: root)
        #expect(Self.failed(result) == ["CN=test ds, C=US: signatureAlgorithm"])
        #expect(result.failures.first?.reason.hasPrefix("ecdsa-with-SHA224 (1.2.840.10045.4.3.1)") == true)
    }

    @Test func iacaWithoutKeyCertSignFails() {
        var extensions = TestPKI.rootExtensions()
        extensions[1] = ("keyUsage", "critical,cRLSign")
        let root = TestPKI.root(extensions: extensions)
        let ds = TestPKI.issue("test ds", issuer: root, extensions: TestPKI.leafExtensions())
        let result = Self.validate(ds, root: root)
        #expect(Self.failed(result) == ["CN=test iaca, C=US: keyUsage"], "\(result)")
        #expect(result.failures.first?.reason == "keyUsage (cRLSign) lacks keyCertSign (IACA)")
    }

    @Test func iacaWithoutPathLengthConstraintFails() {
        let root = TestPKI.root(extensions: [("basicConstraints", "critical,CA:TRUE")] + TestPKI.rootExtensions().dropFirst())
        let ds = TestPKI.issue("test ds", issuer: root, extensions: TestPKI.leafExtensions())
        #expect(Self.failed(Self.validate(ds, root: root)) == ["CN=test iaca, C=US: pathLength"])
    }

    @Test func iacaPathLengthZeroRejectsAnIntermediate() {
        let root = TestPKI.root()
        let intermediate = TestPKI.issue("test intermediate", issuer: root, extensions: TestPKI.intermediateExtensions)
        let ds = TestPKI.issue("test ds", issuer: intermediate, extensions: TestPKI.leafExtensions())
        let result = Self.validate(ds, [intermediate], root: root)
        #expect(Self.failed(result) == ["CN=test iaca, C=US: pathLength"], "\(result)")
        #expect(result.path.map(\.commonName) == ["test ds", "test intermediate", "test iaca"])
    }

    @Test func everyFailureIsReported() {
        let root = TestPKI.root()
        let ds = TestPKI.issue(
            "test ds", issuer: root,
            extensions: [
                ("keyUsage", "critical,keyAgreement"), ("extendedKeyUsage", "critical,1.0.18013.5.1.3"),
                ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
            ],
            notAfter: Date(timeIntervalSince1970: 1_600_000_000)
        )
        let result = Self.validate(ds, root: root)
        #expect(
            Set(Self.failed(result))
                == ["CN=test ds, C=US: validity", "CN=test ds, C=US: keyUsage", "CN=test ds, C=US: extendedKeyUsage"]
        )
    }

    @Test func certificatesSharingANameKeepTheirOwnChecks() {
        var rootExtensions = TestPKI.rootExtensions()
        rootExtensions[1] = ("keyUsage", "critical,cRLSign")
        let root = TestPKI.root("same name", extensions: rootExtensions)
        var leafExtensions = TestPKI.leafExtensions()
        leafExtensions[0] = ("keyUsage", "critical,keyAgreement")
        let ds = TestPKI.issue("same name", issuer: root, extensions: leafExtensions)
        #expect(ds.certificate.subject == root.certificate.subject)
        let result = Self.validate(ds, root: root)
        let keyUsage = result.failures.filter { $0.check == .keyUsage }
        #expect(keyUsage.map(\.certificate) == [ds.certificate, root.certificate], "\(result)")
        #expect(keyUsage.map(\.reason) == [
            "keyUsage (keyAgreement) lacks digitalSignature (document signer)", "keyUsage (cRLSign) lacks keyCertSign (IACA)",
        ])
        #expect(result.passedChecks.contains { $0.certificate == root.certificate && $0.check == .basicConstraints })
        #expect(!result.passedChecks.contains { $0.check == .keyUsage })
    }

    // MARK: Chain length limit

    /// A root with `pathLength`, `intermediates` CA certificates below it and a leaf under the last.
    static func chain(intermediates count: Int, rootPathLength: Int) -> (leaf: TestCredential, intermediates: [TestCredential], root: TestCredential) {
        let root = TestPKI.root(extensions: TestPKI.rootExtensions(pathLength: rootPathLength))
        var intermediates: [TestCredential] = []
        for index in 0..<count {
            let issuer = intermediates.last ?? root
            intermediates.append(TestPKI.issue("test intermediate \(index)", issuer: issuer, extensions: TestPKI.intermediateExtensions))
        }
        let leaf = TestPKI.issue("test ds", issuer: intermediates.last ?? root, extensions: TestPKI.leafExtensions())
        return (leaf, intermediates.reversed(), root)
    }

    @Test func pathOfMaximumLengthIsValid() {
        let pki = Self.chain(intermediates: CertificateChainValidator.maximumChainLength - 2, rootPathLength: 5)
        let withRoot = Self.validate(pki.leaf, pki.intermediates + [pki.root], root: pki.root)
        #expect(withRoot.isValid, "\(withRoot)")
        #expect(withRoot.path.count == CertificateChainValidator.maximumChainLength)
        #expect(Self.validate(pki.leaf, pki.intermediates, root: pki.root).isValid)
    }

    @Test func pathOneLongerThanTheMaximumFails() {
        let pki = Self.chain(intermediates: CertificateChainValidator.maximumChainLength - 1, rootPathLength: 5)
        let result = Self.validate(pki.leaf, pki.intermediates, root: pki.root)
        #expect(Self.failed(result) == ["CN=test ds, C=US: chainTooLong"], "\(result)")
        #expect(result.path.count == CertificateChainValidator.maximumChainLength)
    }

    @Test func chainLongerThanTheMaximumIsRejectedBeforePathBuilding() {
        let pki = Self.chain(intermediates: CertificateChainValidator.maximumChainLength - 1, rootPathLength: 5)
        let result = Self.validate(pki.leaf, pki.intermediates + [pki.root], root: pki.root)
        #expect(Self.failed(result) == ["CN=test ds, C=US: chainTooLong"])
        #expect(result.failures.first?.reason == "the chain holds 5 certificates, more than the maximum 4")
    }

    // MARK: Concurrency

    @Test func validatorIsUsableConcurrently() async throws {
        let ds = try Self.annexD("ds_cert")
        let validator = CertificateChainValidator(trustAnchors: [try Self.annexD("iaca_cert")])
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let time = index.isMultiple(of: 2) ? Self.annexDTime : Self.later
                    return validator.validate(chain: [ds], profile: .documentSigner, at: time).isValid
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 8)
    }
}
