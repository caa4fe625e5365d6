import MdocBLE

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What happens in a reader's session, for an application that shows progress (ISO/IEC 18013-5
/// 9.1.1.4 over 8.3.3.1.1).
public enum ReaderEvent: Sendable, Hashable {
    /// Looking for the mdoc's service in this mode.
    case connecting(MdocBLEMode, serviceUUID: UUID)
    /// The session started, with this ATT_MTU.
    case connected(mtu: Int)
    /// The request was sent, this many bytes.
    case requestSent(bytes: Int)
    /// The mdoc has the request and the holder is deciding what to release.
    case waitingForConsent
    /// A whole message carrying data arrived from the mdoc, this many bytes: the response,
    /// before it is decrypted and verified. A SessionData holding only a status (ISO/IEC 18013-5
    /// 9.1.1.4, such as 20 when the holder ends the session) is not one.
    case received(bytes: Int)
    /// After the response the mdoc went quiet for the whole idle bound: the session ends
    /// normally, the link with State 0x02.
    case mdocWentQuiet(LinkError)
}
