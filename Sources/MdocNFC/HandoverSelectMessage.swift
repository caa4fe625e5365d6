import MdocModel

/// A Handover Select message as an mdoc sends it for NFC engagement (ISO/IEC 18013-5 8.2.2.1;
/// NFC Forum Connection Handover 1.5, 5.2): a Handover Select record (`Hs`, version 1.5)
/// holding the Alternative Carrier records, the DeviceEngagement record (external type
/// `iso.org:18013:deviceengagement`, ID `mdoc`), and the carrier configuration records.
///
/// A parsed message keeps its exact bytes in ``bytes``: they go unchanged into the
/// SessionTranscript's Handover (9.1.5.1), ``handover(request:)``.
public struct HandoverSelectMessage: Sendable, Hashable {
    /// The Connection Handover version this toolkit writes: 1.5.
    public static let version: UInt8 = 0x15
    /// The ID of the DeviceEngagement record, which the Alternative Carrier records name as
    /// auxiliary data: `mdoc`.
    public static let deviceEngagementRecordID = "mdoc"

    /// The message's bytes, exactly as received or built.
    public let bytes: [UInt8]
    /// The records of the message.
    public let message: NDEFMessage
    /// The Connection Handover version of the `Hs` record.
    public let version: UInt8
    /// The Alternative Carrier records, in order.
    public let alternativeCarriers: [AlternativeCarrierRecord]
    /// The carrier configuration of each Alternative Carrier record, in the same order.
    public let carriers: [HandoverCarrier]
    /// The DeviceEngagement bytes, the payload of the DeviceEngagement record.
    public let deviceEngagement: [UInt8]

    /// Reads a Handover Select message: the `Hs` record first, of Connection Handover major
    /// version 1, exactly one DeviceEngagement record, and a configuration record for the
    /// carrier data reference of every Alternative Carrier record.
    public init(bytes: [UInt8]) throws(NFCError) {
        let message = try NDEFMessage.parse(bytes, what: "the Handover Select message")
        guard let first = message.records.first, first.isType(.wellKnown, NDEFRecord.handoverSelectType) else {
            throw NFCError(.invalidHandover, "the first record is not a Handover Select record", offset: 0)
        }
        let (version, alternatives) = try HandoverRecordPayload.read(first.payload, kind: "Handover Select")
        let engagements = message.records.filter { $0.isType(.external, NDEFRecord.deviceEngagementType) }
        guard engagements.count == 1 else {
            throw NFCError(.invalidHandover, "\(engagements.count) DeviceEngagement records, 18013-5 8.2.2.1 sends one")
        }
        self.bytes = bytes
        self.message = message
        self.version = version
        self.alternativeCarriers = alternatives
        self.carriers = try HandoverRecordPayload.carriers(of: alternatives, in: Array(message.records.dropFirst()))
        self.deviceEngagement = engagements[0].payload
    }

    /// The message an mdoc sends: the `Hs` record (version 1.5) with an active Alternative
    /// Carrier record for each carrier naming the DeviceEngagement record as auxiliary data,
    /// then the DeviceEngagement record, then the carriers' configuration records. Each carrier
    /// record needs its own ID.
    public init(deviceEngagement: [UInt8], carriers: [HandoverCarrier]) {
        let alternatives = carriers.map { carrier in
            AlternativeCarrierRecord(carrierDataReference: carrier.record.id,
                                     auxiliaryDataReferences: [Array(Self.deviceEngagementRecordID.utf8)])
        }
        let engagement = NDEFRecord(typeNameFormat: .external, type: Array(NDEFRecord.deviceEngagementType.utf8),
                                    id: Array(Self.deviceEngagementRecordID.utf8), payload: deviceEngagement)
        let handoverSelect = NDEFRecord(typeNameFormat: .wellKnown, type: Array(NDEFRecord.handoverSelectType.utf8),
                                        payload: HandoverRecordPayload.make(version: Self.version, alternatives))
        let message = NDEFMessage(records: [handoverSelect, engagement] + carriers.map(\.record))
        self.bytes = message.bytes
        self.message = message
        self.version = Self.version
        self.alternativeCarriers = alternatives
        self.carriers = carriers
        self.deviceEngagement = deviceEngagement
    }

    /// The SessionTranscript's Handover (ISO/IEC 18013-5 9.1.5.1): this message's bytes, and
    /// the Handover Request message's for negotiated handover.
    public func handover(request: HandoverRequestMessage?) -> Handover {
        .nfc(handoverSelect: bytes, handoverRequest: request?.bytes)
    }
}

/// The payload of a Handover Select or Request record (Connection Handover 1.5, 6.1): the
/// version, then an NDEF message of local records, perhaps none.
enum HandoverRecordPayload {
    /// The Connection Handover major version this toolkit reads: 1.
    static let majorVersion: UInt8 = 1

    /// The version and the Alternative Carrier records of `payload`; other local records
    /// (a collision resolution or error record) are skipped.
    static func read(_ payload: [UInt8], kind: String) throws(NFCError) -> (UInt8, [AlternativeCarrierRecord]) {
        let (version, local) = try message(payload, kind: kind)
        var alternatives: [AlternativeCarrierRecord] = []
        for record in local?.records ?? [] where record.isType(.wellKnown, NDEFRecord.alternativeCarrierType) {
            alternatives.append(try AlternativeCarrierRecord(payload: record.payload))
        }
        return (version, alternatives)
    }

    /// The version and the local records of `payload`.
    static func message(_ payload: [UInt8], kind: String) throws(NFCError) -> (UInt8, NDEFMessage?) {
        guard let version = payload.first else {
            throw NFCError(.truncated, "the \(kind) record is empty", offset: 0)
        }
        guard version >> 4 == majorVersion else {
            throw NFCError(.invalidHandover, "\(kind) version \(version >> 4).\(version & 0x0F), this toolkit reads 1.x", offset: 0)
        }
        guard payload.count > 1 else { return (version, nil) }
        return (version, try NDEFMessage.parse(Array(payload.dropFirst()), what: "the \(kind) record's payload"))
    }

    /// A payload of `version` and `records` (none: the version alone).
    static func make(version: UInt8, _ alternatives: [AlternativeCarrierRecord], before: [NDEFRecord] = []) -> [UInt8] {
        let records = before + alternatives.map(\.record)
        return [version] + (records.isEmpty ? [] : NDEFMessage(records: records).bytes)
    }

    /// The configuration record each Alternative Carrier record refers to, among `records`.
    static func carriers(of alternatives: [AlternativeCarrierRecord], in records: [NDEFRecord]) throws(NFCError) -> [HandoverCarrier] {
        var carriers: [HandoverCarrier] = []
        for alternative in alternatives {
            let matches = records.filter { $0.id == alternative.carrierDataReference }
            guard matches.count == 1 else {
                throw NFCError(.invalidHandover, "\(matches.count) records have the ID an alternative carrier record refers to")
            }
            carriers.append(try HandoverCarrier(record: matches[0]))
        }
        return carriers
    }
}
