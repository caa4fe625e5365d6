import MdocCBOR

/// `Handover`: the last element of the SessionTranscript, recording how engagement happened
/// (ISO/IEC 18013-5 9.1.5.1).
///
/// ```
/// Handover = QRHandover / NFCHandover
/// QRHandover = null
/// NFCHandover = [ HandoverSelect: bstr, HandoverRequest: bstr / null ]
/// ```
/// Any other form (such as the handovers of ISO/IEC TS 18013-7) is kept as received.
public enum Handover: CBORRepresentable, Hashable {
    /// QR engagement: `null`.
    case qr
    /// NFC static or negotiated handover: the NDEF Handover Select message and, for negotiated
    /// handover, the Handover Request message.
    case nfc(handoverSelect: [UInt8], handoverRequest: [UInt8]?)
    /// Another handover, as received.
    case other(CBOR)

    /// Reads `null` as QR, a two-element array of a byte string and a byte string or null as NFC,
    /// and anything else as ``other(_:)``; it never fails.
    public init(cbor: CBOR, at path: CBORPath) {
        switch cbor {
        case .null:
            self = .qr
        case .array(let elements) where elements.count == 2:
            switch (elements[0], elements[1]) {
            case (.byteString(let select), .byteString(let request)):
                self = .nfc(handoverSelect: Array(select), handoverRequest: Array(request))
            case (.byteString(let select), .null):
                self = .nfc(handoverSelect: Array(select), handoverRequest: nil)
            default:
                self = .other(cbor)
            }
        default:
            self = .other(cbor)
        }
    }

    public var cbor: CBOR {
        switch self {
        case .qr:
            return .null
        case .nfc(let select, let request):
            return .array([.byteString(select), request.map(CBOR.byteString) ?? .null])
        case .other(let value):
            return value
        }
    }
}
