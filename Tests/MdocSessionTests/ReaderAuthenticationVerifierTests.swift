import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import Testing
import MdocTestSupport

@Suite("ReaderAuthenticationVerifier with a generated reader PKI (ISO/IEC 18013-5 9.1.4)")
struct ReaderAuthenticationVerifierTests {
    /// A reader root and a reader authentication certificate it issued, and a signed request.
    struct Reader {
        let root: Certificate
        let certificate: Certificate
        let key: PrivateKey
        let transcript: SessionTranscriptBinding
        let itemsRequest: EmbeddedCBOR<ItemsRequest>

        init(
            extendedKeyUsage: String = CertificateProfile.readerAuthenticationOID,
            keyUsage: String = "critical,digitalSignature"
        ) throws {
            let rootKey = try PrivateKey(generating: .p256)
            key = try PrivateKey(generating: .p256)
            root = try TestCertificateBuilder.issue(
                commonName: "test reader root", key: rootKey, issuer: nil,
                extensions: [
                    ("basicConstraints", "critical,CA:TRUE,pathlen:0"),
                    ("keyUsage", "critical,keyCertSign,cRLSign"),
                    ("subjectKeyIdentifier", "hash"),
                ])
            certificate = try TestCertificateBuilder.issue(
                commonName: "test reader", key: key, issuer: (root, rootKey),
                extensions: [
                    ("keyUsage", keyUsage),
                    ("extendedKeyUsage", "critical,\(extendedKeyUsage)"),
                    ("subjectKeyIdentifier", "hash"),
                    ("authorityKeyIdentifier", "keyid:always"),
                ])
            transcript = try TestMdoc.sessionTranscript()
            itemsRequest = EmbeddedCBOR(ItemsRequest(
                docType: TestMdoc.docType, nameSpaces: [TestMdoc.nameSpace: ["family_name": true, "portrait": false]]))
        }

        /// A DocRequest whose readerAuth signs ReaderAuthenticationBytes of `transcript` with `key`.
        func docRequest(signingKey: PrivateKey? = nil, transcript: SessionTranscriptBinding? = nil, x5chain: Bool = true) throws -> DocRequest {
            var headers = CBORMap()
            if x5chain {
                headers.append(CBOR(COSEHeaders.Label.x5chain), .byteString(certificate.derRepresentation))
            }
            let readerAuth = try COSESign1.sign(
                payload: (transcript ?? self.transcript).readerAuthenticationBytes(itemsRequestBytes: itemsRequest),
                detached: true, algorithm: .es256, key: signingKey ?? key, unprotectedHeaders: headers)
            // Through the encoding, as a reader receives it.
            return try DocRequest(encoded: DocRequest(itemsRequest: itemsRequest, readerAuth: readerAuth).encoded())
        }

        func verify(_ request: DocRequest, trusting anchors: [Certificate]? = nil) -> ReaderAuthenticationVerifier.Report {
            ReaderAuthenticationVerifier(trustAnchors: anchors ?? [root]).verify(request, sessionTranscript: transcript, at: TestPKI.referenceTime)
        }
    }

    @Test("a request signed by a trusted reader certificate is authenticated")
    func authenticated() throws {
        let reader = try Reader()
        let report = reader.verify(try reader.docRequest())
        #expect(report.isAuthenticated, "\(report.checks)")
        #expect(!report.isAnonymous)
        #expect(report.checks.map(\.kind) == [.readerCertificate, .readerSignature])
        #expect(report.readerCertificate == "CN=test reader, C=US")
        #expect(report.trustAnchor == "CN=test reader root, C=US")
    }

    @Test("a request without readerAuth is anonymous, not authenticated")
    func anonymous() throws {
        let reader = try Reader()
        let report = reader.verify(DocRequest(itemsRequest: reader.itemsRequest))
        #expect(report.isAnonymous)
        #expect(!report.isAuthenticated)
        #expect(report.readerCertificate == nil)
        #expect(report.checks.map(\.kind) == [.readerSignature])
    }

    @Test("a signature by another key fails the reader signature")
    func otherSigningKey() throws {
        let reader = try Reader()
        let report = reader.verify(try reader.docRequest(signingKey: PrivateKey(generating: .p256)))
        #expect(!report.isAuthenticated)
        #expect(report.checks.filter(\.failed).map(\.kind) == [.readerSignature])
    }

    @Test("a signature for another session fails the reader signature")
    func otherSession() throws {
        let reader = try Reader()
        let report = reader.verify(try reader.docRequest(transcript: TestMdoc.sessionTranscript()))
        #expect(!report.isAuthenticated)
        #expect(report.checks.filter(\.failed).map(\.kind) == [.readerSignature])
    }

    @Test("a reader certificate from an untrusted root fails the reader certificate")
    func untrustedRoot() throws {
        let reader = try Reader()
        let report = reader.verify(try reader.docRequest(), trusting: [try Reader().root])
        #expect(!report.isAuthenticated)
        #expect(report.trustAnchor == nil)
        #expect(report.checks.contains { $0.kind == .readerCertificate && $0.failed })
        #expect(report.checks.last?.kind == .readerSignature)
        #expect(report.checks.last?.passed == true)
    }

    @Test("a certificate with the document signer EKU fails the reader profile")
    func wrongExtendedKeyUsage() throws {
        let reader = try Reader(extendedKeyUsage: CertificateProfile.documentSignerOID)
        let report = reader.verify(try reader.docRequest())
        #expect(!report.isAuthenticated)
        let failed = report.checks.filter(\.failed)
        #expect(failed.map(\.kind) == [.readerCertificate], "\(report.checks)")
        #expect(failed.first?.failureReason?.contains("extendedKeyUsage") == true)
    }

    @Test("a readerAuth without x5chain fails the reader certificate")
    func noCertificate() throws {
        let reader = try Reader()
        let report = reader.verify(try reader.docRequest(x5chain: false))
        #expect(!report.isAuthenticated)
        #expect(!report.isAnonymous)
        #expect(report.checks.map(\.kind) == [.readerCertificate])
        #expect(report.checks.first?.failed == true)
    }
}
