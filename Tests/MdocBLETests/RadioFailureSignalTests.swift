import MdocBLE
import Testing

/// A radio's failure as an event (`MdocRadio.failure()`): every waiter learns it once it fires,
/// a waiter after it at once, and a cancelled waiter stops waiting.
@Suite struct RadioFailureSignalTests {
    @Test("every waiter gets the first failure; a later fire changes nothing")
    func waitersWake() async {
        let signal = RadioFailureSignal()
        let (started, ready) = AsyncStream.makeStream(of: Void.self)
        async let first = { ready.yield(); return await signal.failure() }()
        async let second = { ready.yield(); return await signal.failure() }()
        var iterator = started.makeAsyncIterator()
        await iterator.next()
        await iterator.next()
        signal.fail(BLEError(.transportUnavailable, "gone"))
        signal.fail(BLEError(.linkClosed, "closed later"))
        #expect(await first?.code == .transportUnavailable)
        #expect(await second?.code == .transportUnavailable)
        #expect(await signal.failure()?.reason == "gone")
    }

    @Test("a cancelled wait ends with nil, before and while waiting")
    func cancellation() async {
        let signal = RadioFailureSignal()
        let waiting = Task { await signal.failure() }
        waiting.cancel()
        #expect(await waiting.value == nil)
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await signal.failure()
        }
        #expect(await cancelledFirst.value == nil)
    }
}
