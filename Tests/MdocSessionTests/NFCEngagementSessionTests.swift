import MdocCBOR
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

/// A session engaged over NFC (ISO/IEC 18013-5 8.2.2.1): the Handover Select goes into both
/// sides' SessionTranscript (9.1.5.1).
@Suite("HolderSession and ReaderSession engaged by NFC static handover (ISO/IEC 18013-5 8.2.2.1, 9.1.5.1)")
struct NFCEngagementSessionTests {
    @Test("holder and reader engaged by a static handover agree on its transcript; a holder not told of it cannot read the request")
    func staticHandoverSession() throws {
        let pki = try TestPKI()
        var holder = try HolderSession(
            credentials: [TestCredentials.mDL(pki: pki)], bleOptions: .offering(peripheralServerMode: true, centralClientMode: false))
        let options = try #require(holder.deviceEngagement.value.bleOptions)
        let shown = HandoverSelectMessage(
            deviceEngagement: Array(holder.deviceEngagement.bytes),
            carriers: [.bluetoothLE(try BluetoothLECarrier(options: options, sender: .mdoc))])
        let tapped = try HandoverSelectMessage(bytes: shown.bytes)
        var reader = try ReaderSession(
            engagement: try EmbeddedCBOR<DeviceEngagement>(bytes: tapped.deviceEngagement), handover: tapped.handover(request: nil),
            request: [HolderReaderSessionTests.mDLRequest(["age_over_18"])], trustAnchors: [pki.iaca], now: { Date() })
        guard case .send(let establishment) = try reader.start() else {
            Issue.record("the reader sent no SessionEstablishment")
            return
        }
        var unaware = holder
        try holder.engaged(through: Handover.nfc(handoverSelect: shown.bytes, handoverRequest: nil))

        guard case .requestReceived(let received) = holder.receive(establishment) else {
            Issue.record("the holder engaged by NFC did not read the request")
            return
        }
        #expect(received.sessionTranscript.taggedBytes == reader.sessionTranscript.taggedBytes)
        #expect(received.sessionTranscript.transcript.handover == Handover.nfc(handoverSelect: shown.bytes, handoverRequest: nil))
        guard case .sendAndFinish(_, .failed(let error)) = unaware.receive(establishment) else {
            Issue.record("a holder with the QR handover read a request bound to the NFC one")
            return
        }
        #expect(error.code == .decryptionFailed, "\(error)")
        #expect(throws: SessionError(.invalidState, "")) { try holder.engaged(through: Handover.qr) }
    }
}
