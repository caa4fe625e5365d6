import MdocCBOR
import MdocCOSE

/// `SessionTranscript = [DeviceEngagementBytes, EReaderKeyBytes, Handover]` (ISO/IEC 18013-5
/// 9.1.5.1): what both sides bind session keys, device authentication and reader authentication
/// to.
///
/// Both byte-string elements are `EmbeddedCBOR` values, so the transcript is built from the
/// exact DeviceEngagementBytes and EReaderKeyBytes that were exchanged, and ``cbor`` reproduces a
/// received transcript item for item. ISO/IEC TS 18013-7 transcripts put `null` in the first two
/// places; those read as `nil`.
public struct SessionTranscript: CBORRepresentable {
    /// DeviceEngagementBytes, or `nil` for `null`.
    public var deviceEngagementBytes: EmbeddedCBOR<DeviceEngagement>?
    /// EReaderKeyBytes, or `nil` for `null`.
    public var eReaderKeyBytes: EmbeddedCBOR<COSEKey>?
    /// How engagement happened.
    public var handover: Handover

    /// Builds the structure from its parts.
    public init(
        deviceEngagementBytes: EmbeddedCBOR<DeviceEngagement>?,
        eReaderKeyBytes: EmbeddedCBOR<COSEKey>?,
        handover: Handover
    ) {
        self.deviceEngagementBytes = deviceEngagementBytes
        self.eReaderKeyBytes = eReaderKeyBytes
        self.handover = handover
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let array = try cbor.array(at: path)
        guard array.count == 3 else {
            throw CBORError(.invalidValue, "SessionTranscript must have 3 elements, found \(array.count)", path: path)
        }
        deviceEngagementBytes = array[0].isNull ? nil : try EmbeddedCBOR(cbor: array[0], at: path.appending(index: 0))
        eReaderKeyBytes = array[1].isNull ? nil : try EmbeddedCBOR(cbor: array[1], at: path.appending(index: 1))
        handover = Handover(cbor: array[2], at: path.appending(index: 2))
    }

    public var cbor: CBOR {
        .array([deviceEngagementBytes?.cbor ?? .null, eReaderKeyBytes?.cbor ?? .null, handover.cbor])
    }

    /// SessionTranscriptBytes = `#6.24(bstr .cbor SessionTranscript)`, whose encoding is the HKDF
    /// salt input of 9.1.1.5. To keep the bytes of a received SessionTranscriptBytes, decode it as
    /// `EmbeddedCBOR<SessionTranscript>` instead.
    public var bytes: EmbeddedCBOR<SessionTranscript> {
        EmbeddedCBOR(self)
    }
}
