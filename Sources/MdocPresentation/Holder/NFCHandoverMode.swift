/// How an mdoc's NFC tag offers its engagement to a reader that taps (ISO/IEC 18013-5 8.2.2.1).
public enum NFCHandoverMode: String, Sendable, Hashable, CaseIterable {
    /// The NDEF file holds the Handover Select message: the DeviceEngagement and a BLE carrier
    /// record for each mode offered.
    case staticHandover = "static"
    /// The NDEF file offers the Connection Handover service (TNEP): the reader writes a Handover
    /// Request message and reads the Handover Select back, with the modes both offer.
    case negotiatedHandover = "negotiated"
}
