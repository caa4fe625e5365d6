import MdocBLE
import MdocModel
import MdocNFC
import MdocSession

extension MdocHolder.Engagement {
    /// The Handover Select message of static handover (ISO/IEC 18013-5 8.2.2.1): the
    /// DeviceEngagement and a BLE carrier record for each mode the engagement offers, with its
    /// service UUID.
    public var handoverSelect: HandoverSelectMessage { driver.handoverSelect }

    /// An NDEF Type 4 Tag application offering this engagement to a reader that taps
    /// (8.2.2.1), for an `NFCCard` (a phone's card emulation, or a virtual card through vpcd).
    /// The session puts the handover the reader made with it, byte for byte, into its
    /// SessionTranscript (9.1.5.1); without a tap it stays the QR code's.
    ///
    /// With `retrieval` (the data retrieval application of the same card), the Handover Select
    /// also offers NFC data retrieval (8.3.3.1.2), and ``run(over:)`` serves a reader that
    /// starts the session there as one that connects over BLE.
    public mutating func tag(_ mode: NFCHandoverMode, retrieval: NFCDataTransferApplication? = nil) -> NDEFTagApplication {
        driver.tag(mode, retrieval: retrieval)
    }
}

extension MdocHolder {
    /// Presents over `radio` to the next reader in a new engagement offered both ways: gives
    /// its `mdoc:` URI (to draw as a QR code) and its NFC tag (``Engagement/tag(_:retrieval:)``, for a
    /// card a reader taps) to `offer` before waiting for the reader, and runs the session with
    /// the handover of whichever way the reader came (ISO/IEC 18013-5 8.2.2); with `retrieval`,
    /// over NFC when the reader retrieves through the card (``Engagement/tag(_:retrieval:)``).
    ///
    /// - Throws: `SessionError` when the BLE options offer no usable mode (``engagement()``);
    ///   everything after that is in the result.
    public func present(
        over radio: any MdocRadio, handover mode: NFCHandoverMode, retrieval: NFCDataTransferApplication? = nil,
        offering offer: @Sendable (MdocURI, NDEFTagApplication) -> Void
    ) async throws(SessionError) -> HolderSessionResult {
        var engagement = try engagement()
        offer(engagement.uri, engagement.tag(mode, retrieval: retrieval))
        return await engagement.run(over: radio)
    }
}
