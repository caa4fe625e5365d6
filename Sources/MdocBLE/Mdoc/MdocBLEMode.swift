/// The two ways an mdoc and an mdoc reader share the ISO/IEC 18013-5 BLE service
/// (ISO/IEC 18013-5 8.2.1.1 BleOptions, 8.3.3.1.1.4).
///
/// The raw values are the names the programs accept on their command lines.
public enum MdocBLEMode: String, Sendable, Hashable, CaseIterable {
    /// mdoc peripheral server mode: the mdoc advertises and is the GATT server, the reader is the
    /// GATT client (BleOptions key 0, service UUID key 10).
    case peripheralServer = "peripheral"
    /// mdoc central client mode: the reader advertises and is the GATT server serving Ident, the
    /// mdoc is the GATT client (BleOptions key 1, service UUID key 11).
    case centralClient = "central"
}
