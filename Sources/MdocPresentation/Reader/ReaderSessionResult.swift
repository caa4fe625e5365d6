import MdocBLE
import MdocModel
import MdocSession

/// What a reader's session came to: the verified response, if one arrived, and how the session
/// ended (ISO/IEC 18013-5 9.1.1.4).
public struct ReaderSessionResult: Sendable {
    /// How the session ended.
    public var end: LiveSessionEnd
    /// The mode the session ran in; `nil` when the engagement offers none the reader could use.
    public var mode: MdocBLEMode?
    /// The verification of the last response: the disclosed elements and what was checked;
    /// `nil` when none arrived.
    public var report: VerificationReport?
    /// The last DeviceResponse, as decoded; `nil` when none arrived.
    public var response: DeviceResponse?
    /// Every message of the session in the order it went over the link, the status message
    /// that ended it included; empty when the session never started.
    public var messages: [LinkMessage]
    /// The link's ATT_MTU once the session started; `nil` before.
    public var mtu: Int?

    /// A result.
    public init(
        end: LiveSessionEnd, mode: MdocBLEMode?, report: VerificationReport?, response: DeviceResponse?,
        messages: [LinkMessage] = [], mtu: Int? = nil
    ) {
        self.end = end
        self.mode = mode
        self.report = report
        self.response = response
        self.messages = messages
        self.mtu = mtu
    }
}
