import Glibc
import NIOCore

/// The client side of the D-Bus authentication protocol (D-Bus Specification, "Authentication
/// Protocol"): the credentials byte, `AUTH EXTERNAL` with this process's user ID, the server's
/// `OK`, then `BEGIN`; from there on the stream carries messages, and the handler leaves the
/// pipeline. The bus checks the user of the socket's peer itself (SO_PEERCRED).
package final class DBusAuthenticationHandler: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer

    /// The longest line the server may send before `OK`.
    package static let maximumLineLength = 16 * 1024

    /// Succeeds once the server accepted and `BEGIN` was sent; fails when it refused or the
    /// connection closed first.
    package let authenticated: EventLoopPromise<Void>
    private var received = ByteBuffer()
    private var hasStarted = false

    package init(authenticated: EventLoopPromise<Void>) {
        self.authenticated = authenticated
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    package func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    /// The credentials byte and the initial response: the user ID in decimal, hex-encoded.
    private func start(context: ChannelHandlerContext) {
        guard !hasStarted else { return }
        hasStarted = true
        let user = String(getuid()).utf8.map { String($0, radix: 16) }.joined()
        var line = context.channel.allocator.buffer(capacity: 32)
        line.writeInteger(UInt8(0))
        line.writeString("AUTH EXTERNAL \(user)\r\n")
        context.writeAndFlush(NIOAny(line), promise: nil)
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        guard let end = received.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if received.readableBytes > Self.maximumLineLength { refuse(context, "an authentication line too long") }
            return
        }
        let length = end - received.readerIndex + 1
        var line = Substring(received.readString(length: length) ?? "")
        while let last = line.last, last == "\r" || last == "\n" { line = line.dropLast() }
        guard line.hasPrefix("OK ") || line == "OK" else {
            refuse(context, line.isEmpty ? "an empty answer" : "\"\(line.prefix(200))\"")
            return
        }
        var begin = context.channel.allocator.buffer(capacity: 7)
        begin.writeString("BEGIN\r\n")
        context.writeAndFlush(NIOAny(begin), promise: nil)
        authenticated.succeed()
        let rest = received
        received = ByteBuffer()
        if rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        authenticated.fail(DBusError.connection("the bus closed the connection while authenticating"))
        context.fireChannelInactive()
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        authenticated.fail(DBusError.connection("authenticating failed: \(error)"))
        context.fireErrorCaught(error)
    }

    private func refuse(_ context: ChannelHandlerContext, _ answer: String) {
        authenticated.fail(DBusError.connection("the bus refused the authentication as user \(getuid()): it answered \(answer)"))
        context.close(promise: nil)
    }
}
