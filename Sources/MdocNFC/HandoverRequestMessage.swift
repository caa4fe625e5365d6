import MdocModel

/// A Handover Request message as a reader writes it in negotiated handover (ISO/IEC 18013-5
/// 8.2.2.1; NFC Forum Connection Handover 1.5, 5.1): a Handover Request record (`Hr`, version
/// 1.5) holding a Collision Resolution record (`cr`) and the Alternative Carrier records, the
/// ReaderEngagement record (external type `iso.org:18013:readerengagement`, ID `mdocreader`),
/// and the carrier configuration records.
///
/// A parsed message keeps its exact bytes in ``bytes``, the SessionTranscript's
/// HandoverRequest (9.1.5.1).
public struct HandoverRequestMessage: Sendable, Hashable {
    /// The Connection Handover version this toolkit writes: 1.5.
    public static let version: UInt8 = 0x15
    /// The external type of the ReaderEngagement record.
    public static let readerEngagementType = "iso.org:18013:readerengagement"
    /// The ID of the ReaderEngagement record: `mdocreader`.
    public static let readerEngagementRecordID = "mdocreader"
    /// The well-known type of the Collision Resolution record.
    public static let collisionResolutionType = NDEFRecord.collisionResolutionType

    /// The message's bytes, exactly as received or built.
    public let bytes: [UInt8]
    /// The records of the message.
    public let message: NDEFMessage
    /// The Connection Handover version of the `Hr` record.
    public let version: UInt8
    /// The random number of the Collision Resolution record, when there is one.
    public let collisionResolutionNumber: UInt16?
    /// The Alternative Carrier records, in order.
    public let alternativeCarriers: [AlternativeCarrierRecord]
    /// The carrier configuration of each Alternative Carrier record, in the same order.
    public let carriers: [HandoverCarrier]
    /// The ReaderEngagement bytes, when the message has the record.
    public let readerEngagement: [UInt8]?

    /// Reads a Handover Request message: the `Hr` record first, of Connection Handover major
    /// version 1, at most one ReaderEngagement record, and a configuration record for the
    /// carrier data reference of every Alternative Carrier record.
    public init(bytes: [UInt8]) throws(NFCError) {
        let message = try NDEFMessage.parse(bytes, what: "the Handover Request message")
        guard let first = message.records.first, first.isType(.wellKnown, NDEFRecord.handoverRequestType) else {
            throw NFCError(.invalidHandover, "the first record is not a Handover Request record", offset: 0)
        }
        let (version, alternatives) = try HandoverRecordPayload.read(first.payload, kind: "Handover Request")
        let (_, local) = try HandoverRecordPayload.message(first.payload, kind: "Handover Request")
        var number: UInt16?
        if let collision = local?.records.first(where: { $0.isType(.wellKnown, Self.collisionResolutionType) }) {
            guard collision.payload.count == 2 else {
                throw NFCError(.invalidHandover, "a collision resolution record of \(collision.payload.count) bytes, not 2")
            }
            number = UInt16(collision.payload[0]) << 8 | UInt16(collision.payload[1])
        }
        let engagements = message.records.filter { $0.isType(.external, Self.readerEngagementType) }
        guard engagements.count <= 1 else {
            throw NFCError(.invalidHandover, "\(engagements.count) ReaderEngagement records")
        }
        self.bytes = bytes
        self.message = message
        self.version = version
        self.collisionResolutionNumber = number
        self.alternativeCarriers = alternatives
        self.carriers = try HandoverRecordPayload.carriers(of: alternatives, in: Array(message.records.dropFirst()))
        self.readerEngagement = engagements.first?.payload
    }

    /// The message a reader writes: the `Hr` record (version 1.5) with the Collision
    /// Resolution record when `collisionResolutionNumber` is given and an active Alternative
    /// Carrier record for each carrier, then the ReaderEngagement record when given, then the
    /// carriers' configuration records. Each carrier record needs its own ID.
    public init(readerEngagement: [UInt8]?, carriers: [HandoverCarrier], collisionResolutionNumber: UInt16?) {
        let alternatives = carriers.map { AlternativeCarrierRecord(carrierDataReference: $0.record.id) }
        var local: [NDEFRecord] = []
        if let collisionResolutionNumber {
            local.append(NDEFRecord(typeNameFormat: .wellKnown, type: Array(Self.collisionResolutionType.utf8),
                                    payload: [UInt8(collisionResolutionNumber >> 8), UInt8(truncatingIfNeeded: collisionResolutionNumber)]))
        }
        let handoverRequest = NDEFRecord(typeNameFormat: .wellKnown, type: Array(NDEFRecord.handoverRequestType.utf8),
                                         payload: HandoverRecordPayload.make(version: Self.version, alternatives, before: local))
        var records = [handoverRequest]
        if let readerEngagement {
            records.append(NDEFRecord(typeNameFormat: .external, type: Array(Self.readerEngagementType.utf8),
                                      id: Array(Self.readerEngagementRecordID.utf8), payload: readerEngagement))
        }
        let message = NDEFMessage(records: records + carriers.map(\.record))
        self.bytes = message.bytes
        self.message = message
        self.version = Self.version
        self.collisionResolutionNumber = collisionResolutionNumber
        self.alternativeCarriers = alternatives
        self.carriers = carriers
        self.readerEngagement = readerEngagement
    }
}
