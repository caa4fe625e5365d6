import MdocBLE
import NIOCore

/// A test's end of an ATT bearer, for a peer played by hand: it takes everything the bearer
/// receives and gives it out one PDU per ``receive()``, then nil at the end of the link.
package final class ATTBearerInbox: Sendable {
    /// The most PDUs held until they are taken.
    package static let limit = 1 << 16

    private let queue: NIOLoopBound<ReceiveQueue<[UInt8]>>

    /// Takes what `bearer` receives from now on; throws when the bearer's event loop has shut
    /// down.
    package init(_ bearer: any ATTBearer) async throws {
        queue = try await bearer.eventLoop.submit {
            let queue = ReceiveQueue<[UInt8]>(on: bearer.eventLoop, limit: Self.limit, itemName: "PDUs")
            bearer.attach(ATTBearerConsumer(
                received: { queue.append($0) },
                ended: { end in
                    switch end {
                    case .success: queue.finish()
                    case .failure(let error): queue.fail(error)
                    }
                }))
            return NIOLoopBound(queue, eventLoop: bearer.eventLoop)
        }.get()
    }

    /// Whether a ``receive()`` waits for the next PDU, for tests of what wakes it; throws when
    /// the bearer's event loop has shut down.
    package var isWaiting: Bool {
        get async throws {
            let queue = queue
            return try await queue.eventLoop.submit { queue.value.hasWaiters }.get()
        }
    }

    /// The next PDU, nil once the link ended and the PDUs before were taken; the link's error
    /// when it failed.
    package func receive() async throws(BLEError) -> [UInt8]? {
        try await ReceiveQueue.next(from: queue, timeout: nil, timedOut: { BLEError(.timeout, "") },
                                    cancelled: { BLEError(.linkClosed, "the receive was cancelled") })
    }
}
