import MdocBLE
import MdocModel
import MdocPresentation
import MdocSession
import MdocTestPeers
import MdocTestSupport
import Testing

/// A person takes time to decide (ISO/IEC 18013-5 8.3.2.1.2.1): the reader's wait for the
/// response has a bound of its own, longer than its idle bound, and says it is waiting for the
/// holder's consent; the holder's question is withdrawn the moment the reader gives up or ends
/// the session.
@Suite("The holder's decision (ISO/IEC 18013-5 8.3.2.1.2.1)", .timeLimit(.minutes(1)))
struct ConsentWaitTests {
    /// A decision that waits until its task is cancelled, recording that it was asked and then
    /// cancelled.
    static func undecided(_ log: EventLog<String>) -> HolderConsent {
        HolderConsent { _ in
            await log.record("asked")
            await untilCancelled()
            await log.record("cancelled")
            return .none
        }
    }

    @Test("a decision longer than the reader's idle bound is waited for: the response bound covers it")
    func slowConsentIsWaitedFor() async throws {
        let events = EventLog<ReaderEvent>()
        let readerClock = ManualClock()
        // The person decides once the reader's time moved on 2 s, four times its idle bound.
        let holder = try demoHolder(consent: HolderConsent { request in
            await readerWaitsForConsent(events)
            await readerClock.sleeping()
            readerClock.advance(by: .seconds(2))
            return request.allAvailable
        })
        let reader = try demoReader(
            of: holder, timeouts: SessionTimeouts(connection: .seconds(60), idle: .milliseconds(500)), events: events, clock: readerClock)
        #expect(reader.timeouts.response == SessionTimeouts.standardConsentTime)
        let (_, read) = await present(holder, to: reader, over: Air.memory.radios())
        #expect(read.report?.outcome == .verified, "\(read.end)")
        #expect(events.all.contains(.waitingForConsent))
    }

    @Test("the reader's defaults give a person two minutes to decide")
    func readerDefaultsCoverAPersonsDecision() {
        #expect(SessionTimeouts.reader.response >= .seconds(120))
        #expect(SessionTimeouts.reader.response > SessionTimeouts.reader.idle)
    }

    @Test(arguments: Air.allCases)
    func theQuestionIsWithdrawnWhenTheReaderGivesUp(over air: Air) async throws {
        let log = EventLog<String>()
        let holderEvents = EventLog<HolderEvent>()
        let holder = try demoHolder(consent: Self.undecided(log), events: holderEvents)
        let readerEvents = EventLog<ReaderEvent>()
        let readerClock = ManualClock()
        let reader = try demoReader(
            of: holder, timeouts: SessionTimeouts(connection: .seconds(60), idle: .seconds(60), response: .milliseconds(500)),
            events: readerEvents, clock: readerClock)
        async let presenting = present(holder, to: reader, over: air.radios())
        await readerWaitsForConsent(readerEvents)
        await readerClock.sleeping(dueWithin: .milliseconds(500))
        readerClock.advance(by: .milliseconds(500))
        let (presented, read) = await presenting

        #expect(read.end.description == "no response from the mdoc within 0.5 s", "\(read.end)")
        #expect(log.all == ["asked", "cancelled"])
        guard case .session(.failed(let error)) = presented.end else {
            Issue.record("the holder's session did not fail: \(presented.end)")
            return
        }
        #expect(error.code == .transportEndedEarly)
        #expect(presented.disclosures.isEmpty)
        #expect(holderEvents.all.contains { if case .readerLeftDuringConsent = $0 { return true } else { return false } })
    }

    @Test("a reader that ends the session while the holder decides ends it normally, and the question is withdrawn")
    func theReaderEndsTheSessionDuringConsent() async throws {
        let log = EventLog<String>()
        let holderEvents = EventLog<HolderEvent>()
        let holder = try demoHolder(consent: Self.undecided(log), events: holderEvents)
        let radio = InMemoryRadio()
        async let presented = holder.run(over: radio)
        let reading = Task { try await demoReader(of: holder).run(over: radio) }
        await log.wait()
        reading.cancel()
        _ = try await reading.value
        let result = await presented

        #expect(result.end == .session(.terminatedByReader), "\(result.end)")
        #expect(log.all == ["asked", "cancelled"])
        #expect(holderEvents.all.contains {
            if case .readerLeftDuringConsent(.terminatedByReader) = $0 { return true } else { return false }
        })
    }
}
