import MdocBLE

/// The parameters of an LE connection a central asks for (LE Create Connection, LE Connection
/// Update; Bluetooth Core Vol 4 Part E 7.8.12, 7.8.18), in the units HCI uses.
public struct LEConnectionParameters: Sendable, Hashable {
    /// How often the initiator scans for the peer, in units of 0.625 ms.
    public var scanInterval: UInt16
    /// How long it scans each time, in units of 0.625 ms (at most ``scanInterval``).
    public var scanWindow: UInt16
    /// The shortest connection interval, in units of 1.25 ms (6 = 7.5 ms, the least allowed).
    public var intervalMin: UInt16
    /// The longest connection interval, in units of 1.25 ms.
    public var intervalMax: UInt16
    /// How many connection events the peripheral may skip.
    public var peripheralLatency: UInt16
    /// How long without a packet before the link is lost, in units of 10 ms.
    public var supervisionTimeout: UInt16

    /// For an 18013-5 session: short intervals (7.5 to 30 ms) because whole documents cross the
    /// link, no latency, a 5 s supervision timeout; the initiator scans 30 ms every 60 ms.
    public static let mdocSession = LEConnectionParameters(
        scanInterval: 0x0060, scanWindow: 0x0030, intervalMin: 0x0006, intervalMax: 0x0018,
        peripheralLatency: 0, supervisionTimeout: 0x01F4)

    /// Parameters in HCI units.
    public init(scanInterval: UInt16, scanWindow: UInt16, intervalMin: UInt16, intervalMax: UInt16,
                peripheralLatency: UInt16, supervisionTimeout: UInt16) {
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
    }

    /// Whether a peripheral's request is within the ranges of Core Vol 3 Part A 4.20: interval
    /// 6 to 3200, latency below 500, timeout 10 to 3200 and longer than
    /// (1 + latency) × interval max × 2 (in ms: timeout × 10 > (1 + latency) × max × 1.25 × 2).
    public var isValid: Bool {
        (6...3200).contains(intervalMin) && (6...3200).contains(intervalMax) && intervalMin <= intervalMax
            && peripheralLatency < 500 && (10...3200).contains(supervisionTimeout)
            && Int(supervisionTimeout) * 4 > (1 + Int(peripheralLatency)) * Int(intervalMax)
    }

    /// Connection_Interval_Min … Max_CE_Length, as LE Create Connection and LE Connection
    /// Update end.
    func write(to writer: inout PacketWriter) {
        writer.uint16(intervalMin)
        writer.uint16(intervalMax)
        writer.uint16(peripheralLatency)
        writer.uint16(supervisionTimeout)
        writer.uint16(0)  // Min_CE_Length
        writer.uint16(0)  // Max_CE_Length
    }
}
