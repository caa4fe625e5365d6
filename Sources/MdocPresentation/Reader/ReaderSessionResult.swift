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

    /// A result.
    public init(end: LiveSessionEnd, mode: MdocBLEMode?, report: VerificationReport?, response: DeviceResponse?) {
        self.end = end
        self.mode = mode
        self.report = report
        self.response = response
    }
}
