import MdocBLE

/// The Security Manager Protocol answer of a host that does not pair (Bluetooth Core Vol 3
/// Part H 3.5): ISO/IEC 18013-5 protects the data with its own session encryption (9.1.1.5), so
/// this host replies Pairing Failed, "Pairing Not Supported", to a Pairing Request or a
/// Security Request and ignores everything else on CID 0x0006.
public enum SecurityManagerCommand: Sendable {
    /// Pairing Request (3.5.1).
    public static let pairingRequestCode: UInt8 = 0x01
    /// Pairing Failed (3.5.5).
    public static let pairingFailedCode: UInt8 = 0x05
    /// Security Request (3.6.7), sent by a peripheral.
    public static let securityRequestCode: UInt8 = 0x0B
    /// Reason "Pairing Not Supported" (3.5.5, Table 3.7).
    public static let pairingNotSupported: UInt8 = 0x05

    /// The reply to the SMP command `bytes`, nil when none is due.
    public static func answer(to bytes: [UInt8]) -> [UInt8]? {
        guard let code = bytes.first, code == pairingRequestCode || code == securityRequestCode else { return nil }
        return [pairingFailedCode, pairingNotSupported]
    }
}
