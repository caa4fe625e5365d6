/// How a ``PacketIOThread`` finds packet boundaries on its descriptor.
enum PacketFraming: Sendable {
    /// One packet per datagram, at most `maximumSize` octets: AF_UNIX SOCK_SEQPACKET (the sim
    /// bearer) and the Linux HCI user channel, which delivers one HCI packet per read with its
    /// H4 indicator first.
    case datagram(maximumSize: Int)
    /// An HCI UART (H4) byte stream: TCP to a virtual controller, or a serial line to a
    /// dongle (Bluetooth Core Vol 4 Part A 2). Packets are cut by ``H4PacketParser``.
    case h4Stream
}
