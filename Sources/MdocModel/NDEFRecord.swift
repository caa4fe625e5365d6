/// One NDEF record (NFC Forum NDEF Technical Specification 1.0, section 3.2): a type name
/// format, a type, an optional ID and a payload. ISO/IEC 18013-5 8.2.2.1 carries device
/// engagement and the Bluetooth and Wi-Fi carriers of NFC handover in NDEF records; the Handover
/// Select and Handover Request messages are part of the SessionTranscript's NFCHandover (9.1.5.1).
public struct NDEFRecord: Sendable, Hashable {
    /// The type name format, the TNF field (NDEF 3.2.6): how ``type`` is to be read.
    public struct TypeNameFormat: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: UInt8

        /// A TNF from its three-bit value.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// 0: empty record.
        public static let empty = TypeNameFormat(rawValue: 0)
        /// 1: NFC Forum well-known type (RTD), such as `Hs`, `Hr`, `ac` and `cr` of Connection Handover.
        public static let wellKnown = TypeNameFormat(rawValue: 1)
        /// 2: media type (RFC 2046), such as `application/vnd.bluetooth.le.oob`.
        public static let mediaType = TypeNameFormat(rawValue: 2)
        /// 3: absolute URI.
        public static let absoluteURI = TypeNameFormat(rawValue: 3)
        /// 4: NFC Forum external type, such as `iso.org:18013:deviceengagement`.
        public static let external = TypeNameFormat(rawValue: 4)
        /// 5: unknown.
        public static let unknown = TypeNameFormat(rawValue: 5)
        /// 6: unchanged (a chunk of a chunked record).
        public static let unchanged = TypeNameFormat(rawValue: 6)

        /// The name NDEF 3.2.6 gives the value.
        public var description: String {
            switch rawValue {
            case 0: return "empty"
            case 1: return "NFC Forum well-known type"
            case 2: return "media type"
            case 3: return "absolute URI"
            case 4: return "NFC Forum external type"
            case 5: return "unknown"
            case 6: return "unchanged"
            default: return "reserved (\(rawValue))"
            }
        }
    }

    /// The type name format.
    public var typeNameFormat: TypeNameFormat
    /// The type, as bytes (ASCII for the formats 18013-5 uses).
    public var type: [UInt8]
    /// The ID, empty when the record has none.
    public var id: [UInt8]
    /// The payload.
    public var payload: [UInt8]

    /// A record from its parts.
    public init(typeNameFormat: TypeNameFormat, type: [UInt8], id: [UInt8] = [], payload: [UInt8]) {
        self.typeNameFormat = typeNameFormat
        self.type = type
        self.id = id
        self.payload = payload
    }

    /// The type as text (it is US-ASCII for the well-known, media and external types).
    public var typeText: String { String(decoding: type, as: UTF8.self) }

    /// The ID as text.
    public var idText: String { String(decoding: id, as: UTF8.self) }

    /// The well-known type of a Handover Select record (NFC Forum Connection Handover 1.5).
    public static let handoverSelectType = "Hs"
    /// The well-known type of a Handover Request record.
    public static let handoverRequestType = "Hr"
    /// The well-known type of an Alternative Carrier record.
    public static let alternativeCarrierType = "ac"
    /// The well-known type of a Collision Resolution record.
    public static let collisionResolutionType = "cr"
    /// The external type of the record holding DeviceEngagement (ISO/IEC 18013-5 8.2.2.1).
    public static let deviceEngagementType = "iso.org:18013:deviceengagement"
    /// The external type of the record holding the reader's NFC carrier data for negotiated
    /// handover (ISO/IEC 18013-5 8.2.2.1).
    public static let readerNFCType = "iso.org:18013:nfc"
    /// The media type of a Bluetooth LE out-of-band carrier configuration (Bluetooth Secure
    /// Simple Pairing Using NFC): AD structures.
    public static let bluetoothLEOOBType = "application/vnd.bluetooth.le.oob"
    /// The media type of a Wi-Fi Aware carrier configuration (Wi-Fi Alliance NAN).
    public static let wifiAwareType = "application/vnd.wfa.nan"
}
