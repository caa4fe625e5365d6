// `mdoc-benchmark sessions --soak N`: N whole ISO/IEC 18013-5 sessions between a HolderSession
// and a ReaderSession on this thread, with no transport: the engagement (8.2), the reader's
// SessionEstablishment with its request and the holder's session keys (9.1.1.4, 9.1.1.5),
// consent to every element of the demo mDL, the response with its DeviceMac, its verification,
// and the termination (status 20). It is the protocol work of a presentation without the radio
// and its tasks, for counts of instructions and allocations (scripts/perf-gates.py) that do not
// depend on scheduling; valgrind 3.19 cannot run the in-memory radio's tasks.

import MdocCrypto
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum SessionSoak {
    /// Runs `count` sessions, printing resident memory and open descriptors at the start and
    /// after each tenth of the run; ends the program when a session fails or a response does
    /// not verify.
    static func run(count: Int) {
        let (credential, iaca) = Checkout.demoMaterial()
        let request = PresentationSoak.everyElementOfTheDemoMDL
        print("sessions: 0 of \(count): \(ProcessResources.current())")
        let step = max(1, count / 10)
        for done in 1...count {
            session(credential: credential, iaca: iaca, request: request)
            if done % step == 0 || done == count {
                print("sessions: \(done) of \(count): \(ProcessResources.current())")
            }
        }
    }

    /// One session, from the engagement to the reader's termination.
    static func session(credential: Credential, iaca: Certificate, request: [DocRequestSpec]) {
        var holder = prepare("a holder session") {
            try HolderSession(credentials: [credential], bleOptions: .offering(peripheralServerMode: true, centralClientMode: false))
        }
        var reader = prepare("a reader session") {
            try ReaderSession(engagement: holder.deviceEngagement, request: request, trustAnchors: [iaca], now: { Date() })
        }
        guard case .send(let establishment) = prepare("the SessionEstablishment", { try reader.start() }),
              case .requestReceived(let received) = holder.receive(establishment),
              case .send(let response) = holder.decide(.all(requestedIn: received.deviceRequest)),
              case .received(let report, _) = reader.receive(response)
        else {
            fail("a session did not reach its response")
        }
        guard report.outcome == .verified else { fail("the response did not verify") }
        guard case .sendAndFinish(let termination, _) = reader.terminate(), case .finished = holder.receive(termination) else {
            fail("a session did not end with the reader's termination")
        }
    }
}
