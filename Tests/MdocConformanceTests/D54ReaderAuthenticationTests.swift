import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import Testing

@Suite("ISO/IEC 18013-5 Annex D.5.4: mdoc reader authentication")
struct D54ReaderAuthenticationTests {
    @Test("D.5.4 ReaderAuthenticationBytes are built around the received transcript and ItemsRequestBytes")
    func readerAuthenticationBytes() throws {
        let docRequest = try AnnexD.docRequest()
        for name in ["session_transcript_bytes", "session_transcript"] {
            let binding = try SessionTranscriptBinding(encoded: AnnexD.bytes(name))
            #expect(binding.readerAuthenticationBytes(itemsRequestBytes: docRequest.itemsRequest)
                == AnnexD.bytes("reader_authentication_bytes"), "\(name)")
        }
    }

    @Test("D.5.4 the readerAuth Sig_structure, and the signature with the reader certificate key")
    func sigStructure() throws {
        let readerAuth = try #require(try AnnexD.docRequest().readerAuth)
        let payload = AnnexD.bytes("reader_authentication_bytes")
        #expect(readerAuth.toBeSigned(detachedPayload: payload) == AnnexD.bytes("reader_auth_sig_structure"))
        let readerCertificate = try AnnexD.certificate("reader_cert")
        #expect(readerAuth.isValidSignature(publicKey: readerCertificate.publicKey, detachedPayload: payload))
    }

    @Test("D.5.4 ReaderAuthenticationVerifier authenticates the reader at 2021-01-01T00:00:00Z")
    func authenticatesAtValidTime() throws {
        let report = try Self.verifier().verify(AnnexD.docRequest(), sessionTranscript: AnnexD.transcript(), at: AnnexD.validTime)
        #expect(report.isAuthenticated, "\(report.checks)")
        #expect(!report.isAnonymous)
        #expect(report.checks.map(\.kind) == [.readerCertificate, .readerSignature])
        #expect(report.readerCertificate == "CN=reader")
        #expect(report.trustAnchor == "CN=reader root")
    }

    @Test("D.5.4 at 2026-11-21T00:00:00Z the expired \"CN=reader\" certificate fails reader authentication")
    func failsWhenReaderCertificateExpired() throws {
        let report = try Self.verifier().verify(AnnexD.docRequest(), sessionTranscript: AnnexD.transcript(), at: AnnexD.laterTime)
        #expect(!report.isAuthenticated)
        #expect(!report.isAnonymous)
        let failed = report.checks.filter(\.failed)
        #expect(failed.count == 1, "\(report.checks)")
        let check = try #require(failed.first)
        #expect(check.kind == .readerCertificate)
        #expect(check.subject == .certificate(try AnnexD.certificate("reader_cert")))
        #expect(check.failureReason?.contains("validity") == true, "\(check)")
        #expect(check.failureReason?.contains("expired") == true, "\(check)")
        // The signature itself still verifies over this session's bytes.
        #expect(report.checks.last?.kind == .readerSignature)
        #expect(report.checks.last?.passed == true)
    }

    @Test("D.5.4 the readerAuth does not verify for another session's transcript")
    func failsForAnotherTranscript() throws {
        let transcript = SessionTranscriptBinding(SessionTranscript(
            deviceEngagementBytes: try EmbeddedCBOR(bytes: AnnexD.bytes("device_engagement")),
            eReaderKeyBytes: try EmbeddedCBOR(cbor: CBOR.decode(AnnexD.bytes("e_reader_key_bytes")), at: .root),
            handover: .qr))
        let report = try Self.verifier().verify(AnnexD.docRequest(), sessionTranscript: transcript, at: AnnexD.validTime)
        #expect(!report.isAuthenticated)
        #expect(report.checks.first { $0.kind == .readerCertificate }?.passed == true)
        #expect(report.checks.first { $0.kind == .readerSignature }?.failed == true)
    }

    static func verifier() throws -> ReaderAuthenticationVerifier {
        ReaderAuthenticationVerifier(trustAnchors: [try AnnexD.certificate("reader_root_cert")])
    }
}
