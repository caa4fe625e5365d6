import MdocBLE
import MdocModel
import MdocPresentation
import MdocSession
import MdocTestPeers
import MdocTestSupport
import Testing

/// A second reader on an engagement already in use (ISO/IEC 18013-5 8.3.3.1.1.4): once the
/// session started nobody advertises the engagement's service any more (the mdoc in peripheral
/// server mode, the first reader in central client mode), and nothing on the air tells a busy
/// mdoc from a gone one, so the second reader says it is one or the other when its connection
/// bound runs out. Two readers that serve the service at once in central client mode, before
/// the mdoc connected, meet each other: the second is told at once.
@Suite("An engagement already in use (ISO/IEC 18013-5 8.3.3.1.1.4)", .timeLimit(.minutes(1)))
struct BusyMdocTests {
    @Test(arguments: Air.allCases, MdocBLEMode.allCases)
    func aSecondReaderIsToldTheMdocIsBusyOrGone(over air: Air, in mode: MdocBLEMode) async throws {
        let asked = EventLog<Bool>()
        let holder = try demoHolder(modes: [mode], consent: HolderConsent { request in
            await asked.record(true)
            await untilCancelled()
            return request.allAvailable
        })
        let radios = air.radios()
        let presenting = Task { await holder.run(over: radios.holder) }
        let first = Task { try await demoReader(of: holder).run(over: radios.reader) }
        await asked.wait()

        // The connection bound runs out in virtual time, in memory and over sim alike.
        let clock = ManualClock()
        let second = try demoReader(of: holder, timeouts: SessionTimeouts(connection: .seconds(1), idle: .seconds(60)), clock: clock)
        async let reading = second.run(over: air.radios().reader)
        await clock.sleeping(dueWithin: .seconds(1))
        clock.advance(by: .seconds(1))
        let read = await reading
        let waited = clock.now.offset
        presenting.cancel()
        _ = await presenting.value
        _ = try await first.value

        #expect(read.end == .link(LinkError(.timeout, "")), "\(read.end)")
        #expect(read.end.description.contains("within 1 s: the mdoc is busy with another reader or gone"), "\(read.end)")
        #expect(waited >= .milliseconds(900), "\(waited)")
    }

    @Test(arguments: Air.allCases)
    func twoReadersServingOneEngagementAtOnceAreToldAtOnce(over air: Air) async throws {
        let holder = try demoHolder(modes: [.centralClient])
        let bounds = SessionTimeouts(connection: .seconds(2), idle: .seconds(60))
        // The connection bound runs out in virtual time, in memory and over sim alike.
        let clock = ManualClock()
        let radio = air.radios().reader
        let ends = try await withThrowingTaskGroup(of: LiveSessionEnd.self) { group in
            for _ in 0..<2 {
                group.addTask { await (try demoReader(of: holder, timeouts: bounds, clock: clock)).run(over: radio).end }
            }
            var ends: [LiveSessionEnd] = []
            if let told = try await group.next() { ends.append(told) }
            await clock.sleeping(dueWithin: bounds.connection)
            clock.advance(by: bounds.connection)
            while let end = try await group.next() { ends.append(end) }
            return ends
        }

        // The one that came second was told at once; the other served the service until its
        // bound ran out, since no mdoc came.
        let busy = try #require(ends.first { $0 == .link(LinkError(.busy, "")) }, "\(ends)")
        #expect(busy.description.hasPrefix("the mdoc is busy: another reader serves service "), "\(busy)")
        #expect(ends.contains(.link(LinkError(.timeout, ""))), "\(ends)")
    }
}
