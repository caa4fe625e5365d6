import MdocBLE

/// What crossed the controller interface of an ``LEHost`` since it started: what the
/// benchmark reports (ATT PDUs against the minimum a message needs, payload against ACL
/// octets).
public struct LEHostStatistics: Sendable, Hashable {
    /// HCI commands sent.
    public var commandsSent = 0
    /// HCI events received.
    public var eventsReceived = 0
    /// ACL data packets sent to the controller.
    public var aclPacketsSent = 0
    /// Octets of those packets, their 4-octet HCI ACL headers included (not the H4 indicator).
    public var aclOctetsSent = 0
    /// ACL data packets received from the controller.
    public var aclPacketsReceived = 0
    /// Octets of those packets, HCI ACL headers included.
    public var aclOctetsReceived = 0
    /// ATT PDUs sent (L2CAP frames on CID 0x0004).
    public var attPDUsSent = 0
    /// Octets of those PDUs (without the L2CAP header).
    public var attOctetsSent = 0
    /// ATT PDUs received.
    public var attPDUsReceived = 0
    /// Octets of those PDUs.
    public var attOctetsReceived = 0
    /// LE links made, either role.
    public var connections = 0

    /// Counters all zero.
    public init() {}
}
