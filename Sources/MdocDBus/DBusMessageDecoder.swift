import NIOCore

/// Cuts the byte stream of a D-Bus connection into messages (D-Bus Specification, "Message
/// Format"). A message that does not decode fails the connection: the stream cannot be trusted
/// after it.
public struct DBusMessageDecoder: ByteToMessageDecoder {
    /// A whole message, decoded.
    public typealias InboundOut = DBusMessage

    /// A decoder at the start of a stream, after the authentication.
    public init() {}

    /// Passes on the whole messages left when the stream ends, one per call (the handler calls
    /// again while it gets `.continue`), as ``decode(context:buffer:)`` does.
    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }

    /// Passes on the next message once all its bytes are in `buffer`.
    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = try DBusMessage.length(at: buffer), let bytes = buffer.readSlice(length: length) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(try DBusMessage(decoding: bytes)))
        return .continue
    }
}
