import Glibc
import NIOCore
import NIOPosix

/// A smart card in software for vsmartcard's vpcd, the pcscd driver of virtual readers: a
/// reader application sees it through PC/SC as a card in the reader "Virtual PCD 00 00" (or
/// "... 00 01" on the next port). The card's logic is a ``VirtualCardHandler``.
///
/// vpcd listens (TCP, port 35963 for its first reader by default; the port is the number after
/// the colon of the reader's `DEVICENAME` in pcscd's reader.conf) and the card connects. The
/// card is in the reader while the connection lasts: vpcd asks for its ATR whenever pcscd polls
/// the reader, and closes the connection (the card is removed) when a transmission to it fails,
/// which it does for a command of more than 65535 octets. vpcd accepts the next connection
/// when pcscd next polls, so a card may connect again (call ``run(_:atr:maximumCommandLength:frameInactivityBound:handler:)`` again).
public enum VirtualCard {
    /// Where vpcd listens: `vpcd`, or `vpcd:HOST:PORT`.
    public struct Address: Sendable, Hashable, CustomStringConvertible {
        /// The port of vpcd's first reader in its default configuration (vsmartcard's vpcd.h
        /// `VPCDPORT`).
        public static let defaultPort = 35963
        /// The host of vpcd in its default configuration.
        public static let defaultHost = "localhost"

        /// The host name or address.
        public let host: String
        /// The TCP port.
        public let port: Int

        /// vpcd at `host`, `port`.
        public init(host: String = Self.defaultHost, port: Int = Self.defaultPort) {
            self.host = host
            self.port = port
        }

        /// The address `vpcd` (localhost, port 35963) or `vpcd:HOST:PORT`; an IPv6 host goes in
        /// brackets (`vpcd:[::1]:35963`).
        public init(parsing text: String) throws(VirtualCardError) {
            guard text != "vpcd" else {
                self.init()
                return
            }
            guard text.hasPrefix("vpcd:"), let colon = text.lastIndex(of: ":"), colon > text.index(text.startIndex, offsetBy: 4) else {
                throw VirtualCardError(.invalidAddress, "\"\(text)\" is not vpcd or vpcd:HOST:PORT")
            }
            var host = text[text.index(text.startIndex, offsetBy: 5)..<colon]
            if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
            guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
                throw VirtualCardError(.invalidAddress, "\"\(text)\" has no host, or no port from 1 to 65535")
            }
            self.init(host: String(host), port: port)
        }

        /// `vpcd:HOST:PORT`.
        public var description: String { host.contains(":") ? "vpcd:[\(host)]:\(port)" : "vpcd:\(host):\(port)" }
    }

    /// How long connecting to vpcd may take.
    public static let connectTimeout: Duration = .seconds(10)
    /// The longest gap between the octets of one frame: vpcd writes each frame at once, so a
    /// frame that stops for this long was abandoned. Between frames there is no bound.
    public static let frameInactivityBound: Duration = .seconds(10)

    /// TCP_QUICKACK (Linux tcp(7)), set again after each answer. vpcd up to vsmartcard 0.8
    /// (Debian 12's) writes a frame's length and its payload in two `send` calls: with Nagle's
    /// algorithm on its side, the payload waits for the acknowledgement of the length, which
    /// a delayed acknowledgement holds back for up to 40 ms on every command. An immediate
    /// acknowledgement lets it go at once.
    static let quickAcknowledgement = ChannelOptions.Types.SocketOption(
        level: .tcp, name: NIOBSDSocket.Option(rawValue: TCP_QUICKACK))

    /// Sets ``quickAcknowledgement`` on `channel`. It only saves time: on a connection vpcd has
    /// closed meanwhile it fails, and the next read ends the run as vpcd's closing does.
    private static func acknowledgeQuickly(_ channel: any Channel) async {
        try? await channel.setOption(quickAcknowledgement, value: 1).get()
    }

    /// Connects to vpcd at `address` as a card with the answer to reset `atr` (2 to 33 octets,
    /// ISO/IEC 7816-3 8.2.1) and answers what vpcd sends with `handler`, one message at a time,
    /// until vpcd closes the connection (the card is then out of the reader) or the task is
    /// cancelled (the connection closes, and pcscd sees the card removed): both return. The card
    /// takes commands of up to `maximumCommandLength` octets, 1 to
    /// ``VPICCFrame/maximumPayloadLength`` (a card of short APDUs only: 261); a longer one ends
    /// the run (`oversizeFrame`), as does a frame whose octets stop coming for longer than
    /// `frameInactivityBound` (`stalledFrame`).
    /// Throws `connectionFailed` when vpcd cannot be reached, and the
    /// ``VirtualCardError`` of a frame vpcd would not send (``VPICCFrameDecoder``) or of an
    /// answer a frame cannot carry.
    public static func run(
        _ address: Address = Address(), atr: [UInt8], maximumCommandLength: Int = VPICCFrame.maximumPayloadLength,
        frameInactivityBound: Duration = Self.frameInactivityBound, handler: some VirtualCardHandler
    ) async throws(VirtualCardError) {
        guard (2...PCSCCard.maximumATRLength).contains(atr.count) else {
            throw VirtualCardError(.invalidATR, "an ATR of \(atr.count) octets; an ATR has 2 to \(PCSCCard.maximumATRLength)")
        }
        let channel: NIOAsyncChannel<VPICCMessage, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(TimeAmount(connectTimeout))
                .connect(host: address.host, port: address.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers([
                            VPICCFrameWatch(bound: frameInactivityBound),
                            ByteToMessageHandler(VPICCFrameDecoder(maximumPayloadLength: maximumCommandLength)),
                        ])
                        return try NIOAsyncChannel<VPICCMessage, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw VirtualCardError(.connectionFailed, "cannot connect to \(address): \(error)")
        }
        do {
            try await channel.executeThenClose { inbound, outbound in
                for try await message in inbound {
                    switch message {
                    case .powerOff: await handler.powerChanged(on: false)
                    case .powerOn: await handler.powerChanged(on: true)
                    case .reset: await handler.reset()
                    case .getATR:
                        try await outbound.write(VPICCFrame.encode(atr))
                        await acknowledgeQuickly(channel.channel)
                    case .command(let command):
                        let response = await handler.respond(to: command)
                        // A card cancelled while it answered leaves without the answer: to
                        // the reader, it was removed during the command.
                        if Task.isCancelled { return }
                        guard (2...VPICCFrame.maximumPayloadLength).contains(response.count) else {
                            throw VirtualCardError(
                                .invalidResponse,
                                "the handler answered a command with \(response.count) octets; a response has 2 to \(VPICCFrame.maximumPayloadLength)")
                        }
                        try await outbound.write(VPICCFrame.encode(response))
                        await acknowledgeQuickly(channel.channel)
                    }
                }
            }
        } catch let error as VirtualCardError {
            throw error
        } catch is CancellationError {
            return
        } catch {
            if Task.isCancelled { return }
            throw VirtualCardError(.connectionLost, "the connection to \(address) failed: \(error)")
        }
    }
}
