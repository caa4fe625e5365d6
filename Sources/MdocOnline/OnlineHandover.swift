import MdocCBOR
import MdocModel

/// The Handover of an online presentation, the third element of a SessionTranscript whose first
/// two are `null` (ISO/IEC TS 18013-7 Annexes B and C; OpenID4VP 1.0 Appendix B.2.6):
/// `SessionTranscript = [null, null, Handover]`.
///
/// Each conforming type is the Handover of one specification, named as that specification names
/// it; they are not interchangeable, since each binds other request parameters.
public protocol OnlineHandover: Sendable {
    /// The Handover item.
    var cbor: CBOR { get }
}

extension OnlineHandover {
    /// `[null, null, Handover]`: the SessionTranscript the mdoc's DeviceAuthentication and the
    /// reader's ReaderAuthentication are built over, as in proximity (ISO/IEC 18013-5 9.1.5.1).
    /// Its encoding is what `SessionTranscriptBinding` (MdocSession) and HPKE's `info` take.
    public var sessionTranscript: SessionTranscript {
        SessionTranscript(deviceEngagementBytes: nil, eReaderKeyBytes: nil, handover: .other(cbor))
    }
}
