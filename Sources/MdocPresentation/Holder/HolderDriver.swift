import Logging
import MdocBLE
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocNFC
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs the mdoc's side of one presentation (ISO/IEC 18013-5 9.1.1 over the BLE transport of
/// 8.3.3.1.1): it makes the engagement, waits for a reader in the modes offered, drives the
/// `HolderSession` state machine with what arrives, asks the delegates who is asking and what
/// to release, and returns how the session ended.
///
/// Every wait is bounded by ``SessionTimeouts`` inside, except the holder's decision, which a
/// person may take their time over; the reader ending the session or leaving meanwhile cancels
/// it. Cancelling the task that runs the driver ends the session cleanly: status 20 and State
/// 0x02 to the reader, then ``LiveSessionEnd/session(_:)`` with
/// `SessionOutcome.terminatedByHolder`.
///
/// A driver is one engagement; applications use ``MdocHolder``, which makes a new one, with a
/// fresh ephemeral key, for each reader and runs it once.
package struct HolderDriver: Sendable {
    /// The documents presented.
    package let credentials: [Credential]
    /// The bounds of each wait.
    package var timeouts: SessionTimeouts
    /// Whether the holder ends the session as soon as a response is delivered (as ``ending``
    /// says: status 20, then State 0x02, unless a conformance test says otherwise), instead of
    /// waiting for the reader's next request or end.
    package var endsAfterResponse: Bool
    /// How the holder ends the session once a response is delivered, when it does
    /// (``endsAfterResponse``); ``HolderEnding/status`` unless a conformance test of a reader
    /// says otherwise.
    package var ending = HolderEnding.status

    /// How the engagement reached the reader, asked once a reader has started a session: an
    /// NFC handover for the SessionTranscript, or `nil` for the QR code's (9.1.5.1).
    package var handover: @Sendable () async -> Handover? = { nil }
    /// The NFC data retrieval application a tag of the engagement offers (8.3.3.1.2): a reader
    /// may start the session there instead of over BLE.
    package var nfcRetrieval: NFCDataTransferApplication?
    /// How the session departs from the one the state machine builds, on purpose; ``HolderScript/asBuilt``
    /// unless a conformance test of a reader says otherwise.
    package var script = HolderScript.asBuilt
    /// The ATT_MTU the holder takes and how it cuts its chunks, over a radio that lets it
    /// choose (`SessionLink`); ``MdocLinkSizing/standard`` unless a conformance test of a reader
    /// says otherwise.
    package var linkSizing = MdocLinkSizing.standard

    private let session: HolderSession
    private let trust: any ReaderTrustDelegate
    private let consent: any HolderConsentDelegate
    private let events: @Sendable (HolderEvent) async -> Void
    private let logger: Logger
    private let clock: any Clock<Duration>

    /// A new engagement presenting `credentials`.
    ///
    /// - Parameters:
    ///   - credentials: the documents the holder can present, at most one per docType is used.
    ///   - bleOptions: the BLE modes and service UUIDs to offer, such as
    ///     `BleOptions.offering(peripheralServerMode:centralClientMode:)`.
    ///   - eDeviceKey: the ephemeral device key; a new P-256 key when `nil`.
    ///   - responseBuilder: how responses are built (the device authentication policy).
    ///   - trust: who is asking: the reader authentication policy.
    ///   - consent: what is released.
    ///   - timeouts: the bounds of each wait.
    ///   - endsAfterResponse: whether to end the session once a response is delivered.
    ///   - logger: where the BLE layers log.
    ///   - events: told what happens, for progress; the session waits while it runs.
    ///   - clock: what the bounds of the session (``SessionTimeouts``, the wait for a reader
    ///     included) are measured on.
    /// - Throws: `SessionError` when the options offer no usable mode or the key cannot agree
    ///   keys.
    package init(
        credentials: [Credential], bleOptions: BleOptions, eDeviceKey: PrivateKey? = nil,
        responseBuilder: ResponseBuilder = ResponseBuilder(), trust: any ReaderTrustDelegate,
        consent: any HolderConsentDelegate, timeouts: SessionTimeouts = .holder, endsAfterResponse: Bool = false,
        logger: Logger = Logger(label: "mdoc.ble"), events: @escaping @Sendable (HolderEvent) async -> Void = { _ in },
        clock: any Clock<Duration> = ContinuousClock()
    ) throws(SessionError) {
        try self.init(
            credentials: credentials, bleOptions: bleOptions, eDeviceKey: eDeviceKey, additionalEngagementEntries: CBORMap(),
            responseBuilder: responseBuilder, trust: trust, consent: consent, timeouts: timeouts,
            endsAfterResponse: endsAfterResponse, logger: logger, events: events, clock: clock)
    }

    /// A new engagement presenting `credentials` whose DeviceEngagement has the version
    /// `engagementVersion` and also holds `additionalEngagementEntries`, with keys 18013-5 does
    /// not define (8.2.1.1 `* int => any`): a conformance test of a reader, which must take such
    /// an engagement, and one of an unknown minor version (8.1). The other parameters are those
    /// of the initialiser without them.
    package init(
        credentials: [Credential], bleOptions: BleOptions, eDeviceKey: PrivateKey? = nil, engagementVersion: String = "1.0",
        additionalEngagementEntries: CBORMap,
        responseBuilder: ResponseBuilder = ResponseBuilder(), trust: any ReaderTrustDelegate,
        consent: any HolderConsentDelegate, timeouts: SessionTimeouts = .holder, endsAfterResponse: Bool = false,
        logger: Logger = Logger(label: "mdoc.ble"), events: @escaping @Sendable (HolderEvent) async -> Void = { _ in },
        clock: any Clock<Duration> = ContinuousClock()
    ) throws(SessionError) {
        self.session = try HolderSession(
            credentials: credentials, eDeviceKey: eDeviceKey, bleOptions: bleOptions, responseBuilder: responseBuilder,
            engagementVersion: engagementVersion, additionalEngagementEntries: additionalEngagementEntries)
        self.credentials = credentials
        self.trust = trust
        self.consent = consent
        self.timeouts = timeouts
        self.endsAfterResponse = endsAfterResponse
        self.logger = logger
        self.events = events
        self.clock = clock
    }

    /// DeviceEngagementBytes of this engagement (8.2.1.1).
    package var deviceEngagement: EmbeddedCBOR<DeviceEngagement> { session.deviceEngagement }

    /// The `mdoc:` URI to show as a QR code (8.2.2.3).
    package var mdocURI: MdocURI { session.mdocURI }

    /// The modes the engagement offers.
    package var modes: [MdocBLEMode] {
        guard let options = session.deviceEngagement.value.bleOptions else { return [] }
        return MdocBLEMode.allCases.filter { SessionLink.serviceUUID(of: $0, in: options) != nil }
    }

    /// Waits over `radio` for a reader in any mode the engagement offers, within
    /// ``SessionTimeouts/connection``, and runs the session with the first that starts one;
    /// with ``nfcRetrieval``, a reader that sends its first message over NFC instead starts it
    /// there (8.3.3.1.2), and the wait over BLE ends.
    package func run(over radio: any MdocRadio) async -> HolderSessionResult {
        guard let options = session.deviceEngagement.value.bleOptions else {
            return HolderSessionResult(
                end: .link(LinkError(.noCommonMode, "the engagement offers no BLE retrieval method")), mode: nil, disclosures: [])
        }
        await events(.waiting(modes))
        logger.debug("Ident computed from EDeviceKeyBytes (HKDF \"BLEIdent\", 8.3.3.1.1.4)",
                     metadata: ["ident": "\(Hex.encode(session.bleIdent))"])
        let link: any MdocTransport
        do throws(LinkError) {
            link = try await firstLink(over: radio, options: options)
        } catch {
            let end = Task.isCancelled ? LinkError(.cancelled, "the session was cancelled while waiting for a reader") : error
            return HolderSessionResult(end: .link(end), mode: nil, disclosures: [])
        }
        await events(.connected(link.mode))
        return await run(on: link)
    }

    /// The link of the first reader to start a session: over BLE, or over NFC when the
    /// engagement offers NFC data retrieval.
    private func firstLink(over radio: any MdocRadio, options: BleOptions) async throws(LinkError) -> any MdocTransport {
        let (ident, sizing, timeouts, clock, logger) = (session.bleIdent, linkSizing, self.timeouts, self.clock, self.logger)
        guard let application = nfcRetrieval else {
            return try await SessionLink.holder(
                over: radio, options: options, ident: ident, sizing: sizing, timeout: timeouts.connection, clock: clock, logger: logger)
        }
        let first = await withTaskGroup(of: Result<any MdocTransport, LinkError>?.self) { group in
            group.addTask {
                do throws(LinkError) {
                    return .success(try await SessionLink.holder(
                        over: radio, options: options, ident: ident, sizing: sizing, timeout: timeouts.connection, clock: clock,
                        logger: logger))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                // The first message of a reader that selected the application; nil when the
                // wait over BLE ended first.
                guard let message = try? await application.receive() else { return nil }
                return .success(NFCHolderTransport(application: application, first: message))
            }
            defer { group.cancelAll() }
            while let arrival = await group.next() {
                if let arrival { return arrival }
            }
            return Result<any MdocTransport, LinkError>.failure(LinkError(.cancelled, "no reader came"))
        }
        return try first.get()
    }

    /// Runs the session on `transport`, a link a reader has started, until it ends; the
    /// transport is closed when this returns.
    package func run(on transport: any MdocTransport) async -> HolderSessionResult {
        var session = self.session
        if let handover = await handover() {
            // A session that has received nothing awaits the SessionEstablishment: this
            // cannot throw.
            try? session.engaged(through: handover)
        }
        var disclosures: [HolderSessionResult.Disclosure] = []
        var messages: [LinkMessage] = []
        var transportTerminated = false
        let end = await DriverLink.run(transport, timeouts: timeouts, clock: clock) { link, group -> LiveSessionEnd in
            var wait = await link.next(within: timeouts.idle, awaiting: "message from the reader")
            while true {
                var action: HolderAction
                switch wait {
                case .event(let event):
                    action = Self.action(for: event, in: &session, messages: &messages, transportTerminated: &transportTerminated)
                case .failed(let error):
                    // A reader that goes quiet after its response ends the session normally
                    // (18013-5 leaves ending to either side); before it, the session failed.
                    guard case .finished(let outcome) = session.transportEnded(), outcome.isNormalEnd else {
                        return .link(error)
                    }
                    await events(.readerWentQuiet(error))
                    return .session(outcome)
                case .cancelled:
                    return await Self.cancel(&session, on: link, messages: &messages)
                }
                actions: while true {
                    switch action {
                    case .requestReceived(let request):
                        let presentation = await presentation(of: request)
                        await events(.requested(presentation))
                        switch await link.decide(presentation, by: consent, group: &group) {
                        case .decided(let selection):
                            disclosures.append(HolderSessionResult.Disclosure(request: presentation, released: selection))
                            await events(.decided(presentation, selection))
                            action = session.decide(selection)
                        case .interrupted(.event(let event)):
                            action = Self.action(for: event, in: &session, messages: &messages, transportTerminated: &transportTerminated)
                            if case .finished(let outcome) = action {
                                await events(.readerLeftDuringConsent(outcome))
                            }
                        case .interrupted(.failed(let error)):
                            return .link(error)
                        case .interrupted(.cancelled):
                            return await Self.cancel(&session, on: link, messages: &messages)
                        }
                    case .send(let built):
                        // `.send` carries a DeviceResponse: a status alone ends the session.
                        // The holder encrypts responses only, so this one, the session's
                        // `responsesSent`th, used that message counter (9.1.1.5); a session that
                        // built a response has its transcript.
                        var bytes = built
                        if let transcript = session.sessionTranscript {
                            do throws(SessionError) {
                                bytes = try script.response(HolderScript.Response(
                                    message: built, sessionTranscript: transcript, counter: UInt32(session.responsesSent)))
                            } catch {
                                return await link.end(sending: nil, .failed(error))
                            }
                        }
                        if endsAfterResponse, ending == .statusBesideResponse, var message = try? SessionData(encoded: bytes) {
                            message.status = .sessionTermination
                            bytes = message.encoded()
                        }
                        await events(.sending(bytes: bytes.count))
                        do throws(LinkError) {
                            try await link.send(bytes, sending: "the message to the reader")
                        } catch {
                            return .link(error)
                        }
                        messages.append(LinkMessage(direction: .sent, bytes: bytes, time: Date()))
                        guard endsAfterResponse, session.responsesSent > 0 else { break actions }
                        action = session.terminate()
                        if ending == .statusLeavingChannel, case .sendAndFinish(let status, let outcome) = action {
                            return await Self.leaveChannel(
                                after: status, outcome, link: &link, messages: &messages, within: timeouts.idle)
                        }
                        if ending == .linkDrop, case .sendAndFinish(_, let outcome) = action {
                            return link.drop(outcome)
                        }
                        if ending != .status, case .sendAndFinish(_, let outcome) = action {
                            // Status 20 went with the response, or the transport's end alone
                            // ends the session.
                            return await link.end(sending: nil, outcome)
                        }
                    case .sendAndFinish(let bytes, let outcome):
                        messages.append(LinkMessage(direction: .sent, bytes: bytes, time: Date()))
                        return await link.end(sending: bytes, outcome)
                    case .finished(let outcome):
                        return await link.end(sending: nil, outcome)
                    }
                }
                wait = await link.next(within: timeouts.idle, awaiting: "message from the reader")
            }
        }
        var result = HolderSessionResult(
            end: end, mode: transport.mode, disclosures: disclosures, messages: messages, mtu: await transport.mtu,
            sessionTranscript: session.sessionTranscript)
        result.endedByTransportTermination = transportTerminated
        return result
    }

    /// The request as the holder is shown it: each DocRequest's reader identity from the trust
    /// delegate, shaped by the consent delegate.
    private func presentation(of request: ReceivedRequest) async -> PresentationRequest {
        var identities: [ReaderIdentity] = []
        for docRequest in request.deviceRequest.docRequests {
            identities.append(await trust.identity(of: docRequest, in: request))
        }
        return consent.presentation(of: request, identities: identities, credentials: credentials)
    }

    /// What the session does with an event of the transport; a message is kept in `messages`,
    /// and the transport's own termination sets `transportTerminated`.
    private static func action(
        for event: MdocTransportEvent, in session: inout HolderSession, messages: inout [LinkMessage], transportTerminated: inout Bool
    ) -> HolderAction {
        switch event {
        case .message(let bytes):
            messages.append(LinkMessage(direction: .received, bytes: bytes, time: Date()))
            return session.receive(bytes)
        case .ended:
            transportTerminated = true
            return session.transportEnded()
        case .disconnected:
            return session.transportEnded()
        }
    }

    /// Sends `status`, the SessionData of status 20 that ends the session (9.1.1.4), and nothing
    /// more: the link stays up until the reader closes the channel, as 9.1.1.4 requires of the
    /// side that receives a termination, and what the reader sends meanwhile is kept in
    /// `messages`. A reader still there after `bound` ends the session with that wait's error,
    /// the link then closed.
    private static func leaveChannel(
        after status: [UInt8], _ outcome: SessionOutcome, link: inout DriverLink, messages: inout [LinkMessage], within bound: Duration
    ) async -> LiveSessionEnd {
        do throws(LinkError) {
            try await link.send(status, sending: "the status message")
        } catch {
            return .link(error)
        }
        messages.append(LinkMessage(direction: .sent, bytes: status, time: Date()))
        return await link.awaitPeerEnd(within: bound, awaiting: "end of the link by the reader after status 20", messages: &messages, outcome)
    }

    /// The holder's task was cancelled: status 20 and State 0x02 end the session (9.1.1.4).
    private static func cancel(
        _ session: inout HolderSession, on link: DriverLink, messages: inout [LinkMessage]
    ) async -> LiveSessionEnd {
        switch session.terminate() {
        case .sendAndFinish(let bytes, let outcome):
            messages.append(LinkMessage(direction: .sent, bytes: bytes, time: Date()))
            return await link.end(sending: bytes, outcome)
        case .finished(let outcome):
            return await link.end(sending: nil, outcome)
        case .send, .requestReceived:
            return await link.end(sending: nil, .terminatedByHolder)
        }
    }
}
