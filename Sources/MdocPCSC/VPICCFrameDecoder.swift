import NIOCore

/// Cuts the byte stream vpcd sends a virtual card into messages (``VPICCFrame``,
/// ``VPICCMessage``). A frame that is not one vpcd sends fails the connection with a
/// ``VirtualCardError``: empty, longer than ``maximumPayloadLength``, a one-octet payload that
/// is no control, or cut off by the end of the stream. Nothing is buffered beyond one frame's
/// declared length, which the two-octet length bounds.
public struct VPICCFrameDecoder: ByteToMessageDecoder {
    /// A message of vpcd's.
    public typealias InboundOut = VPICCMessage

    /// The longest payload accepted.
    public let maximumPayloadLength: Int

    /// A decoder of payloads up to `maximumPayloadLength` octets, at most
    /// ``VPICCFrame/maximumPayloadLength`` (the default), which the frame's length can say; a
    /// card of short APDUs only may accept less (261 octets: ISO/IEC 7816-4 5.1, case 4 short).
    public init(maximumPayloadLength: Int = VPICCFrame.maximumPayloadLength) {
        precondition((VPICCFrame.controlLength...VPICCFrame.maximumPayloadLength).contains(maximumPayloadLength))
        self.maximumPayloadLength = maximumPayloadLength
    }

    /// Passes on the next message once its frame is whole in `buffer`.
    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let message = try next(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(message))
        return .continue
    }

    /// Passes on the messages left when the stream ends; a part of a frame left over is
    /// `truncatedFrame`.
    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        if let message = try next(from: &buffer) {
            context.fireChannelRead(Self.wrapInboundOut(message))
            return .continue
        }
        if buffer.readableBytes > 0 {
            let held = buffer.readableBytes
            buffer.moveReaderIndex(forwardBy: held)
            throw VirtualCardError(.truncatedFrame, "the connection ended inside a frame, after \(held) of its octets")
        }
        return .needMoreData
    }

    /// The message whose frame starts `buffer`, consumed; nil when the frame is not whole yet.
    mutating func next(from buffer: inout ByteBuffer) throws(VirtualCardError) -> VPICCMessage? {
        guard let length = buffer.getInteger(at: buffer.readerIndex, endianness: .big, as: UInt16.self).map(Int.init) else { return nil }
        guard length > 0 else { throw VirtualCardError(.emptyFrame, "a frame with an empty payload") }
        guard length <= maximumPayloadLength else {
            throw VirtualCardError(.oversizeFrame, "a frame of \(length) octets, above the \(maximumPayloadLength) this card accepts")
        }
        guard buffer.readableBytes >= VPICCFrame.lengthSize + length else { return nil }
        buffer.moveReaderIndex(forwardBy: VPICCFrame.lengthSize)
        let payload = buffer.readBytes(length: length)!
        guard length == VPICCFrame.controlLength else { return .command(payload) }
        guard let message = VPICCMessage(control: payload[0]) else {
            throw VirtualCardError(.unknownControl, "the control 0x\(String(payload[0], radix: 16)), which vpcd does not send")
        }
        return message
    }
}
