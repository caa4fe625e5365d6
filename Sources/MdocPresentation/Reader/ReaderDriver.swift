import Logging
import MdocBLE
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs the mdoc reader's side of one session (ISO/IEC 18013-5 9.1.1 over the BLE transport of
/// 8.3.3.1.1): it finds the mdoc of a scanned engagement in a mode both offer, sends the request,
/// drives the `ReaderSession` state machine until the response is verified, ends the session
/// as ``termination`` says, and returns the report and how the session ended.
///
/// Every wait is bounded by ``SessionTimeouts`` inside: finding the mdoc, the response (which
/// waits for the holder's consent, ``SessionTimeouts/response``), and each message's progress.
/// Cancelling the task that runs the driver ends the session cleanly: status 20 and State 0x02
/// to the mdoc, then ``LiveSessionEnd/session(_:)`` with `SessionOutcome.terminatedByReader`.
package struct ReaderDriver: Sendable {
    /// The bounds of each wait.
    package var timeouts: SessionTimeouts
    /// How the session ends once the response is in.
    package var termination: ReaderTermination
    /// The BLE retrieval options a session over a radio chooses its mode from: the
    /// engagement's, or for an NFC engagement those of the Handover Select's carrier records
    /// (8.2.2.1).
    package let bleOptions: BleOptions?
    /// How the session departs from the one the state machine builds, on purpose; ``ReaderScript/asBuilt``
    /// unless a conformance test says otherwise.
    package var script = ReaderScript.asBuilt
    /// The ATT_MTU the reader takes and how it cuts its chunks, over a radio that lets it
    /// choose (`SessionLink`); ``MdocLinkSizing/standard`` unless a conformance test says
    /// otherwise.
    package var linkSizing = MdocLinkSizing.standard
    /// The value the reader's GATT server gives the Ident characteristic in mdoc central client
    /// mode (8.3.3.1.1.4); `nil`: the one derived from the engagement's EDeviceKeyBytes, as
    /// 18013-5 has it. A conformance test serves another, to see whether the mdoc checks it.
    package var servedIdent: [UInt8]?

    private let session: ReaderSession
    private let events: @Sendable (ReaderEvent) async -> Void
    private let logger: Logger
    private let clock: any Clock<Duration>

    /// A driver for the session `session` describes: the engagement, the request, reader
    /// authentication and the trust responses are verified against. A session over a radio
    /// finds the mdoc with `bleOptions`, the engagement's when `nil`. The bounds of the session
    /// (``SessionTimeouts``, the wait for the mdoc included) are measured on `clock`.
    package init(
        session: ReaderSession, bleOptions: BleOptions? = nil, timeouts: SessionTimeouts = .reader,
        termination: ReaderTermination = .status, logger: Logger = Logger(label: "mdoc.ble"),
        events: @escaping @Sendable (ReaderEvent) async -> Void = { _ in }, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.session = session
        self.bleOptions = bleOptions ?? session.deviceEngagement.value.bleOptions
        self.timeouts = timeouts
        self.termination = termination
        self.logger = logger
        self.events = events
        self.clock = clock
    }

    /// A driver asking the mdoc that showed `uri` for `request`, verifying the response against
    /// `trustAnchors` (IACA certificates) at the time `now` gives, its bounds measured on
    /// `clock`; see `ReaderSession` for the other parameters.
    package init(
        uri: MdocURI, request: [DocRequestSpec], readerAuthentication: (key: PrivateKey, chain: [Certificate])? = nil,
        trustAnchors: [Certificate], documentSignerPolicy: DocumentSignerPolicy = .standard,
        now: @escaping @Sendable () -> Date = { Date() }, timeouts: SessionTimeouts = .reader,
        termination: ReaderTermination = .status, logger: Logger = Logger(label: "mdoc.ble"),
        events: @escaping @Sendable (ReaderEvent) async -> Void = { _ in }, clock: any Clock<Duration> = ContinuousClock()
    ) throws(SessionError) {
        self.init(
            session: try ReaderSession(
                uri: uri, request: request, readerAuthentication: readerAuthentication, trustAnchors: trustAnchors,
                documentSignerPolicy: documentSignerPolicy, now: now),
            timeouts: timeouts, termination: termination, logger: logger, events: events, clock: clock)
    }

    /// The mode a session over a radio uses: `preferred` when the engagement offers it, else the
    /// engagement's first (``SessionLink/readerMode(for:preferring:)``).
    package func mode(preferring preferred: MdocBLEMode?) throws(LinkError) -> MdocBLEMode {
        guard let options = bleOptions else {
            throw LinkError(.noCommonMode, "the engagement offers no BLE retrieval method")
        }
        return try SessionLink.readerMode(for: options, preferring: preferred)
    }

    /// Finds the mdoc over `radio` in `mode` (``mode(preferring:)`` with no preference when
    /// `nil`), within ``SessionTimeouts/connection``, and runs the session.
    package func run(over radio: any MdocRadio, mode preferred: MdocBLEMode? = nil) async -> ReaderSessionResult {
        let mode: MdocBLEMode
        do {
            mode = try self.mode(preferring: preferred)
        } catch {
            return ReaderSessionResult(end: .link(error), mode: nil, report: nil, response: nil)
        }
        guard let options = bleOptions, let uuid = SessionLink.serviceUUID(of: mode, in: options) else {
            return ReaderSessionResult(
                end: .link(LinkError(.noCommonMode, "the mdoc does not offer \(mode.rawValue) mode")), mode: nil, report: nil, response: nil)
        }
        await events(.connecting(mode, serviceUUID: uuid))
        let link: any MdocTransport
        do {
            link = try await SessionLink.reader(
                over: radio, options: options, mode: mode, ident: servedIdent ?? session.bleIdent, sizing: linkSizing, timeout: timeouts.connection,
                clock: clock, logger: logger)
        } catch {
            let end = Task.isCancelled ? LinkError(.cancelled, "the session was cancelled while looking for the mdoc") : error
            return ReaderSessionResult(end: .link(end), mode: mode, report: nil, response: nil)
        }
        return await run(on: link)
    }

    /// Runs the session on `transport`, a link to the mdoc on which the session started, until
    /// it ends; the transport is closed when this returns.
    package func run(on transport: any MdocTransport) async -> ReaderSessionResult {
        var session = self.session
        var report: VerificationReport?
        var response: DeviceResponse?
        var messages: [LinkMessage] = []
        var mtu: Int?
        let script = self.script
        var establishment: [UInt8]?
        var followedUp = false
        let end = await DriverLink.run(transport, timeouts: timeouts, clock: clock) { link, _ -> LiveSessionEnd in
            var action: ReaderAction
            do throws(SessionError) {
                action = try session.start()
            } catch {
                await link.finish(sending: nil)
                return .session(.failed(error))
            }
            var reportedConnection = false
            while true {
                let first: Duration
                let what: String
                switch action {
                case .send(let built):
                    let bytes = establishment == nil ? script.establishment(built) : built
                    if establishment == nil { establishment = bytes }
                    do throws(LinkError) {
                        try await link.send(bytes, sending: "the message to the mdoc")
                    } catch {
                        return .link(error)
                    }
                    messages.append(LinkMessage(direction: .sent, bytes: bytes, time: Date()))
                    if !reportedConnection {
                        // After the first send the GATT client has exchanged MTUs in either mode.
                        let exchanged = await transport.mtu
                        mtu = exchanged
                        await events(.connected(mtu: exchanged))
                        reportedConnection = true
                    }
                    await events(.requestSent(bytes: bytes.count))
                    await events(.waitingForConsent)
                    (first, what) = (timeouts.response, "response from the mdoc")
                case .received(let verified, let decoded):
                    report = verified
                    response = decoded
                    // A status beside the response (20 from a holder that ends the session with
                    // it) ended the session (9.1.1.4): the transport ends now, State 0x02 first,
                    // whatever the termination asked.
                    if session.isFinished {
                        action = session.terminate()
                        continue
                    }
                    if !followedUp, let establishment, let message = script.followUp(establishment) {
                        followedUp = true
                        do throws(LinkError) {
                            try await link.send(message, sending: "the scripted message to the mdoc")
                        } catch {
                            return .link(error)
                        }
                        messages.append(LinkMessage(direction: .sent, bytes: message, time: Date()))
                        (first, what) = (timeouts.response, "answer to the scripted message")
                        break
                    }
                    if let leaving = script.terminationLeavingChannel {
                        return await Self.terminate(leaving, session: &session, link: &link, transport: transport, messages: &messages,
                                                    within: timeouts.idle)
                    }
                    switch termination {
                    case .status:
                        action = session.terminate()
                        continue
                    case .state:
                        await link.finish(sending: nil)
                        return .session(Self.outcome(of: session.transportEnded()))
                    case .wait:
                        (first, what) = (timeouts.idle, "end of the session")
                    }
                case .sendAndFinish(let bytes, let outcome):
                    messages.append(LinkMessage(direction: .sent, bytes: bytes, time: Date()))
                    return await link.end(sending: bytes, outcome)
                case .finished(let outcome):
                    return await link.end(sending: nil, outcome)
                }
                switch await link.next(within: first, awaiting: what) {
                case .event(.message(let bytes)):
                    messages.append(LinkMessage(direction: .received, bytes: bytes, time: Date()))
                    // A SessionData with a status and no data (9.1.1.4: 20 ends the session) is
                    // no response to show as received; the session says how it ended.
                    if (try? SessionData(cbor: CBOR.decode(bytes), at: .root))?.data != nil {
                        await events(.received(bytes: bytes.count))
                    }
                    action = session.receive(bytes)
                case .event(.ended), .event(.disconnected):
                    action = session.transportEnded()
                case .failed(let error):
                    // With the response in hand, an mdoc that never ends the session is no
                    // failure; the wait's end already ended the link, State 0x02 first.
                    guard report != nil else { return .link(error) }
                    await events(.mdocWentQuiet(error))
                    return .session(Self.outcome(of: session.transportEnded()))
                case .cancelled:
                    action = session.terminate()
                }
            }
        }
        return ReaderSessionResult(end: end, mode: transport.mode, report: report, response: response, messages: messages, mtu: mtu)
    }

    /// Ends the session by `leaving` alone (9.1.1.4: SessionData of status 20, or State 0x02
    /// through a transport that can send it and keep the link, 8.3.3.1.1.5), then waits at most
    /// `bound` for the mdoc to close the channel: `.session(.terminatedByReader)` once it did,
    /// the wait's failure when it did not. What the mdoc sends meanwhile is only recorded in
    /// `messages`: the session is over for the reader.
    private static func terminate(
        _ leaving: ReaderScript.Termination, session: inout ReaderSession, link: inout DriverLink, transport: any MdocTransport,
        messages: inout [LinkMessage], within bound: Duration
    ) async -> LiveSessionEnd {
        let sent: String
        switch leaving {
        case .statusOnly:
            let ending = session.terminate()
            guard case .sendAndFinish(let status, _) = ending else { return await link.end(sending: nil, outcome(of: ending)) }
            do throws(LinkError) {
                try await link.send(status, sending: "the status message")
            } catch {
                return .link(error)
            }
            messages.append(LinkMessage(direction: .sent, bytes: status, time: Date()))
            sent = "status 20"
        case .stateOnly:
            guard let signalling = transport as? any MdocStateEndSignalling else {
                await link.finish(sending: nil)
                return .link(LinkError(.unsupportedTransport, "this transport cannot send State 0x02 and keep the link"))
            }
            do throws(BLEError) {
                try await signalling.signalStateEnd()
            } catch {
                await link.finish(sending: nil)
                return .link(SessionLink.linkError(error, "sending State 0x02"))
            }
            sent = "State 0x02"
        }
        return await link.awaitPeerEnd(
            within: bound, awaiting: "end of the link by the mdoc after \(sent)", messages: &messages, .terminatedByReader)
    }

    /// How the session ended, from what `ReaderSession.transportEnded()` returned.
    private static func outcome(of action: ReaderAction) -> SessionOutcome {
        switch action {
        case .finished(let outcome), .sendAndFinish(_, let outcome):
            return outcome
        case .send, .received:
            return .transportEnded
        }
    }
}
