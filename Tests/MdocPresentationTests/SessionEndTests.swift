import MdocBLE
import MdocCBOR
import MdocModel
import MdocPresentation
import MdocSession
import MdocTestPeers
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How sessions end (ISO/IEC 18013-5 9.1.1.4 status 20, 8.3.3.1.1.5 State 0x02): each
/// termination of the reader, the holder ending after its response, a status beside the
/// response, a cancelled task, a peer that goes away or never comes.
@Suite("How sessions end (ISO/IEC 18013-5 9.1.1.4, 8.3.3.1.1.5)", .timeLimit(.minutes(2)))
struct SessionEndTests {
    @Test(arguments: Air.allCases)
    func aReaderThatEndsWithStateOnlyLeavesANormalEnd(over air: Air) async throws {
        let holder = try demoHolder()
        let (presented, read) = await present(holder, to: try demoReader(of: holder, termination: .state), over: air.radios())
        #expect(read.report?.outcome == .verified)
        #expect(read.end == .session(.transportEnded), "\(read.end)")
        #expect(presented.end == .session(.transportEnded), "\(presented.end)")
    }

    @Test("when neither side ends the session, the first to go quiet ends it and both end normally")
    func neitherSideEnds() async throws {
        let quiet = SessionTimeouts(connection: .seconds(60), idle: .seconds(1), response: .seconds(60))
        let holder = try demoHolder(timeouts: quiet, clock: ManualClock())
        let readerClock = ManualClock()
        let readerEvents = EventLog<ReaderEvent>()
        let reader = try demoReader(of: holder, timeouts: quiet, termination: .wait, events: readerEvents, clock: readerClock)
        async let presenting = present(holder, to: reader, over: Air.sim.radios())
        // The reader has the response and waits for the end; neither side ends the session. The
        // reader's time runs out first.
        await readerEvents.wait { if case .received = $0 { true } else { false } }
        await readerClock.sleeping(dueWithin: quiet.idle)
        readerClock.advance(by: quiet.idle)
        let (presented, read) = await presenting
        #expect(read.report?.outcome == .verified)
        #expect(read.end.isNormalEnd, "\(read.end)")
        #expect(presented.end.isNormalEnd, "\(presented.end)")
    }

    @Test(arguments: Air.allCases)
    func aHolderThatEndsAfterItsResponseEndsTheReadersSession(over air: Air) async throws {
        let holder = try demoHolder(endsAfterResponse: true)
        let (presented, read) = await present(holder, to: try demoReader(of: holder, termination: .wait), over: air.radios())
        #expect(read.report?.outcome == .verified)
        #expect(read.end == .session(.terminatedByHolder), "\(read.end)")
        #expect(presented.end == .session(.terminatedByHolder), "\(presented.end)")
    }

    /// A conformance script that cannot make its departure from the response ends the holder's
    /// session as failed with its reason: nothing goes to the reader in the response's place,
    /// so a reader under test is never judged on a response the script did not make.
    @Test(arguments: Air.allCases)
    func aScriptThatCannotRewriteTheResponseEndsTheHoldersSessionAsFailed(over air: Air) async throws {
        var holder = try demoHolder()
        holder.script = HolderScript(response: { (_) throws(SessionError) in
            throw SessionError(.messageConstructionFailed, "the script could not make its departure")
        })
        let (presented, read) = await present(holder, to: try demoReader(of: holder, termination: .wait), over: air.radios())
        #expect(presented.end == .session(.failed(SessionError(.messageConstructionFailed, ""))), "\(presented.end)")
        #expect("\(presented.end)".contains("the script could not make its departure"), "\(presented.end)")
        #expect(read.response == nil)
        #expect(read.report == nil)
        #expect(!presented.messages.contains { $0.direction == .sent }, "\(presented.messages)")
    }

    @Test("status 20 beside the response ends the reader's session at once, State 0x02 first, whatever its termination")
    func statusBesideTheResponseEndsAtOnce() async throws {
        var holder = try HolderSession(credentials: [try DemoMaterial.mDL()], bleOptions: .offering(peripheralServerMode: true, centralClientMode: false))
        let reader = try ReaderDriver(
            uri: holder.mdocURI, request: ageOver18, trustAnchors: [try DemoMaterial.iaca()], timeouts: generousTimeouts,
            termination: .wait)
        let (holderEnd, readerEnd) = InMemoryTransport.pair(mode: .peripheralServer)
        async let read = reader.run(on: readerEnd)
        guard case .message(let establishment) = try await holderEnd.receive(),
              case .requestReceived(let request) = holder.receive(establishment),
              case .send(let response) = holder.decide(.all(requestedIn: request.deviceRequest)) else {
            Issue.record("the holder did not answer")
            return
        }
        var sessionData = try SessionData(encoded: response)
        sessionData.status = .sessionTermination
        try await holderEnd.send(sessionData.encoded())
        #expect(try await holderEnd.receive() == .ended)
        let result = await read
        #expect(result.report?.outcome == .verified)
        #expect(result.end == .session(.terminatedByHolder), "\(result.end)")
    }

    @Test("cancelling the holder's task while the holder decides ends the session with status 20")
    func cancellingTheHolder() async throws {
        let asked = EventLog<Bool>()
        let holder = try demoHolder(consent: HolderConsent { request in
            await asked.record(true)
            await untilCancelled()
            return request.allAvailable
        })
        let radios = Air.memory.radios()
        let presenting = Task { await holder.run(over: radios.holder) }
        async let read = try demoReader(of: holder).run(over: radios.reader)
        await asked.wait()
        presenting.cancel()
        let presented = await presenting.value
        let result = try await read
        #expect(presented.end == .session(.terminatedByHolder), "\(presented.end)")
        #expect(result.end == .session(.terminatedByHolder), "\(result.end)")
        #expect(result.report == nil)
    }

    @Test("cancelling the reader's task while it waits for the response ends the session with status 20")
    func cancellingTheReader() async throws {
        let asked = EventLog<Bool>()
        let holder = try demoHolder(consent: HolderConsent { request in
            await asked.record(true)
            await untilCancelled()
            return request.allAvailable
        })
        let radios = Air.sim.radios()
        async let presented = holder.run(over: radios.holder)
        let events = EventLog<ReaderEvent>()
        let reading = Task { try await demoReader(of: holder, events: events).run(over: radios.reader) }
        // The holder has the request and the reader's sending of it returned: it waits for
        // the response.
        await asked.wait()
        await readerWaitsForConsent(events)
        reading.cancel()
        let read = try await reading.value
        #expect(read.end == .session(.terminatedByReader), "\(read.end)")
        #expect(await presented.end == .session(.terminatedByReader))
    }

    @Test("a holder that goes away mid-session fails the reader at once, with nothing verified")
    func holderGoneMidSession() async throws {
        let asked = EventLog<Bool>()
        let holder = try demoHolder(consent: HolderConsent { request in
            await asked.record(true)
            await untilCancelled()
            return request.allAvailable
        })
        let radio = InMemoryRadio()
        async let presented = holder.run(over: radio)
        let reading = Task { try await demoReader(of: holder).run(over: radio) }
        await asked.wait()
        let gone = ContinuousClock.now
        await radio.close()
        let read = try await reading.value
        #expect(ContinuousClock.now - gone < .seconds(20), "the reader took \(ContinuousClock.now - gone) to notice")
        #expect(read.report == nil)
        #expect(!read.end.isNormalEnd, "\(read.end)")
        _ = await presented
    }

    @Test(arguments: Air.allCases)
    func aReaderWithoutAHolderGivesUpAtItsConnectionBoundAndSaysTheMdocIsBusyOrGone(over air: Air) async throws {
        let holder = try demoHolder()
        let reader = try demoReader(of: holder, timeouts: SessionTimeouts(connection: .seconds(1), idle: .seconds(60)))
        let started = ContinuousClock.now
        let read = await reader.run(over: air.radios().reader)
        #expect(ContinuousClock.now - started >= .milliseconds(900))
        #expect(read.end == .link(LinkError(.timeout, "")))
        #expect(read.end.description.hasPrefix("no mdoc on service "), "\(read.end)")
        #expect(read.end.description.contains("within 1 s: the mdoc is busy with another reader or gone"), "\(read.end)")
    }
}
