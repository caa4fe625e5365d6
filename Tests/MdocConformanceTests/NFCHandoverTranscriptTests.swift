import MdocCBOR
import MdocCrypto
import MdocModel
import MdocNFC
import MdocSession
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The SessionTranscript of an NFC engagement (ISO/IEC 18013-5 9.1.5.1, Annex D.4.2.1):
/// `[DeviceEngagementBytes, EReaderKeyBytes, [HandoverSelect, HandoverRequest]]` with both
/// messages as exchanged, byte for byte.
@Suite("The SessionTranscript of an NFC engagement (ISO/IEC 18013-5 9.1.5.1)")
struct NFCHandoverTranscriptTests {
    @Test("a reader engaged by Annex D's Handover Select and Request builds Annex D's SessionTranscript")
    func annexDTranscript() throws {
        let select = try HandoverSelectMessage(bytes: AnnexD.bytes("nfc_handover_select"))
        let request = try HandoverRequestMessage(bytes: AnnexD.bytes("nfc_handover_request"))
        let engagement = try EmbeddedCBOR<DeviceEngagement>(bytes: select.deviceEngagement)
        let session = try ReaderSession(
            engagement: engagement, handover: select.handover(request: request), request: [DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["age_over_18": false]])],
            trustAnchors: [],
            eReaderKey: try AnnexD.privateKey("eReaderKey"), now: { Date() })

        #expect(session.sessionTranscript.taggedBytes == AnnexD.bytes("session_transcript_bytes"))
    }
}
