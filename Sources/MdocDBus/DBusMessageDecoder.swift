import NIOCore

/// Cuts the byte stream of a D-Bus connection into messages (D-Bus Specification, "Message
/// Format"). A message that does not decode fails the connection: the stream cannot be trusted
/// after it.
public struct DBusMessageDecoder: ByteToMessageDecoder {
    /// A whole message, decoded.
    public typealias InboundOut = DBusMessage

    /// A decoder at the start of a stream, after the authentication.
    public init() {}

    /// Passes on the next message once all its bytes are in `buffer`.
    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = try DBusMessage.length(at: buffer), let bytes = buffer.readSlice(length: length) else {
            return .needMoreData
        }
        context.fireChannelRead(Self.wrapInboundOut(try DBusMessage(decoding: bytes)))
        return .continue
    }

    /// Passes on every whole message left when the stream ends.
    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
