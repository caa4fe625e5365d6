/// A bounded first-in first-out queue with waiting consumers, kept inside an actor: the GATT
/// client's notifications and the server connection's events.
///
/// Items are delivered in order; after ``finish()`` the waiting and later consumers get nil once
/// the items are drained, after ``fail(_:)`` they get the error. Enqueuing beyond the limit does
/// not drop the item silently: the queue fails with `queueOverflow`.
struct AsyncEventQueue<Element: Sendable> {
    typealias Waiter = CheckedContinuation<Result<Element?, BLEError>, Never>

    /// The most items held before the consumer takes them.
    let limit: Int
    /// What the items are, for the overflow message.
    let itemName: String
    private var items: [Element] = []
    private var waiters: [Waiter] = []
    /// Set once: nil result (finished) or an error.
    private var end: Result<Element?, BLEError>?

    init(limit: Int, itemName: String) {
        self.limit = limit
        self.itemName = itemName
    }

    /// Hands `item` to the first waiting consumer or keeps it; ignored once the queue ended.
    mutating func enqueue(_ item: Element) {
        guard end == nil else { return }
        if !waiters.isEmpty {
            waiters.removeFirst().resume(returning: .success(item))
        } else if items.count < limit {
            items.append(item)
        } else {
            fail(BLEError(.queueOverflow,
                          "more than \(limit) \(itemName) arrived before the consumer took them; later ones are lost"))
        }
    }

    /// No more items will come: consumers get nil after the held items.
    mutating func finish() {
        close(with: .success(nil))
    }

    /// The queue failed: consumers get `error` after the held items.
    mutating func fail(_ error: BLEError) {
        close(with: .failure(error))
    }

    private mutating func close(with result: Result<Element?, BLEError>) {
        guard end == nil else { return }
        end = result
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume(returning: result) }
    }

    /// The next item or the end, when one is available without waiting.
    mutating func next() -> Result<Element?, BLEError>? {
        if !items.isEmpty { return .success(items.removeFirst()) }
        return end
    }

    /// Waits for the next item after ``next()`` returned nil.
    mutating func wait(_ waiter: Waiter) {
        if let result = next() {
            waiter.resume(returning: result)
        } else {
            waiters.append(waiter)
        }
    }
}
