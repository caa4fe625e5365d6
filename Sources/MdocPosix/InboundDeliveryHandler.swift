import Glibc
import MdocBLE
import NIOCore

/// The last handler of a link's channel: it holds what the link receives until the consumer
/// attaches, then hands it each message as it arrives, on the event loop, and finally the end of
/// the link. A consumer that attaches later misses nothing: once ``limit`` messages wait for it,
/// the channel stops reading, the descriptor's buffer fills and the peer's writes wait (flow
/// control instead of unbounded memory) until the consumer attaches.
package final class InboundDeliveryHandler<Message>: ChannelInboundHandler {
    package typealias InboundIn = Message

    /// The consumer's two calls.
    private struct Consumer {
        let received: (Message) -> Void
        let ended: (Result<Void, BLEError>) -> Void
    }

    /// The most messages held before a consumer attached.
    package let limit: Int
    /// What the link is, for messages: "the sim link", "the HCI transport hci:tcp:…".
    package let linkName: String
    private var held = CircularBuffer<Message>()
    private var consumer: Consumer?
    /// How the link ended, once it did; given to the consumer after the messages.
    private var end: Result<Void, BLEError>?
    private var hasDeliveredEnd = false
    /// Whether reading stopped because ``limit`` messages wait.
    private var isHoldingBack = false
    /// Told when reading stops because ``limit`` messages wait (``holdingBack(on:)``).
    private var holdingBackPromise: EventLoopPromise<Void>?
    private var context: ChannelHandlerContext?

    /// A handler holding at most `limit` messages of the link called `linkName`.
    package init(limit: Int, linkName: String) {
        self.limit = limit
        self.linkName = linkName
    }

    /// How many messages wait for the consumer to attach.
    package var heldCount: Int { held.count }

    /// Succeeds once reading has stopped because ``limit`` messages wait, at once when it has
    /// (for tests of the flow control). On the channel's event loop, `eventLoop`.
    package func holdingBack(on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        if isHoldingBack { return eventLoop.makeSucceededVoidFuture() }
        let promise = holdingBackPromise ?? eventLoop.makePromise()
        holdingBackPromise = promise
        return promise.futureResult
    }

    /// Hands the held messages, every later one and then the link's end to `received` and
    /// `ended`. On the channel's event loop, once.
    package func attach(received: @escaping (Message) -> Void, ended: @escaping (Result<Void, BLEError>) -> Void) {
        precondition(consumer == nil, "a link has one consumer")
        consumer = Consumer(received: received, ended: ended)
        while let message = held.popFirst() { received(message) }
        deliverEnd()
        if isHoldingBack, let context {
            isHoldingBack = false
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
        }
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard end == nil else { return }
        let message = unwrapInboundIn(data)
        if let consumer {
            consumer.received(message)
            return
        }
        held.append(message)
        if held.count >= limit, !isHoldingBack {
            isHoldingBack = true
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
            holdingBackPromise?.succeed()
            holdingBackPromise = nil
        }
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        ended(Self.end(of: error, on: linkName))
        context.close(promise: nil)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        ended(.success(()))
    }

    /// The link ended with `result`, unless it ended before.
    private func ended(_ result: Result<Void, BLEError>) {
        guard end == nil else { return }
        end = result
        deliverEnd()
    }

    private func deliverEnd() {
        guard let consumer, let end, !hasDeliveredEnd, held.isEmpty else { return }
        hasDeliveredEnd = true
        consumer.ended(end)
    }

    /// How a link ends on `error`: a peer that reset or left the connection ends it like a close;
    /// the toolkit's own errors stay; other I/O errors become `systemCall`.
    private static func end(of error: any Error, on link: String) -> Result<Void, BLEError> {
        if let error = error as? BLEError { return .failure(error) }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNRESET, EPIPE, ENOTCONN: return .success(())
            default: return .failure(BLEError(.systemCall, "\(link) failed: \(error)"))
            }
        }
        if let error = error as? ChannelError, error == .ioOnClosedChannel || error == .alreadyClosed || error == .eof {
            return .success(())
        }
        return .failure(BLEError(.systemCall, "\(link) failed: \(error)"))
    }
}
