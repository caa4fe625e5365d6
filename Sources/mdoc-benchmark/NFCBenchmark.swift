// `mdoc-benchmark nfc`: the demo mDL presented in full by tap (ISO/IEC 18013-5 8.2.2.1, static
// handover) and retrieved over NFC (8.3.3.1.2) in this process: the holder's MdocHolder with its
// card (NFCCard: the NDEF Type 4 Tag and the data retrieval application) and the reader's
// NDEFTagReader and MdocReader session, through a channel that carries each command APDU to the
// card, with extended APDUs and with short ones only (command chaining and GET RESPONSE).
//
// Reported per APDU size, over `--sessions N` sessions: the command APDUs of the tap and of the
// retrieval, and wall times (median, p90) of the tap (engagement read), the retrieval (session
// establishment, request, consent, response, verification) and both; beside the protocol work
// the session cannot avoid, measured in the same run: the same session through the HolderSession
// and ReaderSession state machines with no transport (as `sessions --soak` runs it).

import MdocCrypto
import MdocModel
import MdocNFC
import MdocPresentation
import MdocSession
import NIOConcurrencyHelpers

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum NFCBenchmark {
    /// A channel to a card in this process, counting the command APDUs it carries.
    private struct CardChannel: NFCCommandChannel {
        let card: NFCCard
        let maximumCommandDataLength: Int
        let maximumResponseDataLength: Int
        let commands: NIOLockedValueBox<Int>

        func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU {
            commands.withLockedValue { $0 += 1 }
            return try ResponseAPDU(bytes: await card.respond(to: command.bytes))
        }
    }

    /// One session's figures, in microseconds and APDUs.
    private struct Figures {
        let tap: Double
        let retrieval: Double
        let tapCommands: Int
        let retrievalCommands: Int
    }

    static func run(sessions: Int, json: Bool) async {
        let (credential, iaca) = Checkout.demoMaterial()
        let request = PresentationSoak.everyElementOfTheDemoMDL
        let holder = MdocHolder(configuration: .init(
            credentials: [credential], bleOptions: { .offering(peripheralServerMode: true, centralClientMode: false) },
            readerTrust: ReaderRootTrust(trustAnchors: []), consent: HolderConsent.approvingAllAvailable))
        let reader = MdocReader(configuration: .init(request: request, trustAnchors: [iaca]))
        var results: [(name: String, figures: [Figures])] = []
        for (name, extended) in [("extended APDUs", true), ("short APDUs", false)] {
            var figures: [Figures] = []
            for _ in 0..<sessions {
                figures.append(await session(holder: holder, reader: reader, extended: extended))
            }
            results.append((name, figures))
        }
        let floor = Stopwatch(fixedIterations: nil).measure([
            Benchmark("session, state machines only", { SessionSoak.session(credential: credential, iaca: iaca, request: request) }, check: { true }),
        ])[0]
        report(results, floor: floor, json: json)
    }

    /// One tap and retrieval between a new engagement of `holder` and `reader`.
    private static func session(holder: MdocHolder, reader: MdocReader, extended: Bool) async -> Figures {
        let retrieval = NFCDataTransferApplication()
        let (tags, offered) = AsyncStream.makeStream(of: NDEFTagApplication.self)
        async let presented = holder.present(over: InMemoryRadio(), handover: .staticHandover, retrieval: retrieval) { _, tag in
            offered.yield(tag)
        }
        var next = tags.makeAsyncIterator()
        guard let tag = await next.next() else { fail("the holder offered no tag") }
        let commands = NIOLockedValueBox(0)
        let channel = CardChannel(
            card: NFCCard(ndefApplication: tag, dataTransferApplication: retrieval),
            maximumCommandDataLength: extended ? CommandAPDU.maximumExtendedDataLength : CommandAPDU.maximumShortDataLength,
            maximumResponseDataLength: extended ? CommandAPDU.maximumExtendedExpectedLength : CommandAPDU.maximumShortExpectedLength,
            commands: commands)
        let clock = ContinuousClock()
        let started = clock.now
        let engagement: NFCEngagement
        do {
            engagement = try await NDEFTagReader(channel: channel).engage(handoverRequest: reader.handoverRequest(nfcRetrieval: true))
        } catch {
            fail("the tap failed: \(error)")
        }
        let tapped = clock.now
        let tapCommands = commands.withLockedValue { $0 }
        let verdict: ReaderVerdict
        do {
            verdict = await (try reader.session(for: engagement)).run(overNFC: channel, shortAPDUsOnly: !extended)
        } catch {
            fail("no session for the engagement: \(error)")
        }
        let retrieved = clock.now
        guard verdict.verifiedDocuments != nil else { fail("the response did not verify: \(verdict)") }
        guard (try? await presented)?.end.isNormalEnd == true else { fail("the holder's session did not end normally") }
        return Figures(
            tap: Stopwatch.microseconds(tapped - started), retrieval: Stopwatch.microseconds(retrieved - tapped),
            tapCommands: tapCommands, retrievalCommands: commands.withLockedValue { $0 } - tapCommands)
    }

    private static func report(_ results: [(name: String, figures: [Figures])], floor: Measurement, json: Bool) {
        func measurement(_ values: [Double]) -> Measurement { Measurement(name: "", samples: values.sorted()) }
        if json {
            let objects = results.map { name, figures in
                let (tap, retrieval) = (measurement(figures.map(\.tap)), measurement(figures.map(\.retrieval)))
                let both = measurement(figures.map { $0.tap + $0.retrieval })
                return "{\"apdus\": \"\(name.split(separator: " ")[0])\", \"sessions\": \(figures.count), "
                    + "\"tapCommands\": \(figures[0].tapCommands), \"retrievalCommands\": \(figures[0].retrievalCommands), "
                    + "\"tapMedianMicroseconds\": \(rounded(tap.median)), \"retrievalMedianMicroseconds\": \(rounded(retrieval.median)), "
                    + "\"sessionMedianMicroseconds\": \(rounded(both.median)), \"sessionP90Microseconds\": \(rounded(both.p90)), "
                    + "\"sessionOverFloor\": \(rounded(both.median / floor.median))}"
            }
            print("{\"nfc\": {\"floorMedianMicroseconds\": \(rounded(floor.median)), \"runs\": [\(objects.joined(separator: ", "))]}}")
            return
        }
        print("The demo mDL (every element) by tap and NFC retrieval in this process; median and p90 in microseconds:")
        for (name, figures) in results {
            let (tap, retrieval) = (measurement(figures.map(\.tap)), measurement(figures.map(\.retrieval)))
            let both = measurement(figures.map { $0.tap + $0.retrieval })
            print("  \(name), \(figures.count) sessions, \(figures[0].tapCommands) command APDUs to tap, \(figures[0].retrievalCommands) to retrieve:")
            for (label, value) in [("tap (static handover read)", tap), ("retrieval (to the verified response)", retrieval), ("tap + retrieval", both)] {
                print("    \(pad(label, 42)) \(padLeft(format(value.median), 10)) \(padLeft(format(value.p90), 10))")
            }
            print("    tap + retrieval / the session's state machines alone: \(format(both.median / floor.median, digits: 2))x")
        }
        print("  \(pad(floor.name, 44)) \(padLeft(format(floor.median), 10)) \(padLeft(format(floor.p90), 10))")
    }
}
