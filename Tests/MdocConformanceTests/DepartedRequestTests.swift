import MdocCBOR
import MdocCOSE
import MdocConformance
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestPeers
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The DeviceRequests the holder suite's runner sends in place of the one a session builds, read
/// back by the reader authentication verifier an mdoc would use (ISO/IEC 18013-5 9.1.4), under
/// the demo reader root and over the transcript of the session with the Annex D engagement.
@Suite struct DepartedRequestTests {
    static let specs = [DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["family_name": false, "age_over_18": false]])]

    /// The request `departure` makes with the demo reader's key, its EReaderKey's transcript,
    /// and what the verifier makes of it over that transcript.
    static func departed(
        _ departure: ScriptedSession.Departure, expired: (key: PrivateKey, chain: [Certificate])? = nil
    ) throws -> (request: DeviceRequest, report: RequestVerificationReport) {
        let runner = ConformanceRunner(
            trustAnchors: [try DemoMaterial.iaca()], program: "DepartedRequestTests", transport: "sim",
            readerAuthentication: try DemoMaterial.readerAuthentication(), expiredReaderAuthentication: expired)
        let engagement = try EmbeddedCBOR<DeviceEngagement>(bytes: AnnexD.bytes("device_engagement"))
        let eReaderKey = try PrivateKey(generating: .p256)
        let bytes = try #require(try runner.departedRequest(specs, departure: departure, engagement: engagement, eReaderKey: eReaderKey))
        // The transcript of the session the runner starts with this engagement and EReaderKey.
        let session = try ReaderSession(engagement: engagement, request: specs, trustAnchors: [], eReaderKey: eReaderKey, now: { Date() })
        let verifier = DeviceRequestVerifier(trustAnchors: [try DemoMaterial.certificate("reader-root.pem")])
        return (try DeviceRequest(encoded: bytes), try verifier.verify(bytes, sessionTranscript: session.sessionTranscript, at: Date()))
    }

    /// Expects `report` failed, each DocRequest's signature verifying and its reader
    /// certificate refused.
    static func expectFailedOnTheCertificateOnly(_ report: RequestVerificationReport) {
        #expect(report.outcome == .failed)
        for docRequest in report.docRequests {
            let checks = docRequest.readerAuthentication.checks
            #expect(checks.contains { check in
                guard check.kind == .readerSignature, case .passed = check.outcome else { return false }
                return true
            }, "\(checks)")
            #expect(checks.contains { check in
                guard check.kind == .readerCertificate, case .failed = check.outcome else { return false }
                return true
            }, "\(checks)")
        }
    }

    @Test func aRequestOfAnotherVersionWithAnUnknownKeyStaysSignedForThisSession() throws {
        let entry = CBORMap([CBORMap.Entry(key: .textString(ConformanceSuite.unknownRequestKey), value: .textString("RFU"))])
        let (request, report) = try Self.departed(.requestVersion(ConformanceSuite.unknownMinorVersion, additionalEntries: entry))
        #expect(request.version == "1.9")
        #expect(request.additionalEntries == entry)
        #expect(report.outcome == .authenticated, "\(report.failureSummary)")
    }

    /// requestInfo goes out in the ItemsRequestBytes as encoded (1.5 in half precision, the
    /// full-date tagged), and the signature covers those very bytes.
    @Test func aRequestWithRequestInfoIsSignedOverItsItemsRequestBytes() throws {
        let (request, report) = try Self.departed(.requestInfo(ConformanceSuite.requestInfoEntries))
        #expect(report.outcome == .authenticated, "\(report.failureSummary)")
        for docRequest in request.docRequests {
            #expect(docRequest.itemsRequest.value.requestInfo == ConformanceSuite.requestInfoEntries)
            let encoded = Array(docRequest.itemsRequest.bytes)
            #expect(encoded.windowCount(of: [0xF9, 0x3E, 0x00]) == 1, "\(encoded)")
            #expect(encoded.windowCount(of: [0xD9, 0x03, 0xEC]) == 1, "\(encoded)")
        }
    }

    @Test func readerAuthOverAnotherSessionsTranscriptFailsInThisOne() throws {
        let (request, report) = try Self.departed(.readerAuthOverOtherTranscript)
        #expect(request.docRequests.allSatisfy { $0.readerAuth != nil })
        #expect(report.outcome == .failed)
        #expect(report.failureSummary.contains { $0.contains("signature") }, "\(report.failureSummary)")
    }

    @Test func anAlteredReaderAuthSignatureFails() throws {
        let (request, report) = try Self.departed(.readerAuthSignatureAltered)
        #expect(request.docRequests.allSatisfy { $0.readerAuth != nil })
        #expect(report.outcome == .failed)
        #expect(report.failureSummary.contains { $0.contains("signature") }, "\(report.failureSummary)")
    }

    /// Signed as a reader of a root made for the request: the signature holds, the chain does
    /// not lead to a root the mdoc trusts.
    @Test func aRequestSignedAsAnUntrustedReaderFailsOnItsChain() throws {
        let (request, report) = try Self.departed(.readerAuthByUntrustedReader)
        #expect(request.docRequests.allSatisfy { $0.readerAuth?.x5chain.count == 2 })
        Self.expectFailedOnTheCertificateOnly(report)
    }

    /// Signed with a reader certificate of the demo reader root that expired a day ago: the
    /// signature holds, the certificate is refused.
    @Test func aRequestSignedWithAnExpiredReaderCertificateFailsOnIt() throws {
        let root = try DemoMaterial.certificate("reader-root.pem")
        let key = try PrivateKey(generating: .p256)
        let certificate = try CertificateBuilder(
            profile: .readerAuthentication, subject: .init(commonName: "conformance expired reader", country: "US"),
            notValidBefore: root.notValidBefore, notValidAfter: Date().addingTimeInterval(-86_400)
        ).issued(for: key.publicKey, by: root, signingKey: try DemoMaterial.privateKey("reader-root-key.pem"))
        let (request, report) = try Self.departed(.readerAuthByExpiredReader, expired: (key, [certificate]))
        #expect(request.docRequests.allSatisfy { $0.readerAuth?.x5chain == [certificate.derRepresentation] })
        Self.expectFailedOnTheCertificateOnly(report)
    }

    @Test func withoutAReaderKeyAReaderAuthenticationDepartureIsRefusedNotSentUnsigned() throws {
        let runner = ConformanceRunner(trustAnchors: [], program: "DepartedRequestTests", transport: "sim")
        let engagement = try EmbeddedCBOR<DeviceEngagement>(bytes: AnnexD.bytes("device_engagement"))
        for departure in [
            ScriptedSession.Departure.readerAuthOverOtherTranscript, .readerAuthSignatureAltered, .readerAuthByUntrustedReader,
            .requestInfo(ConformanceSuite.requestInfoEntries),
        ] {
            #expect(throws: SessionError.self) {
                try runner.departedRequest(Self.specs, departure: departure, engagement: engagement, eReaderKey: PrivateKey(generating: .p256))
            }
        }
    }

    @Test func departuresOfTheSessionLeaveTheRequestAsBuilt() throws {
        let runner = ConformanceRunner(trustAnchors: [], program: "DepartedRequestTests", transport: "sim")
        let engagement = try EmbeddedCBOR<DeviceEngagement>(bytes: AnnexD.bytes("device_engagement"))
        let departures: [ScriptedSession.Departure] = [
            .none, .alteredCiphertext, .replayedCiphertext, .eReaderKeyOnOtherCurve, .establishmentWithout(.eReaderKey), .establishmentWithout(.data),
        ]
        for departure in departures {
            #expect(try runner.departedRequest(Self.specs, departure: departure, engagement: engagement, eReaderKey: PrivateKey(generating: .p256)) == nil)
        }
    }
}

