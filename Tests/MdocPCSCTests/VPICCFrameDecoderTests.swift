import MdocPCSC
import NIOCore
import NIOEmbedded
import Testing

/// vpcd's frames (vsmartcard's vpcd.c: two big-endian length octets, then the payload) through
/// the decoder, whole and octet by octet, and the frames vpcd never sends.
@Suite struct VPICCFrameDecoderTests {
    private func frame(_ payload: [UInt8]) -> [UInt8] {
        [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
    }

    /// The messages `bytes` decode to, fed `piece` octets at a time, and the error that ended the
    /// stream, if any (after the stream's end when `end`).
    private func decode(
        _ bytes: [UInt8], piece: Int, maximumPayloadLength: Int = VPICCFrame.maximumPayloadLength, end: Bool = true
    ) -> (messages: [VPICCMessage], error: VirtualCardError?) {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(VPICCFrameDecoder(maximumPayloadLength: maximumPayloadLength)))
        var messages: [VPICCMessage] = []
        var index = 0
        do {
            while index < bytes.count {
                let next = min(bytes.count, index + piece)
                try channel.writeInbound(ByteBuffer(bytes: bytes[index..<next]))
                index = next
                while let message = try channel.readInbound(as: VPICCMessage.self) { messages.append(message) }
            }
            if end { _ = try channel.finish() }
            while let message = try channel.readInbound(as: VPICCMessage.self) { messages.append(message) }
        } catch let error as VirtualCardError {
            return (messages, error)
        } catch {
            Issue.record("not a VirtualCardError: \(error)")
        }
        return (messages, nil)
    }

    @Test(arguments: [1, 2, 3, 7, 4096])
    func controlsAndCommands(piece: Int) {
        let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xA0, 0x00, 0x00, 0x02, 0x48, 0x04, 0x00, 0x00]
        let bytes = frame([0x01]) + frame([0x04]) + frame(select) + frame([0x02]) + frame([0x00])
        let (messages, error) = decode(bytes, piece: piece)
        #expect(error == nil)
        #expect(messages == [.powerOn, .getATR, .command(select), .reset, .powerOff])
    }

    @Test func theLongestPayloadTheLengthSays() {
        let command = [UInt8](repeating: 0x5A, count: VPICCFrame.maximumPayloadLength)
        let (messages, error) = decode(frame(command), piece: 1500)
        #expect(error == nil)
        #expect(messages == [.command(command)])
    }

    @Test func aLimitOfTheCardOnEachSide() {
        let limit = 261
        let atLimit = decode(frame([UInt8](repeating: 1, count: limit)), piece: 64, maximumPayloadLength: limit)
        #expect(atLimit.error == nil)
        #expect(atLimit.messages.count == 1)
        // Refused from its two length octets, before any of its payload is held.
        let above = decode(frame([UInt8](repeating: 1, count: limit + 1)).prefix(2).map { $0 }, piece: 2, maximumPayloadLength: limit, end: false)
        #expect(above.error?.code == .oversizeFrame)
    }

    @Test func anEmptyFrame() {
        let (messages, error) = decode(frame([0x04]) + [0x00, 0x00] + frame([0x04]), piece: 1)
        #expect(messages == [.getATR])
        #expect(error?.code == .emptyFrame)
    }

    @Test(arguments: [[UInt8]([0x03]), [0x05], [0xFF]])
    func aControlVpcdDoesNotSend(control: [UInt8]) {
        #expect(decode(frame(control), piece: 3).error?.code == .unknownControl)
    }

    @Test(arguments: [1, 2, 3, 10])
    func aStreamEndingInsideAFrame(kept: Int) {
        let bytes = frame([0x04]) + Array(frame([0x00, 0xA4, 0x04, 0x00, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55]).prefix(kept))
        let (messages, error) = decode(bytes, piece: 1)
        #expect(messages == [.getATR])
        #expect(error?.code == .truncatedFrame)
    }
}
