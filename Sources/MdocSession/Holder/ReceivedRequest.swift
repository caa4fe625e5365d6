import MdocModel

/// A DeviceRequest the reader sent, with the session it arrived in: what the application judges
/// before the holder decides (ISO/IEC 18013-5 8.3.2.1.2.1). Who asks is established from each
/// DocRequest's readerAuth against ``sessionTranscript`` (9.1.4), by the application's trust
/// policy; what to release is the holder's decision, given to ``HolderSession/decide(_:)``.
public struct ReceivedRequest: Sendable {
    /// The decrypted DeviceRequest, with every ItemsRequestBytes as received.
    public let deviceRequest: DeviceRequest
    /// The transcript of the session the request arrived in, which reader authentication signs.
    public let sessionTranscript: SessionTranscriptBinding

    /// A request received in the session bound to `sessionTranscript`.
    public init(deviceRequest: DeviceRequest, sessionTranscript: SessionTranscriptBinding) {
        self.deviceRequest = deviceRequest
        self.sessionTranscript = sessionTranscript
    }
}
