import MdocCBOR

/// `NfcOptions`: the retrieval options of an NFC DeviceRetrievalMethod (ISO/IEC 18013-5 8.2.1.1):
/// `{0: uint, 1: uint}`, the maximum command and response data lengths. The map is kept as
/// received; the two lengths are read from it.
public struct NfcOptions: CBORRepresentable, Hashable {
    /// Map keys of NfcOptions.
    public enum Key {
        /// Key 0.
        public static let maxLengthCommandData: Int64 = 0
        /// Key 1.
        public static let maxLengthResponseData: Int64 = 1
    }

    /// The option map, in received or built order.
    public var options: CBORMap

    /// Builds the structure from its parts.
    public init(options: CBORMap) {
        self.options = options
    }

    /// Options with both maximum lengths, in CDDL order.
    public init(maxLengthCommandData: UInt64, maxLengthResponseData: UInt64) {
        options = CBORMap()
        options.append(CBOR(Key.maxLengthCommandData), .unsignedInt(maxLengthCommandData))
        options.append(CBOR(Key.maxLengthResponseData), .unsignedInt(maxLengthResponseData))
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        options = try cbor.map(at: path)
    }

    public var cbor: CBOR { .map(options) }

    /// Key 0: the maximum length of command data field, when present and an unsigned integer.
    public var maxLengthCommandData: UInt64? { options[int: Key.maxLengthCommandData]?.uint64Value }

    /// Key 1: the maximum length of response data field, when present and an unsigned integer.
    public var maxLengthResponseData: UInt64? { options[int: Key.maxLengthResponseData]?.uint64Value }
}
