import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

/// The mdoc's side of a session after QR device engagement, as a pure state machine (ISO/IEC
/// 18013-5 9.1.1): it performs no I/O, reads no clock and makes no policy decision; the caller
/// moves bytes, judges each request and gives the holder's answer.
///
/// The session makes EDeviceKey and the DeviceEngagement (8.2.1.1) with one BLE retrieval
/// method. The reader's SessionEstablishment gives EReaderKey; the session binds itself to
/// `SessionTranscript = [DeviceEngagementBytes, EReaderKeyBytes, null]` built from the exact
/// bytes (9.1.5.1), derives the session keys (9.1.1.5), decrypts the DeviceRequest and hands it
/// over (``HolderAction/requestReceived(_:)``). ``decide(_:)`` answers with the encrypted
/// DeviceResponse holding only requested and approved elements. A reader may send further
/// requests; each is handed over again. Status codes follow ``SessionStatusMapping``.
///
/// Each state carries its own data: EDeviceKey before establishment, the established session
/// after it, and the pending request while the holder decides.
public struct HolderSession: Sendable {
    private enum State: Sendable {
        case awaitingEstablishment(HolderAwaitingEstablishmentState)
        case awaitingConsent(HolderAwaitingConsentState)
        case awaitingRequest(HolderAwaitingRequestState)
        case finished(SessionOutcome)
    }

    /// DeviceEngagementBytes: what the QR code carries.
    public let deviceEngagement: EmbeddedCBOR<DeviceEngagement>
    /// The Ident a reader in central client mode serves (8.3.3.1.1.4).
    public let bleIdent: [UInt8]
    /// How many DeviceResponses were sent.
    public private(set) var responsesSent = 0
    /// The transcript the session is bound to (9.1.5.1), built from DeviceEngagementBytes and
    /// the reader's EReaderKeyBytes as received; `nil` until SessionEstablishment arrived and
    /// its request decrypted.
    public private(set) var sessionTranscript: SessionTranscriptBinding?

    private let credentials: [Credential]
    private let responseBuilder: ResponseBuilder
    private var state: State

    /// A new engagement for `credentials`.
    ///
    /// - Parameters:
    ///   - credentials: the documents the holder can present, at most one per docType is used.
    ///   - eDeviceKey: the ephemeral device key; a new P-256 key when `nil`.
    ///   - bleOptions: the BLE modes and service UUIDs to offer, such as
    ///     `BleOptions.offering(peripheralServerMode:centralClientMode:)`.
    ///   - responseBuilder: how responses are built (the device authentication policy).
    /// - Throws: ``SessionError`` when the options offer no usable mode or the key cannot agree
    ///   keys.
    public init(
        credentials: [Credential],
        eDeviceKey: PrivateKey? = nil,
        bleOptions: BleOptions,
        responseBuilder: ResponseBuilder = ResponseBuilder()
    ) throws(SessionError) {
        try self.init(
            credentials: credentials, eDeviceKey: eDeviceKey, bleOptions: bleOptions, responseBuilder: responseBuilder,
            engagementVersion: "1.0", additionalEngagementEntries: CBORMap())
    }

    /// A new engagement for `credentials` whose DeviceEngagement has the version
    /// `engagementVersion` and also holds `additionalEngagementEntries` after the entries it
    /// defines: keys 18013-5 does not define, which its CDDL allows (8.2.1.1 `* int => any`)
    /// and a reader must take, as it must take an unknown minor version (8.1), for a
    /// conformance test of a reader. The other parameters are those of the public initialiser.
    package init(
        credentials: [Credential],
        eDeviceKey: PrivateKey?,
        bleOptions: BleOptions,
        responseBuilder: ResponseBuilder,
        engagementVersion: String,
        additionalEngagementEntries: CBORMap
    ) throws(SessionError) {
        if let problem = bleOptions.engagementProblem {
            throw SessionError(.invalidEngagement, problem)
        }
        let key: PrivateKey
        if let eDeviceKey {
            key = eDeviceKey
        } else {
            do {
                key = try PrivateKey(generating: .p256)
            } catch {
                throw SessionError(.keyDerivationFailed, "cannot generate EDeviceKey: \(error)")
            }
        }
        guard !key.curve.isEdwards else {
            throw SessionError(.invalidEngagement, "EDeviceKey is on \(key.curve), which has no key agreement")
        }
        let eDeviceKeyBytes = EmbeddedCBOR(COSEKey(publicKey: key.publicKey))
        let engagement = EmbeddedCBOR(DeviceEngagement(
            version: engagementVersion,
            security: Security(cipherSuiteIdentifier: .suite1, eDeviceKeyBytes: eDeviceKeyBytes),
            deviceRetrievalMethods: [.ble(bleOptions)], additionalEntries: additionalEngagementEntries))
        do {
            self.bleIdent = try BLEIdent.compute(eDeviceKeyBytes: eDeviceKeyBytes)
        } catch {
            throw SessionError(.keyDerivationFailed, "cannot compute the BLE Ident: \(error)")
        }
        self.deviceEngagement = engagement
        self.credentials = credentials
        self.responseBuilder = responseBuilder
        self.state = .awaitingEstablishment(HolderAwaitingEstablishmentState(deviceEngagement: engagement, eDeviceKey: key))
    }

    /// Records that the engagement happened over NFC (8.2.2.1): `handover` (the Handover Select
    /// and, for negotiated handover, the Handover Request, as exchanged) goes into the
    /// SessionTranscript instead of the QR handover's `null` (9.1.5.1). Only before the reader's
    /// SessionEstablishment; throws `invalidState` after it.
    public mutating func engaged(through handover: Handover) throws(SessionError) {
        guard case .awaitingEstablishment(var awaiting) = state else {
            throw SessionError(.invalidState, "the handover can only be set before the reader's SessionEstablishment")
        }
        awaiting.handover = handover
        state = .awaitingEstablishment(awaiting)
    }

    /// The `mdoc:` URI of the engagement, for the QR code (8.2.2.3).
    public var mdocURI: MdocURI {
        MdocURI(deviceEngagementBytes: deviceEngagement)
    }

    /// `true` once the session has ended.
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Handles one message from the reader: SessionEstablishment first, SessionData after.
    public mutating func receive(_ message: [UInt8]) -> HolderAction {
        do throws(SessionError) {
            switch state {
            case .finished(let outcome):
                return .finished(outcome)
            case .awaitingEstablishment(let awaiting):
                let established = try awaiting.establish(message)
                sessionTranscript = established.session.transcript
                return receiveRequest(established.sealedRequest, in: established.session, eReaderKey: established.eReaderKey)
            case .awaitingConsent(let deciding):
                switch try deciding.content(of: message) {
                case .status(let status), .data(_, status: let status?):
                    return end(SessionStatusMapping.outcome(for: status, from: .reader))
                case .data:
                    throw SessionError(.unexpectedMessage, "the reader sent a request before the previous one was answered")
                }
            case .awaitingRequest(let awaiting):
                switch try awaiting.content(of: message) {
                case .status(let status), .data(_, status: let status?):
                    return end(SessionStatusMapping.outcome(for: status, from: .reader))
                case .data(let sealed, status: nil):
                    return receiveRequest(sealed, in: awaiting.session, eReaderKey: awaiting.eReaderKey)
                }
            }
        } catch {
            return fail(error)
        }
    }

    /// Answers the pending request with the elements in `approved` that were requested and that
    /// the credentials hold; approving nothing still answers (with documentErrors, 8.3.2.1.2.2).
    public mutating func decide(_ approved: ElementSelection) -> HolderAction {
        guard case .awaitingConsent(let deciding) = state else {
            if case .finished(let outcome) = state { return .finished(outcome) }
            return fail(SessionError(.invalidState, "a consent decision came with no request pending"))
        }
        // ResponseBuilder returns only what was both requested and approved (8.3.2.1.2.2).
        let response: DeviceResponse
        do {
            response = try responseBuilder.deviceResponse(
                request: deciding.request, credentials: credentials, approved: approved,
                sessionTranscript: deciding.session.transcript, eReaderKey: deciding.eReaderKey)
        } catch {
            // 8.3.2.1.2.3: the request is answered with a general error and no data, and the
            // session ends as failed: a document the holder approved could not be authenticated.
            let failure = SessionError(.messageConstructionFailed, "the response could not be built: \(error)")
            guard case .send(let message) = respond(with: DeviceResponse(status: .generalError), in: deciding.session,
                                                    eReaderKey: deciding.eReaderKey) else {
                return fail(failure)
            }
            state = .finished(.failed(failure))
            return .sendAndFinish(message, .failed(failure))
        }
        return respond(with: response, in: deciding.session, eReaderKey: deciding.eReaderKey)
    }

    /// Ends the session from the mdoc's side with status 20 (9.1.1.4), for a holder who cancels.
    public mutating func terminate() -> HolderAction {
        if case .finished(let outcome) = state {
            return .finished(outcome)
        }
        state = .finished(.terminatedByHolder)
        return .sendAndFinish(SessionStatusMapping.terminationMessage, .terminatedByHolder)
    }

    /// The transport ended (BLE State 0x02 or a disconnect, 8.3.3.1.1.5): a normal end once a
    /// response was delivered and no request is pending, an error otherwise.
    public mutating func transportEnded() -> HolderAction {
        switch state {
        case .finished(let outcome):
            return .finished(outcome)
        case .awaitingRequest:
            return end(.transportEnded)
        case .awaitingEstablishment, .awaitingConsent:
            return end(.failed(SessionError(.transportEndedEarly, "the connection ended before a response was delivered")))
        }
    }

    // MARK: - Internals

    /// Decrypts and decodes a request, and hands it over; an unreadable DeviceRequest is
    /// answered with status 11 or 12 and the session goes on (8.3.2.1.2.3).
    private mutating func receiveRequest(_ sealed: [UInt8], in session: EstablishedSession, eReaderKey: PublicKey) -> HolderAction {
        var session = session
        let plaintext: [UInt8]
        do {
            plaintext = try session.open(sealed)
        } catch {
            return fail(error)
        }
        let request: DeviceRequest
        do {
            request = try DeviceRequest(encoded: plaintext)
        } catch {
            return respond(with: ResponseBuilder.errorResponse(for: error), in: session, eReaderKey: eReaderKey)
        }
        state = .awaitingConsent(HolderAwaitingConsentState(session: session, eReaderKey: eReaderKey, request: request))
        return .requestReceived(ReceivedRequest(deviceRequest: request, sessionTranscript: session.transcript))
    }

    /// Encrypts `response` into SessionData and waits for the next request.
    private mutating func respond(with response: DeviceResponse, in session: EstablishedSession, eReaderKey: PublicKey) -> HolderAction {
        var session = session
        let message: [UInt8]
        do {
            message = try session.seal(response.encoded())
        } catch {
            return fail(error)
        }
        responsesSent += 1
        state = .awaitingRequest(HolderAwaitingRequestState(session: session, eReaderKey: eReaderKey))
        return .send(message)
    }

    private mutating func end(_ outcome: SessionOutcome) -> HolderAction {
        state = .finished(outcome)
        return .finished(outcome)
    }

    private mutating func fail(_ error: SessionError) -> HolderAction {
        let outcome = SessionOutcome.failed(error)
        state = .finished(outcome)
        return .sendAndFinish(SessionStatusMapping.message(for: error), outcome)
    }
}
