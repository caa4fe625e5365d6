@testable import MdocPCSC
import NIOCore
import NIOEmbedded
import Testing

/// The watch on vpcd's frames on an embedded event loop, whose time the test moves: a frame
/// whose octets stop for longer than the bound fails the connection; quiet between frames, or
/// gaps shorter than the bound inside one, do not.
@Suite struct VPICCFrameWatchTests {
    static let bound = Duration.milliseconds(200)

    /// A channel with the watch, and its loop.
    private func watched() -> (EmbeddedChannel, EmbeddedEventLoop) {
        let channel = EmbeddedChannel(handler: VPICCFrameWatch(bound: Self.bound))
        channel.connect(to: try! SocketAddress(ipAddress: "127.0.0.1", port: 1), promise: nil)
        return (channel, channel.embeddedEventLoop)
    }

    @Test func quietBetweenFramesIsNoStallAndTheBytesPassUnchanged() throws {
        let (channel, loop) = watched()
        try channel.writeInbound(ByteBuffer(bytes: [0x00, 0x01, 0x04]))
        loop.advanceTime(by: .milliseconds(600))

        try channel.throwIfErrorCaught()
        #expect(channel.isActive)
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(bytes: [0x00, 0x01, 0x04]))
    }

    @Test func gapsShorterThanTheBoundInsideAFrameAreNoStall() throws {
        let (channel, loop) = watched()
        for piece: [UInt8] in [[0x00], [0x05, 0x00, 0xA4], [0x04, 0x00, 0x00]] {
            try channel.writeInbound(ByteBuffer(bytes: piece))
            loop.advanceTime(by: .milliseconds(199))
        }
        loop.advanceTime(by: .milliseconds(600))

        try channel.throwIfErrorCaught()
        #expect(channel.isActive)
    }

    @Test(arguments: [[0x00] as [UInt8], [0x00, 0x10, 0x00, 0xA4]])
    func aFrameThatStopsForTheBoundFailsTheConnection(_ partial: [UInt8]) throws {
        let (channel, loop) = watched()
        try channel.writeInbound(ByteBuffer(bytes: partial))
        loop.advanceTime(by: .milliseconds(199))
        try channel.throwIfErrorCaught()
        #expect(channel.isActive)

        loop.advanceTime(by: .milliseconds(1))
        #expect(throws: VirtualCardError(.stalledFrame, "")) { try channel.throwIfErrorCaught() }
        #expect(!channel.isActive)
    }
}
