import MdocModel

/// What a reader learns from NFC engagement (ISO/IEC 18013-5 8.2.2.1): the mdoc's Handover
/// Select message and, for negotiated handover, the Handover Request message the reader wrote.
public struct NFCEngagement: Sendable, Hashable {
    /// The Handover Select message, with its exact bytes, the DeviceEngagement and the carriers.
    public var handoverSelect: HandoverSelectMessage
    /// The Handover Request message of negotiated handover; `nil` for static handover.
    public var handoverRequest: HandoverRequestMessage?

    /// An engagement of its parts.
    public init(handoverSelect: HandoverSelectMessage, handoverRequest: HandoverRequestMessage?) {
        self.handoverSelect = handoverSelect
        self.handoverRequest = handoverRequest
    }

    /// The SessionTranscript's Handover (18013-5 9.1.5.1).
    public var handover: Handover {
        handoverSelect.handover(request: handoverRequest)
    }

    /// The DeviceEngagement bytes.
    public var deviceEngagement: [UInt8] { handoverSelect.deviceEngagement }
}
