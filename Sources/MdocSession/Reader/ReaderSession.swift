import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The mdoc reader's side of a session after QR device engagement, as a pure state machine
/// (ISO/IEC 18013-5 9.1.1): it performs no I/O and reads no clock; the caller moves bytes and
/// supplies the time.
///
/// From the engagement the reader makes EReaderKey on the curve of EDeviceKey, binds the session
/// to `SessionTranscript = [DeviceEngagementBytes, EReaderKeyBytes, null]` built from the exact
/// bytes (9.1.5.1), derives the session keys (9.1.1.5), and sends the DeviceRequest in
/// SessionEstablishment. Each DeviceResponse is decrypted and verified with
/// ``DeviceResponseVerifier`` against the issuer trust anchors, the transcript and EReaderKey
/// (for DeviceMac). Status codes follow ``SessionStatusMapping``.
///
/// Each state carries the established session it encrypts with: ready before the first
/// request, awaiting a response, idle once every request was answered.
public struct ReaderSession: Sendable {
    private enum State: Sendable {
        case ready(ReaderReadyState)
        case awaitingResponse(ReaderAwaitingResponseState)
        case idle(ReaderIdleState)
        case finished(SessionOutcome)
    }

    /// DeviceEngagementBytes, as scanned.
    public let deviceEngagement: EmbeddedCBOR<DeviceEngagement>
    /// EReaderKeyBytes, as sent in SessionEstablishment and used in the transcript.
    public let eReaderKeyBytes: EmbeddedCBOR<COSEKey>
    /// The transcript the session is bound to.
    public let sessionTranscript: SessionTranscriptBinding
    /// The Ident the reader serves in mdoc central client mode (8.3.3.1.1.4), from the
    /// engagement's EDeviceKeyBytes.
    public let bleIdent: [UInt8]
    /// The requests of the first DeviceRequest; empty for a session that sends a DeviceRequest
    /// given as bytes (``init(engagement:handover:deviceRequest:trustAnchors:documentSignerPolicy:eReaderKey:now:)``).
    public let initialRequest: [DocRequestSpec]
    /// The first DeviceRequest exactly as given, when the session sends bytes it was handed
    /// instead of building one from ``initialRequest``.
    public let givenRequest: [UInt8]?
    /// How many DeviceResponses arrived and decoded.
    public private(set) var responsesReceived = 0

    private let requestBuilder: DeviceRequestBuilder
    private let verifier: DeviceResponseVerifier

    /// The verifier of this session's response: its trust anchors, document signer policy,
    /// SessionTranscript and EReaderKey. An application that learns more after the session (a
    /// document's status, say) verifies the response again with it, its `policy` extended.
    public var responseVerifier: DeviceResponseVerifier { verifier }
    private let now: @Sendable () -> Date
    private var state: State

    /// A session with the mdoc that showed `engagement`, asking for `request`.
    ///
    /// - Parameters:
    ///   - engagement: DeviceEngagementBytes as scanned, kept byte for byte for the transcript.
    ///   - handover: how the engagement happened (9.1.5.1): `.qr` for a scanned QR code, the
    ///     NFC Handover Select (and Handover Request) as exchanged for an NFC engagement.
    ///   - request: what to ask of each document; at least one, none empty.
    ///   - readerAuthentication: the reader's signing key and certificate chain (reader
    ///     certificate first) to sign each DocRequest with, or `nil` for an anonymous request.
    ///   - trustAnchors: the IACA certificates responses are verified against.
    ///   - documentSignerPolicy: the extended key usages document signers may carry, per doc type.
    ///   - eReaderKey: the ephemeral key to use; a new one on EDeviceKey's curve when `nil`.
    ///   - now: the verification time of each response.
    /// - Throws: ``SessionError`` when the engagement's cipher suite or key cannot start a
    ///   session, the request is empty, or the reader authentication key cannot sign.
    public init(
        engagement: EmbeddedCBOR<DeviceEngagement>,
        handover: Handover = .qr,
        request: [DocRequestSpec],
        readerAuthentication: (key: PrivateKey, chain: [Certificate])? = nil,
        trustAnchors: [Certificate],
        documentSignerPolicy: DocumentSignerPolicy = .standard,
        eReaderKey: PrivateKey? = nil,
        now: @escaping @Sendable () -> Date
    ) throws(SessionError) {
        try DeviceRequestBuilder.check(request)
        try self.init(
            engagement: engagement, handover: handover, request: request, givenRequest: nil,
            readerAuthentication: readerAuthentication, trustAnchors: trustAnchors,
            documentSignerPolicy: documentSignerPolicy, eReaderKey: eReaderKey, now: now)
    }

    /// A session with the mdoc that showed `engagement` whose first message carries
    /// `deviceRequest` byte for byte (9.1.1.4): a DeviceRequest written by hand for a
    /// conformance test, which need not be well-formed, so that what the mdoc answers to it can be
    /// seen. It is encrypted as given and never decoded or re-encoded, so the session signs
    /// nothing in it: a DocRequest is signed only when the caller signed it (9.1.4) over the
    /// SessionTranscript this engagement and `eReaderKey` make, with the QR handover. Further
    /// requests (``request(_:)``) are built as usual.
    ///
    /// - Parameters: as for the session that builds its request, with `deviceRequest` the
    ///   encoded DeviceRequest to send.
    /// - Throws: ``SessionError`` when the engagement's cipher suite or key cannot start a
    ///   session, or `deviceRequest` is empty.
    public init(
        engagement: EmbeddedCBOR<DeviceEngagement>,
        handover: Handover = .qr,
        deviceRequest: [UInt8],
        trustAnchors: [Certificate],
        documentSignerPolicy: DocumentSignerPolicy = .standard,
        eReaderKey: PrivateKey? = nil,
        now: @escaping @Sendable () -> Date
    ) throws(SessionError) {
        guard !deviceRequest.isEmpty else {
            throw SessionError(.messageConstructionFailed, "the DeviceRequest to send is empty")
        }
        try self.init(
            engagement: engagement, handover: handover, request: [], givenRequest: deviceRequest, readerAuthentication: nil,
            trustAnchors: trustAnchors, documentSignerPolicy: documentSignerPolicy, eReaderKey: eReaderKey, now: now)
    }

    /// The session of either public initialiser: `givenRequest` is sent when present, else the
    /// DeviceRequest of `request`, which the caller checked.
    private init(
        engagement: EmbeddedCBOR<DeviceEngagement>,
        handover: Handover,
        request: [DocRequestSpec],
        givenRequest: [UInt8]?,
        readerAuthentication: (key: PrivateKey, chain: [Certificate])?,
        trustAnchors: [Certificate],
        documentSignerPolicy: DocumentSignerPolicy,
        eReaderKey: PrivateKey?,
        now: @escaping @Sendable () -> Date
    ) throws(SessionError) {
        let security = engagement.value.security
        guard security.cipherSuiteIdentifier == .suite1 else {
            throw SessionError(.unsupportedCipherSuite, "the engagement offers \(security.cipherSuiteIdentifier); only cipher suite 1 exists")
        }
        let eDeviceKey: PublicKey
        do {
            eDeviceKey = try security.eDeviceKeyBytes.value.publicKey()
        } catch {
            throw SessionError(.invalidEngagement, "the engagement's EDeviceKey is not a usable public key: \(error)")
        }
        guard !eDeviceKey.curve.isEdwards else {
            throw SessionError(.invalidEngagement, "the engagement's EDeviceKey is on \(eDeviceKey.curve), which has no key agreement")
        }
        let readerKey: PrivateKey
        if let eReaderKey {
            guard eReaderKey.curve == eDeviceKey.curve else {
                throw SessionError(.keyDerivationFailed, "EReaderKey is on \(eReaderKey.curve) but EDeviceKey on \(eDeviceKey.curve)")
            }
            readerKey = eReaderKey
        } else {
            do {
                readerKey = try PrivateKey(generating: eDeviceKey.curve)
            } catch {
                throw SessionError(.keyDerivationFailed, "cannot generate EReaderKey on \(eDeviceKey.curve): \(error)")
            }
        }
        let eReaderKeyBytes = EmbeddedCBOR(COSEKey(publicKey: readerKey.publicKey))
        let transcript = SessionTranscriptBinding(SessionTranscript(
            deviceEngagementBytes: engagement, eReaderKeyBytes: eReaderKeyBytes, handover: handover))
        let keys: SessionKeys
        do {
            keys = try SessionKeys(privateKey: readerKey, peerPublicKey: eDeviceKey, sessionTranscriptBytes: transcript.taggedBytes)
        } catch {
            throw SessionError(.keyDerivationFailed, "session key derivation failed: \(error)")
        }
        do {
            self.bleIdent = try BLEIdent.compute(eDeviceKeyBytes: security.eDeviceKeyBytes)
        } catch {
            throw SessionError(.keyDerivationFailed, "cannot compute the BLE Ident: \(error)")
        }
        self.deviceEngagement = engagement
        self.eReaderKeyBytes = eReaderKeyBytes
        self.sessionTranscript = transcript
        self.initialRequest = request
        self.givenRequest = givenRequest
        self.requestBuilder = try DeviceRequestBuilder(readerAuthentication: readerAuthentication)
        self.verifier = DeviceResponseVerifier(
            trustAnchors: trustAnchors, documentSignerPolicy: documentSignerPolicy, sessionTranscript: transcript,
            readerKey: readerKey)
        self.now = now
        self.state = .ready(ReaderReadyState(session: EstablishedSession(role: .reader, keys: keys, transcript: transcript)))
    }

    /// A session with the mdoc whose `mdoc:` URI was scanned; see the designated initialiser.
    public init(
        uri: MdocURI,
        request: [DocRequestSpec],
        readerAuthentication: (key: PrivateKey, chain: [Certificate])? = nil,
        trustAnchors: [Certificate],
        documentSignerPolicy: DocumentSignerPolicy = .standard,
        eReaderKey: PrivateKey? = nil,
        now: @escaping @Sendable () -> Date
    ) throws(SessionError) {
        try self.init(
            engagement: uri.deviceEngagementBytes, request: request, readerAuthentication: readerAuthentication,
            trustAnchors: trustAnchors, documentSignerPolicy: documentSignerPolicy, eReaderKey: eReaderKey, now: now)
    }

    /// `true` once the session has ended.
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// The first message: SessionEstablishment carrying EReaderKeyBytes and the encrypted
    /// DeviceRequest (9.1.1.4). Callable once, before anything else.
    public mutating func start() throws(SessionError) -> ReaderAction {
        guard case .ready(var ready) = state else {
            throw SessionError(.invalidState, "the session has already started")
        }
        let request: [UInt8]
        if let givenRequest {
            request = givenRequest
        } else {
            request = try deviceRequest(initialRequest)
        }
        let data = try ready.session.encrypt(request)
        state = .awaitingResponse(ReaderAwaitingResponseState(session: ready.session))
        return .send(SessionEstablishment(eReaderKey: eReaderKeyBytes, data: data).encoded())
    }

    /// A further DeviceRequest in SessionData, after the previous response arrived (18013-5
    /// allows several requests in one session). Throws, leaving the session as it was, when a
    /// request is outstanding, the session has ended, or the request cannot be built.
    public mutating func request(_ specs: [DocRequestSpec]) throws(SessionError) -> ReaderAction {
        guard case .idle(var idle) = state else {
            throw SessionError(.invalidState, "a new request needs a session whose last request was answered")
        }
        try DeviceRequestBuilder.check(specs)
        let message = try idle.session.seal(deviceRequest(specs))
        state = .awaitingResponse(ReaderAwaitingResponseState(session: idle.session))
        return .send(message)
    }

    /// Handles one message from the mdoc.
    public mutating func receive(_ message: [UInt8]) -> ReaderAction {
        do throws(SessionError) {
            switch state {
            case .finished(let outcome):
                return .finished(outcome)
            case .ready(let waiting as any AcceptsSessionData), .idle(let waiting as any AcceptsSessionData):
                switch try waiting.content(of: message) {
                case .status(let status):
                    return end(SessionStatusMapping.outcome(for: status, from: .mdoc))
                case .data:
                    throw SessionError(.unexpectedMessage, "the mdoc sent data while no request was outstanding")
                }
            case .awaitingResponse(var awaiting):
                switch try awaiting.content(of: message) {
                case .status(let status):
                    return end(SessionStatusMapping.outcome(for: status, from: .mdoc))
                case .data(let sealed, let status):
                    let plaintext = try awaiting.session.open(sealed)
                    let response: DeviceResponse
                    do {
                        response = try DeviceResponse(encoded: plaintext)
                    } catch {
                        throw SessionError(.messageDecodingFailed, "the decrypted message is not a DeviceResponse: \(error)")
                    }
                    responsesReceived += 1
                    // A status beside the response (20 from an mdoc that ends the session with
                    // it) ends the session once the response is taken (9.1.1.4).
                    state = status.map { .finished(SessionStatusMapping.outcome(for: $0, from: .mdoc)) }
                        ?? .idle(ReaderIdleState(session: awaiting.session))
                    return .received(verifier.verify(response, at: now()), response)
                }
            }
        } catch {
            return fail(error)
        }
    }

    /// Ends the session with status 20 (9.1.1.4); after an end already reached, reports it.
    public mutating func terminate() -> ReaderAction {
        if case .finished(let outcome) = state {
            return .finished(outcome)
        }
        state = .finished(.terminatedByReader)
        return .sendAndFinish(SessionStatusMapping.terminationMessage, .terminatedByReader)
    }

    /// The transport ended (BLE State 0x02 or a disconnect, 8.3.3.1.1.5): a normal end when every
    /// request was answered and at least one response arrived, an error otherwise.
    public mutating func transportEnded() -> ReaderAction {
        switch state {
        case .finished(let outcome):
            return .finished(outcome)
        case .idle:
            return end(.transportEnded)
        case .ready, .awaitingResponse:
            return end(.failed(SessionError(.transportEndedEarly, "the connection ended before the mdoc answered the request")))
        }
    }

    // MARK: - Internals

    private mutating func end(_ outcome: SessionOutcome) -> ReaderAction {
        state = .finished(outcome)
        return .finished(outcome)
    }

    private mutating func fail(_ error: SessionError) -> ReaderAction {
        let outcome = SessionOutcome.failed(error)
        state = .finished(outcome)
        return .sendAndFinish(SessionStatusMapping.message(for: error), outcome)
    }

    /// The encoded DeviceRequest of `specs`, each DocRequest signed when the session has reader
    /// authentication.
    private func deviceRequest(_ specs: [DocRequestSpec]) throws(SessionError) -> [UInt8] {
        try requestBuilder.deviceRequest(specs, sessionTranscript: sessionTranscript)
    }
}
