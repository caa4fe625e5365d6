import MdocCBOR

/// `WifiOptions`: the retrieval options of a Wi-Fi Aware DeviceRetrievalMethod (ISO/IEC 18013-5
/// 8.2.1.1): `{? 0: tstr pass-phrase, ? 1: uint channel info operating class, ? 2: uint channel
/// number, ? 3: bstr band info}`. The map is kept as received; the fields are read from it.
public struct WifiOptions: CBORRepresentable, Hashable {
    /// Map keys of WifiOptions.
    public enum Key {
        /// Key 0.
        public static let passPhrase: Int64 = 0
        /// Key 1.
        public static let channelInfoOperatingClass: Int64 = 1
        /// Key 2.
        public static let channelInfoChannelNumber: Int64 = 2
        /// Key 3.
        public static let bandInfoSupportedBands: Int64 = 3
    }

    /// The option map, in received or built order.
    public var options: CBORMap

    /// Builds the structure from its parts.
    public init(options: CBORMap = CBORMap()) {
        self.options = options
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        options = try cbor.map(at: path)
    }

    public var cbor: CBOR { .map(options) }

    /// Key 0: the pass-phrase, when present and a text string.
    public var passPhrase: String? { options[int: Key.passPhrase]?.textValue }

    /// Key 1: the channel info operating class, when present and an unsigned integer.
    public var channelInfoOperatingClass: UInt64? { options[int: Key.channelInfoOperatingClass]?.uint64Value }

    /// Key 2: the channel number, when present and an unsigned integer.
    public var channelInfoChannelNumber: UInt64? { options[int: Key.channelInfoChannelNumber]?.uint64Value }

    /// Key 3: the supported bands, when present and a byte string.
    public var bandInfoSupportedBands: [UInt8]? { options[int: Key.bandInfoSupportedBands]?.bytesValue }
}
