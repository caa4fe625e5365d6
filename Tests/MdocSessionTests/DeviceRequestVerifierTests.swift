import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("DeviceRequestVerifier: reader authentication of a stored request (ISO/IEC 18013-5 9.1.4)")
struct DeviceRequestVerifierTests {
    static let time = Date(timeIntervalSince1970: 1_609_459_200)  // 2021-01-01T00:00:00Z

    static func annexDReport(trusting root: String = "reader_root_cert", transcript: [UInt8] = Vectors.annexD("session_transcript_bytes")) throws -> RequestVerificationReport {
        let verifier = DeviceRequestVerifier(trustAnchors: [try Certificate(derEncoded: Vectors.annexD(root))])
        return try verifier.verify(
            Vectors.annexD("device_request"), sessionTranscript: SessionTranscriptBinding(encoded: transcript), at: time)
    }

    @Test("the Annex D request: the chain, every certificate check, the signature and the items")
    func annexD() throws {
        let report = try Self.annexDReport()
        #expect(report.outcome == .authenticated)
        #expect(report.version == "1.0")
        let document = try #require(report.docRequests.first)
        #expect(document.itemsRequest.docType == DocType.mDL)
        #expect(document.itemsRequest.nameSpaces[NameSpace.mDL]?["portrait"] == false)
        let authentication = document.readerAuthentication
        #expect(authentication.certificateChain.map(\.subject) == ["CN=reader"])
        let validation = try #require(authentication.chainValidation)
        #expect(validation.isValid)
        #expect(validation.path.map(\.subject) == ["CN=reader", "CN=reader root"])
        #expect(authentication.identity == .trusted(subject: "CN=reader", anchor: "CN=reader root"))
        #expect(report.failureSummary.isEmpty)
    }

    @Test("an untrusted root keeps the chain and names the failed check")
    func untrusted() throws {
        let report = try Self.annexDReport(trusting: "iaca_cert")
        #expect(report.outcome == .failed)
        let authentication = try #require(report.docRequests.first?.readerAuthentication)
        #expect(authentication.certificateChain.count == 1)
        #expect(authentication.chainValidation?.failures.contains { $0.check == .issuerNotTrusted } == true)
        #expect(report.failureSummary.first?.hasPrefix("docRequests[0] (org.iso.18013.5.1.mDL): ") == true)
    }

    @Test("a request without readerAuth is anonymous, and one failure outweighs it")
    func anonymous() throws {
        let itemsRequest = EmbeddedCBOR(ItemsRequest(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["family_name": false]]))
        let signed = try DeviceRequest(encoded: Vectors.annexD("device_request"))
        let verifier = DeviceRequestVerifier(trustAnchors: [try Certificate(derEncoded: Vectors.annexD("iaca_cert"))])
        let binding = try SessionTranscriptBinding(encoded: Vectors.annexD("session_transcript_bytes"))
        let anonymous = verifier.verify(DeviceRequest(docRequests: [DocRequest(itemsRequest: itemsRequest)]), sessionTranscript: binding, at: Self.time)
        #expect(anonymous.outcome == .anonymous)
        let mixed = verifier.verify(
            DeviceRequest(docRequests: [DocRequest(itemsRequest: itemsRequest)] + signed.docRequests), sessionTranscript: binding, at: Self.time)
        #expect(mixed.docRequests.map(\.outcome) == [.anonymous, .failed])
        #expect(mixed.outcome == .failed)
    }
}
