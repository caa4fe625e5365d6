@testable import MdocBLE
@testable import MdocLEHost
import Testing

@Suite("L2CAP basic frames over ACL (Core Vol 3 Part A 3, Core Vol 4 Part E 5.4.2)")
struct L2CAPTests {
    static func payload(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) } }

    @Test("a frame is cut to the ACL length: first fragment non-flushable, then continuations",
          arguments: [(27, 100), (27, 23), (251, 517), (27, 0)])
    func fragmentation(length: Int, size: Int) {
        let frame = L2CAPBasicFrame(channelID: L2CAPChannelID.attributeProtocol, payload: Self.payload(size))
        let fragments = frame.fragments(handle: 0x0040, maximumDataLength: length)
        #expect(fragments.count == (size + 4 + length - 1) / length)
        #expect(fragments.first?.packetBoundary == .firstNonFlushable)
        #expect(fragments.dropFirst().allSatisfy { $0.packetBoundary == .continuing })
        #expect(fragments.allSatisfy { $0.data.count <= length && $0.handle == 0x0040 })
        #expect(Array(fragments.map(\.data).joined()) == frame.bytes)
    }

    @Test("fragments reassemble into the frame, whatever their sizes", arguments: [1, 3, 27, 100, 521])
    func reassembly(size: Int) throws {
        let frame = L2CAPBasicFrame(channelID: 5, payload: Self.payload(300))
        var reassembler = L2CAPReassembler()
        var out: [L2CAPBasicFrame] = []
        for (index, fragment) in frame.fragments(handle: 1, maximumDataLength: size).enumerated() {
            let received = HCIACLData(handle: 1, packetBoundary: index == 0 ? .firstFlushable : .continuing, data: fragment.data)
            if let whole = try reassembler.append(received) { out.append(whole) }
        }
        #expect(out == [frame])
        #expect(!reassembler.hasPartialFrame)
    }

    @Test("a payload of maximumPayloadLength is taken; one octet more fails")
    func payloadLimit() throws {
        let limit = L2CAPReassembler.maximumPayloadLength
        var reassembler = L2CAPReassembler()
        let largest = L2CAPBasicFrame(channelID: 4, payload: Self.payload(limit))
        #expect(try reassembler.append(HCIACLData(handle: 1, packetBoundary: .firstFlushable, data: largest.bytes)) == largest)
        let over = L2CAPBasicFrame(channelID: 4, payload: Self.payload(limit + 1))
        #expect(throws: BLEError(.malformedPacket, "")) {
            try reassembler.append(HCIACLData(handle: 1, packetBoundary: .firstFlushable, data: Array(over.bytes.prefix(27))))
        }
        #expect(!reassembler.hasPartialFrame)
    }

    @Test("a continuation without a start, a start inside a frame and a frame longer than declared fail")
    func brokenSequences() throws {
        var reassembler = L2CAPReassembler()
        #expect(throws: BLEError(.malformedPacket, "")) {
            try reassembler.append(HCIACLData(handle: 1, packetBoundary: .continuing, data: [1, 2]))
        }
        let frame = L2CAPBasicFrame(channelID: 4, payload: Self.payload(40)).bytes
        #expect(try reassembler.append(HCIACLData(handle: 1, packetBoundary: .firstFlushable, data: Array(frame.prefix(20)))) == nil)
        #expect(throws: BLEError(.malformedPacket, "")) {
            try reassembler.append(HCIACLData(handle: 1, packetBoundary: .firstFlushable, data: Array(frame.prefix(20))))
        }
        #expect(throws: BLEError(.malformedPacket, "")) {
            try reassembler.append(HCIACLData(handle: 1, packetBoundary: .firstFlushable, data: frame + [0xFF]))
        }
        // After a failure the next frame is taken whole.
        #expect(try reassembler.append(HCIACLData(handle: 1, packetBoundary: .firstFlushable, data: frame))?.payload == Self.payload(40))
    }

    @Test("LE signalling: a central accepts a valid parameter update, a peripheral rejects it, others are refused")
    func signalling() throws {
        let update = LESignalingCommand(code: 0x12, identifier: 7, data: [0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0xF4, 0x01])
        #expect(update.answer(as: .central) == LESignalingCommand(code: 0x13, identifier: 7, data: [0x00, 0x00]))
        #expect(update.answer(as: .peripheral) == LESignalingCommand(code: 0x01, identifier: 7, data: [0x00, 0x00]))
        let invalid = LESignalingCommand(code: 0x12, identifier: 8, data: [0x05, 0x00, 0x28, 0x00, 0x00, 0x00, 0xF4, 0x01])
        #expect(invalid.answer(as: .central)?.data == [0x01, 0x00])
        let channel = LESignalingCommand(code: 0x14, identifier: 9, data: [0x80, 0x00, 0x40, 0x00, 0x00, 0x02, 0x40, 0x00, 0x01, 0x00])
        #expect(channel.answer(as: .peripheral)?.code == 0x15)
        #expect(channel.answer(as: .peripheral)?.data.suffix(2) == [0x02, 0x00])
        #expect(LESignalingCommand(code: 0x0A, identifier: 1, data: [2, 0]).answer(as: .central)?.code == 0x01)
        for response: UInt8 in [0x01, 0x13, 0x15, 0x16] {
            #expect(LESignalingCommand(code: response, identifier: 1, data: []).answer(as: .central) == nil)
        }
        #expect(try LESignalingCommand(bytes: update.bytes) == update)
        #expect(throws: BLEError(.malformedPacket, "")) { try LESignalingCommand(bytes: [0x12, 0x01, 0x08, 0x00, 0x18]) }
    }

    @Test("SMP: pairing and security requests get Pairing Failed, Pairing Not Supported")
    func securityManager() {
        #expect(SecurityManagerCommand.answer(to: [0x01, 0x03, 0x00, 0x01, 0x10, 0x07, 0x07]) == [0x05, 0x05])
        #expect(SecurityManagerCommand.answer(to: [0x0B, 0x01]) == [0x05, 0x05])
        #expect(SecurityManagerCommand.answer(to: [0x05, 0x08]) == nil)
        #expect(SecurityManagerCommand.answer(to: []) == nil)
    }

    @Test("flow control: no more packets than buffers, buffers back on completion and disconnection")
    func flowControl() {
        var flow = ACLFlowControl(bufferCount: 3)
        let taken = [flow.take(for: 1), flow.take(for: 1), flow.take(for: 2), flow.take(for: 1)]
        #expect(taken == [true, true, true, false])
        #expect(flow.available == 0 && flow.outstanding == [1: 2, 2: 1])
        var freed = flow.complete(1, for: 1)
        #expect(freed == 1 && flow.available == 1)
        // A controller claiming more than was outstanding frees only what was.
        freed = flow.complete(5, for: 1)
        #expect(freed == 1 && flow.available == 2 && flow.outstanding == [2: 1])
        freed = flow.complete(1, for: 9)
        #expect(freed == 0)
        freed = flow.disconnected(2)
        #expect(freed == 1 && flow.available == 3 && flow.outstanding.isEmpty)
    }

    @Test("connection parameters: the ranges of Core Vol 3 Part A 4.20")
    func parameterRanges() {
        #expect(LEConnectionParameters.mdocSession.isValid)
        var tight = LEConnectionParameters.mdocSession
        tight.intervalMax = 0x0028  // 50 ms
        tight.supervisionTimeout = 10  // 100 ms: exactly 2 × 50 ms is not more than it
        #expect(!tight.isValid)
        tight.supervisionTimeout = 11
        #expect(tight.isValid)
    }
}
