import NIOCore

/// What a link received and its consumer has not taken yet, on the link's event loop: a bounded
/// first-in first-out queue, then the link's end, and the receives waiting for the next item.
///
/// Nothing is dropped silently: an item beyond ``limit`` fails the queue with `queueOverflow`.
/// After ``finish()`` receives get nil once the items are taken, after ``fail(_:)`` the error.
/// Every call is made on ``eventLoop``: by an actor that runs there, or by a channel handler.
package final class ReceiveQueue<Element: Sendable> {
    /// The event loop the queue lives on.
    package let eventLoop: any EventLoop
    /// The most items held before the consumer takes them.
    package let limit: Int
    /// What the items are, for the overflow message.
    package let itemName: String
    private var items = CircularBuffer<Element>()
    /// The receives waiting, in order, each with its number (for its timeout).
    private var waiters = CircularBuffer<(number: Int, promise: EventLoopPromise<Element?>)>()
    private var lastWaiter = 0
    /// Set once: nil (finished) or the error.
    private var end: Result<Element?, BLEError>?

    /// A queue on `eventLoop` of at most `limit` items called `itemName`.
    package init(on eventLoop: any EventLoop, limit: Int, itemName: String) {
        self.eventLoop = eventLoop
        self.limit = limit
        self.itemName = itemName
    }

    /// Whether the queue ended (finished or failed).
    package var hasEnded: Bool { end != nil }

    /// How many items wait to be taken.
    package var count: Int { items.count }

    /// Whether a receive waits for the next item.
    package var hasWaiters: Bool { !waiters.isEmpty }

    /// Hands `item` to the first waiting receive or keeps it; ignored once the queue ended.
    /// Returns false when the item was not taken (the queue had ended, or overflowed now).
    @discardableResult
    package func append(_ item: Element) -> Bool {
        eventLoop.preconditionInEventLoop()
        guard end == nil else { return false }
        if let waiter = waiters.popFirst() {
            waiter.promise.succeed(item)
        } else if items.count < limit {
            items.append(item)
        } else {
            fail(BLEError(.queueOverflow,
                          "more than \(limit) \(itemName) arrived before they were taken; later ones are lost"))
            return false
        }
        return true
    }

    /// No more items come: receives get nil after the held items.
    package func finish() {
        close(with: .success(nil))
    }

    /// The link failed: receives get `error` after the held items.
    package func fail(_ error: BLEError) {
        close(with: .failure(error))
    }

    private func close(with result: Result<Element?, BLEError>) {
        eventLoop.preconditionInEventLoop()
        guard end == nil else { return }
        end = result
        while let waiter = waiters.popFirst() { waiter.promise.completeWith(result.mapError { $0 as any Error }) }
    }

    /// The items still held, taken out of the queue; for an owner that ends the link.
    package func removeAll() -> [Element] {
        eventLoop.preconditionInEventLoop()
        defer { items.removeAll() }
        return Array(items)
    }

    /// The next item or the end when one is there without waiting: the item, nil once the queue
    /// finished, or its error; nil (no result) when a receive would wait.
    package func take() -> Result<Element?, BLEError>? {
        eventLoop.preconditionInEventLoop()
        if let item = items.popFirst() { return .success(item) }
        return end
    }

    /// The next item, nil once the queue finished and its items were taken, or the queue's
    /// error; while the queue is empty it waits, at most `timeout` when given, after which it
    /// fails with `timedOut()` and a later item stays for the next receive. Receives are
    /// answered in order.
    package func next(timeout: Duration? = nil, timedOut: @escaping @Sendable () -> BLEError = {
        BLEError(.timeout, "nothing arrived in time")
    }) -> EventLoopFuture<Element?> {
        waitForNext(timeout: timeout, timedOut: timedOut).future
    }

    /// ``next(timeout:timedOut:)`` with the number of the waiting receive, for ``cancel(_:with:)``.
    package func waitForNext(
        timeout: Duration?, timedOut: @escaping @Sendable () -> BLEError
    ) -> (waiter: Int, future: EventLoopFuture<Element?>) {
        lastWaiter += 1
        let number = lastWaiter
        if let ready = take() { return (number, eventLoop.makeCompletedFuture(ready.mapError { $0 as any Error })) }
        let promise = eventLoop.makePromise(of: Element?.self)
        waiters.append((number, promise))
        if let timeout {
            let queue = NIOLoopBound(self, eventLoop: eventLoop)
            let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                queue.value.cancel(number, with: timedOut())
            }
            promise.futureResult.whenComplete { _ in timer.cancel() }
        }
        return (number, promise.futureResult)
    }

    /// Ends the receive `waiter` with `error` when it still waits; a later item stays for the
    /// next receive.
    package func cancel(_ waiter: Int, with error: BLEError) {
        eventLoop.preconditionInEventLoop()
        guard let index = waiters.firstIndex(where: { $0.number == waiter }) else { return }
        waiters.remove(at: index).promise.fail(error)
    }

    /// The next item of `queue` for a task on any thread: as ``next(timeout:timedOut:)``, and a
    /// task cancelled while it waits gets `cancelled()`.
    package static func next(
        from queue: NIOLoopBound<ReceiveQueue>, timeout: Duration?, timedOut: @escaping @Sendable () -> BLEError,
        cancelled: @escaping @Sendable () -> BLEError
    ) async throws(BLEError) -> Element? {
        let eventLoop = queue.eventLoop
        let (waiter, future) = try await eventLoop.submit {
            queue.value.waitForNext(timeout: timeout, timedOut: timedOut)
        }.bleValue()
        let result: Result<Element?, BLEError> = await withTaskCancellationHandler {
            do throws(BLEError) {
                return .success(try await future.bleValue())
            } catch {
                return .failure(error)
            }
        } onCancel: {
            eventLoop.execute { queue.value.cancel(waiter, with: cancelled()) }
        }
        return try result.get()
    }
}
