import MdocBLE
import MdocSession

/// What happens in a holder's session, for an application that shows progress (ISO/IEC 18013-5
/// 9.1.1.4 over 8.3.3.1.1).
public enum HolderEvent: Sendable {
    /// Waiting for a reader in these modes.
    case waiting([MdocBLEMode])
    /// A reader started a session in this BLE mode, or over NFC (`nil`, 8.3.3.1.2).
    case connected(MdocBLEMode?)
    /// The request is shown to the holder, who is deciding.
    case requested(PresentationRequest)
    /// The holder decided: these elements of the request are sent.
    case decided(PresentationRequest, ElementSelection)
    /// The response to the request, this many bytes, is being sent.
    case sending(bytes: Int)
    /// The reader ended the session, or left, before the holder decided: nothing was sent.
    case readerLeftDuringConsent(SessionOutcome)
    /// After the response the reader went quiet for the whole idle bound: the session ends
    /// normally, the link with State 0x02.
    case readerWentQuiet(LinkError)
}
