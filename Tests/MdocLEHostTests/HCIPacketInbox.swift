@testable import MdocLEHost
import NIOCore

/// What an ``HCITransport`` receives, one packet per ``next()``: a test's end of an HCI link
/// played by hand.
final class HCIPacketInbox: Sendable {
    private let packets: AsyncStream<HCIPacket>

    /// Takes what `transport` receives from now on.
    init(_ transport: HCITransport) async throws {
        let (packets, continuation) = AsyncStream<HCIPacket>.makeStream()
        try await transport.eventLoop.submit {
            transport.attach(received: { continuation.yield($0) }, ended: { _ in continuation.finish() })
        }.get()
        self.packets = packets
    }

    /// The next packet, nil once the link ended. One caller at a time.
    func next() async -> HCIPacket? {
        var iterator = packets.makeAsyncIterator()
        return await iterator.next()
    }
}

extension HCITransport {
    /// Writes `bytes` one write each (an H4 stream may split anywhere), after what was sent
    /// before: below the H4 encoder, which takes whole packets.
    func sendBytewise(_ bytes: [UInt8]) {
        let channel = channel
        channel.eventLoop.execute {
            guard let context = try? channel.pipeline.syncOperations.context(handlerType: MessageToByteHandler<HCIPacketEncoder>.self)
            else { return }
            for byte in bytes { context.writeAndFlush(NIOAny(ByteBuffer(bytes: [byte])), promise: nil) }
        }
    }
}
