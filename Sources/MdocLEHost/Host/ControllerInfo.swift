import MdocBLE

/// What the controller reported when the host started it.
public struct ControllerInfo: Sendable, Hashable {
    /// The address this host uses: the public BD_ADDR, or the static random address it set.
    public let address: BluetoothAddress
    /// The longest ACL data packet the controller takes (LE Read Buffer Size).
    public let aclDataLength: Int
    /// How many ACL data packets it buffers.
    public let aclBufferCount: Int
    /// The HCI version (Assigned Numbers: 6 = 4.0 … 13 = 5.4), when it answered.
    public let hciVersion: UInt8?
    /// Whether it supports LE Data Length Extension (251-octet link-layer payloads).
    public let supportsDataLengthExtension: Bool
}
