// `mdoc-benchmark presentations --soak N`: a kiosk reader and a venue holder in one process, as
// the library's users run them: N whole presentations of the demo mDL (all its elements), each
// between a new HolderDriver and a new ReaderDriver over one in-memory radio, and the process's
// resident memory along the way. Over the second half of the run the memory must not grow by
// more than `growthBound` per 1,000 sessions, plus `growthAllowance` for the allocator's steps.
//
// The first half is the warm-up, for two things that grow at first and then hold steady. The
// Swift runtime keeps a `Task.sleep` that was cancelled (every session's timeouts, cancelled
// when the session ends in time) until its deadline would have come, about 1 KiB each: a process
// running sessions back to back grows for one timeout's worth of sessions. And glibc's arenas,
// one per thread that allocates, grow until each has met the session's peak: about 2 MiB over the
// first few thousand in-memory sessions here. Neither is a leak; a bound measured while they
// settle would take them for one.

import MdocBLE
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocPresentation
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum PresentationSoak {
    /// The most resident memory may grow per 1,000 sessions over the second half of the run, in
    /// KiB. A session that kept one 256-byte allocation would exceed it; after the warm-up the
    /// arenas grow by about 30 KiB per 1,000 sessions (30,000 sessions, debug build).
    static let growthBound = 256

    /// What resident memory may grow by over the second half besides ``growthBound`` per 1,000
    /// sessions, in KiB: the allocator grows in steps (an arena's next stretch of pages), up to
    /// about 1 MiB at once here, which a short run cannot average out.
    static let growthAllowance = 1024

    /// The sessions' connection, idle and response timeouts: long beside an in-memory session
    /// (milliseconds), short so that what the runtime keeps of cancelled sleeps settles soon.
    static let timeout: Duration = .seconds(2)

    /// The fewest sessions in the second half of the run for growth to be judged over it.
    static let judgedSessions = 1000

    /// The request of every mDL element (ISO/IEC 18013-5 7.2.1), none to be retained.
    static var everyElementOfTheDemoMDL: [DocRequestSpec] {
        var requested = OrderedMap<String, Bool>()
        for identifier in DataElementCatalogue.identifiers(in: NameSpace.mDL) { requested[identifier] = false }
        return [DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: requested])]
    }

    /// Runs `count` presentations; returns `false` when growth after the warm-up exceeded
    /// ``growthBound``.
    static func run(count: Int) async -> Bool {
        let (credential, iaca) = Checkout.demoMaterial()
        let request = everyElementOfTheDemoMDL
        let radio = InMemoryRadio()
        let timeouts = SessionTimeouts(connection: timeout, idle: timeout, response: timeout)

        let clock = ContinuousClock()
        let started = clock.now
        print("presentations: 0 of \(count): \(ProcessResources.current())")
        let half = count / 2
        var warm: (residentKiB: Int, elapsed: Duration)?
        let step = max(1, count / 10)
        for done in 1...count {
            await presentation(credential: credential, iaca: iaca, request: request, radio: radio, timeouts: timeouts)
            if done == half {
                let resources = ProcessResources.current()
                warm = (resources.residentKiB, clock.now - started)
                print("presentations: warmed up after \(done) (\(format(Stopwatch.microseconds(clock.now - started) / 1_000_000)) s): \(resources)")
            }
            if done % step == 0 || done == count {
                print("presentations: \(done) of \(count): \(ProcessResources.current())")
            }
        }
        let end = ProcessResources.current()
        guard let warm, count - half >= judgedSessions, warm.elapsed >= timeout * 2 else {
            print("presentations: \(count) presented; too few to judge growth (\(2 * judgedSessions) sessions and a first half "
                + "of \(timeout * 2) are needed)")
            return true
        }
        let growth = end.residentKiB - warm.residentKiB
        let limit = growthAllowance + growthBound * (count - half) / 1000
        print("presentations: \(count) presented; over the second half resident memory grew \(growth) KiB, "
            + "\(format(Double(growth) * 1000 / Double(count - half))) KiB per 1,000 sessions (limit \(limit) KiB: "
            + "\(growthAllowance) + \(growthBound) per 1,000): \(growth <= limit ? "within" : "EXCEEDED")")
        return growth <= limit
    }

    /// One presentation; ends the program when it fails or its response does not verify.
    private static func presentation(
        credential: Credential, iaca: Certificate, request: [DocRequestSpec], radio: InMemoryRadio, timeouts: SessionTimeouts
    ) async {
        let holder = prepare("a holder session") {
            try HolderDriver(
                credentials: [credential], bleOptions: .offering(peripheralServerMode: true, centralClientMode: false),
                trust: ReaderRootTrust(trustAnchors: []), consent: HolderConsent.approvingAllAvailable, timeouts: timeouts)
        }
        let reader = prepare("a reader session") {
            try ReaderDriver(uri: holder.mdocURI, request: request, trustAnchors: [iaca], timeouts: timeouts)
        }
        async let holderSide = holder.run(over: radio)
        let read = await reader.run(over: radio, mode: .peripheralServer)
        let presented = await holderSide
        guard read.end.isNormalEnd, presented.end.isNormalEnd else {
            fail("a presentation failed: reader: \(read.end); holder: \(presented.end)")
        }
        guard read.report?.outcome == .verified else { fail("the response did not verify") }
    }
}
