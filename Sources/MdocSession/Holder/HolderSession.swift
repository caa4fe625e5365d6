import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The mdoc's side of a session after QR device engagement, as a pure state machine (ISO/IEC
/// 18013-5 9.1.1): it performs no I/O and reads no clock; the caller moves bytes, asks the
/// holder, and supplies the time.
///
/// The session makes EDeviceKey and the DeviceEngagement (8.2.1.1) with one BLE retrieval
/// method. The reader's SessionEstablishment gives EReaderKey; the session binds itself to
/// `SessionTranscript = [DeviceEngagementBytes, EReaderKeyBytes, null]` built from the exact
/// bytes (9.1.5.1), derives the session keys (9.1.1.5), decrypts the DeviceRequest, checks each
/// DocRequest's reader authentication (9.1.4), and asks for consent. ``decide(_:)`` answers with
/// the encrypted DeviceResponse holding only requested and approved elements. A reader may send
/// further requests; each is asked about again. Status codes follow ``SessionStatusMapping``.
public struct HolderSession: Sendable {
    private enum State: Sendable {
        case awaitingEstablishment
        case awaitingConsent(DeviceRequest)
        case awaitingRequest
        case finished(SessionOutcome)
    }

    /// What both sides derived from SessionEstablishment.
    private struct Established: Sendable {
        var encryption: SessionEncryption
        let transcript: SessionTranscriptBinding
        let eReaderKey: PublicKey
    }

    /// DeviceEngagementBytes: what the QR code carries.
    public let deviceEngagement: EmbeddedCBOR<DeviceEngagement>
    /// The Ident a reader in central client mode serves (8.3.3.1.1.4).
    public let bleIdent: [UInt8]
    /// How many DeviceResponses were sent.
    public private(set) var responsesSent = 0

    private let eDeviceKey: PrivateKey
    private let credentials: [Credential]
    private let responseBuilder: ResponseBuilder
    private let readerAuthenticationVerifier: ReaderAuthenticationVerifier
    private let now: @Sendable () -> Date
    private var established: Established?
    private var state = State.awaitingEstablishment

    /// A new engagement for `credentials`.
    ///
    /// - Parameters:
    ///   - credentials: the documents the holder can present, at most one per docType is used.
    ///   - readerTrustAnchors: the reader root certificates reader authentication is checked
    ///     against.
    ///   - eDeviceKey: the ephemeral device key; a new P-256 key when `nil`.
    ///   - bleOptions: the BLE modes and service UUIDs to offer, such as
    ///     `BleOptions.offering(peripheralServerMode:centralClientMode:)`.
    ///   - responseBuilder: how responses are built (the device authentication policy).
    ///   - now: the time reader certificates are checked at.
    /// - Throws: ``SessionError`` when the options offer no usable mode or the key cannot agree
    ///   keys.
    public init(
        credentials: [Credential],
        readerTrustAnchors: [Certificate],
        eDeviceKey: PrivateKey? = nil,
        bleOptions: BleOptions,
        responseBuilder: ResponseBuilder = ResponseBuilder(),
        now: @escaping @Sendable () -> Date
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
        let engagement = DeviceEngagement(
            version: "1.0",
            security: Security(cipherSuiteIdentifier: .suite1, eDeviceKeyBytes: eDeviceKeyBytes),
            deviceRetrievalMethods: [.ble(bleOptions)])
        do {
            self.bleIdent = try BLEIdent.compute(eDeviceKeyBytes: eDeviceKeyBytes)
        } catch {
            throw SessionError(.keyDerivationFailed, "cannot compute the BLE Ident: \(error)")
        }
        self.deviceEngagement = EmbeddedCBOR(engagement)
        self.eDeviceKey = key
        self.credentials = credentials
        self.responseBuilder = responseBuilder
        self.readerAuthenticationVerifier = ReaderAuthenticationVerifier(trustAnchors: readerTrustAnchors)
        self.now = now
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
        switch state {
        case .finished(let outcome):
            return .finished(outcome)
        case .awaitingEstablishment:
            return establish(message)
        case .awaitingConsent, .awaitingRequest:
            return receiveSessionData(message)
        }
    }

    /// Answers the pending request with the elements in `approved` that were requested and that
    /// the credentials hold; approving nothing still answers (with documentErrors, 8.3.2.1.2.2).
    public mutating func decide(_ approved: ElementSelection) -> HolderAction {
        if case .finished(let outcome) = state {
            return .finished(outcome)
        }
        guard case .awaitingConsent(let request) = state, let session = established else {
            return fail(SessionError(.invalidState, "a consent decision came with no request pending"))
        }
        // ResponseBuilder returns only what was both requested and approved (8.3.2.1.2.2).
        do {
            return respond(with: try responseBuilder.deviceResponse(
                request: request, credentials: credentials, approved: approved,
                sessionTranscript: session.transcript, eReaderKey: session.eReaderKey))
        } catch {
            // 8.3.2.1.2.3: the request is answered with a general error and no data, and the
            // session ends as failed: a document the holder approved could not be authenticated.
            let failure = SessionError(.messageConstructionFailed, "the response could not be built: \(error)")
            guard case .send(let message) = respond(with: DeviceResponse(status: .generalError)) else {
                return fail(failure)
            }
            state = .finished(.failed(failure))
            return .sendAndFinish(message, .failed(failure))
        }
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
        if case .finished(let outcome) = state {
            return .finished(outcome)
        }
        let outcome: SessionOutcome
        if case .awaitingRequest = state, responsesSent > 0 {
            outcome = .transportEnded
        } else {
            outcome = .failed(SessionError(.transportEndedEarly, "the connection ended before a response was delivered"))
        }
        state = .finished(outcome)
        return .finished(outcome)
    }

    // MARK: - Internals

    private mutating func establish(_ message: [UInt8]) -> HolderAction {
        let establishment: SessionEstablishment
        do {
            establishment = try SessionEstablishment(encoded: message)
        } catch {
            return fail(SessionError(.messageDecodingFailed, "the first message is not SessionEstablishment: \(error)"))
        }
        let eReaderKey: PublicKey
        let keys: SessionKeys
        let transcript = SessionTranscriptBinding(SessionTranscript(
            deviceEngagementBytes: deviceEngagement, eReaderKeyBytes: establishment.eReaderKey, handover: .qr))
        do {
            eReaderKey = try establishment.eReaderKey.value.publicKey()
            keys = try SessionKeys(privateKey: eDeviceKey, peerPublicKey: eReaderKey, sessionTranscriptBytes: transcript.taggedBytes)
        } catch {
            return fail(SessionError(.keyDerivationFailed, "no session keys from EReaderKey: \(error)"))
        }
        established = Established(encryption: SessionEncryption(role: .mdoc, keys: keys), transcript: transcript, eReaderKey: eReaderKey)
        return handleRequest(establishment.data)
    }

    private mutating func receiveSessionData(_ message: [UInt8]) -> HolderAction {
        let sessionData: SessionData
        do {
            sessionData = try SessionData(encoded: message)
        } catch {
            return fail(SessionError(.messageDecodingFailed, "the message from the reader is not SessionData: \(error)"))
        }
        if let status = sessionData.status {
            let outcome = SessionStatusMapping.outcome(for: status, from: .reader)
            state = .finished(outcome)
            return .finished(outcome)
        }
        guard let data = sessionData.data else {
            return fail(SessionError(.unexpectedMessage, "the reader sent SessionData with neither data nor status"))
        }
        guard case .awaitingRequest = state else {
            return fail(SessionError(.unexpectedMessage, "the reader sent a request before the previous one was answered"))
        }
        return handleRequest(data)
    }

    private mutating func handleRequest(_ sealed: [UInt8]) -> HolderAction {
        guard var session = established else {
            return fail(SessionError(.invalidState, "a request arrived before session keys existed"))
        }
        let plaintext: [UInt8]
        do {
            plaintext = try session.encryption.decrypt(sealed)
        } catch {
            return fail(error)
        }
        established = session
        let request: DeviceRequest
        do {
            request = try DeviceRequest(encoded: plaintext)
        } catch {
            // 8.3.2.1.2.3: an unreadable request is answered with status 11 or 12; the session
            // itself is intact, so it goes on.
            return respond(with: ResponseBuilder.errorResponse(for: error))
        }
        let time = now()
        // Consent is given per docType (ElementSelection), so DocRequests for the same docType
        // are shown as one document carrying the least favourable of their terms: the least
        // trusted reader identity and intent to retain when any of them asks to retain.
        var documents: [PresentationRequest.Document] = []
        var merges: [String: Merge] = [:]
        for docRequest in request.docRequests {
            let document = presentation(of: docRequest, identity: ReaderIdentity(
                readerAuthenticationVerifier.verify(docRequest, sessionTranscript: session.transcript, at: time)))
            if var merge = merges.removeValue(forKey: document.docType) {
                merge.add(document, to: &documents[merge.index])
                merges[document.docType] = merge
            } else {
                merges[document.docType] = Merge(index: documents.count, first: document)
                documents.append(document)
            }
        }
        state = .awaitingConsent(request)
        return .askConsent(PresentationRequest(documents: documents))
    }

    private func presentation(of docRequest: DocRequest, identity: ReaderIdentity) -> PresentationRequest.Document {
        let itemsRequest = docRequest.itemsRequest.value
        let credential = credentials.first { $0.docType == itemsRequest.docType }
        var elements: [PresentationRequest.Element] = []
        for (nameSpace, requested) in itemsRequest.nameSpaces {
            for (identifier, intentToRetain) in requested {
                elements.append(PresentationRequest.Element(
                    nameSpace: nameSpace, identifier: identifier,
                    displayName: DataElementCatalogue.displayName(of: identifier, in: nameSpace),
                    intentToRetain: intentToRetain,
                    isAvailable: credential?.item(nameSpace: nameSpace, identifier: identifier) != nil))
            }
        }
        return PresentationRequest.Document(
            docType: itemsRequest.docType, elements: elements, readerAuthentication: identity, isAvailable: credential != nil)
    }

    /// The DocRequests of one docType merged into one document: every element of each, retained
    /// when any asks to retain it, under the least trusted reader identity. Each element's
    /// position is kept, so that merging stays linear in the elements of all the requests.
    private struct Merge {
        /// The position of the merged document among the documents shown.
        let index: Int
        /// Name space → identifier → position in the merged document's elements.
        private var positions: [String: [String: Int]] = [:]

        init(index: Int, first: PresentationRequest.Document) {
            self.index = index
            for (position, element) in first.elements.enumerated() where positions[element.nameSpace]?[element.identifier] == nil {
                positions[element.nameSpace, default: [:]][element.identifier] = position
            }
        }

        /// Merges `document` into `merged`.
        mutating func add(_ document: PresentationRequest.Document, to merged: inout PresentationRequest.Document) {
            for element in document.elements {
                if let position = positions[element.nameSpace]?[element.identifier] {
                    merged.elements[position].intentToRetain = merged.elements[position].intentToRetain || element.intentToRetain
                } else {
                    positions[element.nameSpace, default: [:]][element.identifier] = merged.elements.count
                    merged.elements.append(element)
                }
            }
            if document.readerAuthentication.trustRank < merged.readerAuthentication.trustRank {
                merged.readerAuthentication = document.readerAuthentication
            }
        }
    }

    /// Encrypts `response` into SessionData and waits for the next request.
    private mutating func respond(with response: DeviceResponse) -> HolderAction {
        guard var session = established else {
            return fail(SessionError(.invalidState, "a response was due before session keys existed"))
        }
        let sealed: [UInt8]
        do {
            sealed = try session.encryption.encrypt(response.encoded())
        } catch {
            return fail(error)
        }
        established = session
        responsesSent += 1
        state = .awaitingRequest
        return .send(SessionData(data: sealed).encoded())
    }

    private mutating func fail(_ error: SessionError) -> HolderAction {
        let outcome = SessionOutcome.failed(error)
        state = .finished(outcome)
        return .sendAndFinish(SessionStatusMapping.message(for: error), outcome)
    }
}
