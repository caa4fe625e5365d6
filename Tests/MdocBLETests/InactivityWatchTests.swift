import MdocBLE
import MdocTestSupport
import Testing

/// The inactivity bounds of a transport's receiving side (ISO/IEC 18013-5 8.3.3.1.1.6), in
/// virtual time: the first bound until a chunk arrives, then the idle bound from the last chunk,
/// and the message bound from the first, whichever runs out first.
@Suite("InactivityWatch: the bounds of a wait for the next message (ISO/IEC 18013-5 8.3.3.1.1.6)", .timeLimit(.minutes(1)))
struct InactivityWatchTests {
    /// A wait on a fresh watch with the bounds in seconds, started once it sleeps on the clock.
    static func wait(
        first: Int, idle: Int, message: Int, clock: ManualClock, watch: InactivityWatch = InactivityWatch()
    ) async -> Task<Inactivity?, Never> {
        let wait = Task {
            await watch.expiry(first: .seconds(first), idle: .seconds(idle), message: .seconds(message), clock: clock)
        }
        await clock.sleeping()
        return wait
    }

    @Test("nothing arrives: the first bound runs out, not before")
    func silent() async {
        let clock = ManualClock()
        let wait = await Self.wait(first: 10, idle: 30, message: 300, clock: clock)
        clock.advance(by: .seconds(9))
        await clock.sleeping()
        clock.advance(by: .seconds(1))
        #expect(await wait.value == .silent)
        #expect(clock.now.offset == .seconds(10))
    }

    @Test("chunks that arrive early put the message under the idle bound from the last one")
    func stalled() async {
        let clock = ManualClock()
        let watch = InactivityWatch()
        let wait = await Self.wait(first: 120, idle: 30, message: 300, clock: clock, watch: watch)
        clock.advance(by: .seconds(5))
        watch.chunkArrived()
        clock.advance(by: .seconds(25))
        // The watch looked at 30 s, and now waits until 30 s after the chunk.
        await clock.sleeping()
        clock.advance(by: .seconds(4))
        await clock.sleeping()
        #expect(clock.sleepers == 1)
        clock.advance(by: .seconds(1))
        #expect(await wait.value == .stalled)
        #expect(clock.now.offset == .seconds(35))
    }

    @Test("a peer that keeps sending meets the message bound, counted from its first chunk")
    func overlong() async {
        let clock = ManualClock()
        let watch = InactivityWatch()
        let wait = await Self.wait(first: 10, idle: 10, message: 25, clock: clock, watch: watch)
        for _ in 0..<40 {
            watch.chunkArrived()
            clock.advance(by: .seconds(1))
        }
        #expect(await wait.value == .overlong)
    }

    @Test("chunks from before the wait do not count, and a cancelled wait says nothing")
    func earlierChunksAndCancellation() async {
        let clock = ManualClock()
        let watch = InactivityWatch()
        watch.chunkArrived()
        let wait = await Self.wait(first: 10, idle: 5, message: 300, clock: clock, watch: watch)
        clock.advance(by: .seconds(10))
        #expect(await wait.value == .silent)

        let cancelled = await Self.wait(first: 10, idle: 10, message: 300, clock: clock, watch: watch)
        cancelled.cancel()
        #expect(await cancelled.value == nil)
    }
}
