import Hummingbird
import Logging
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocOnline
import MdocSession
import MdocText
import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The online verifier's HTTP interface (ISO/IEC TS 18013-7 Annex C and OpenID4VP 1.0 over
/// HTTP):
///
/// - `GET /`: ``VerifierPage``.
/// - `POST /requests`: a ``RequestCreation`` body; makes the request and its state
///   (`DCAPIRequestState.make` for Annex C, `OpenID4VPRequestState.make` for OpenID4VP), keeps
///   the state in the store under a fresh ``RequestID`` and answers 201 `{"id", "protocol",
///   "request", "expires"}`. Through the Digital Credentials API, `protocol` and `request` are
///   what the page passes to `navigator.credentials.get` (`org-iso-mdoc` with
///   `{deviceRequest, encryptionInfo}`, or `openid4vp-v1-unsigned` with the OpenID4VP
///   request). For `direct_post` and `direct_post.jwt`, `protocol` is `openid4vp` and
///   `request` the Authorization Request, whose `response_uri` is this service's
///   `POST /requests/{id}/response` under ``publicURL`` and whose `client_id` is that URI with
///   the `redirect_uri:` prefix; `uri` is the same request by value as an `openid4vp://` URL,
///   for a QR code or a link (``AuthorizationRequestURI``).
/// - `POST /requests/{id}/response`: the wallet's answer (Annex C `{"response": ...}`, or the
///   OpenID4VP response: the JSON object of the Digital Credentials API or the form body of
///   `direct_post`); takes the state out of the store (once: a second answer is refused),
///   opens the answer with it and verifies the DeviceResponse bound to its SessionTranscript
///   (ISO/IEC 18013-5 9.3.1), as `mdoc-reader verify --online-state` does; answers 200 with the
///   ``VerificationReportJSON`` report, whatever its outcome.
///
/// Refusals are ``ServiceError`` objects: 400 for a body or id that does not read, or a
/// `direct_post` request of a service without ``publicURL``; 404 for a request that is not
/// pending (unknown, answered already, or purged after its expiry); 410 for a request that
/// expired; 413 for a body over ``ServiceLimits``; 422 for an answer of the other protocol, one
/// that does not open with the request's key or does not answer its query (another request or
/// origin, or altered), or one that holds no DeviceResponse; 500 when the request cannot be made
/// or a stored state does not read; 503 when the store fails or is full.
public struct VerifierService: Sendable {
    /// The IACA certificates the documents' signers must chain to.
    public let trustAnchors: [Certificate]
    /// The key and chain that sign each DocRequest (ISO/IEC 18013-5 9.1.4), or `nil` for
    /// unsigned requests.
    public let readerAuthentication: (key: PrivateKey, chain: [Certificate])?
    /// Where requests are kept until answered.
    public let store: any RequestStateStore
    /// The URL at which wallets reach this service (`https://verifier.example`, or with the path
    /// a proxy serves it under), without a trailing `/`: the base of an OpenID4VP
    /// `response_uri`. Without it, `direct_post` requests are refused.
    public let publicURL: String?
    /// The current time: when requests are made and answers verified.
    public let now: @Sendable () -> Date
    private let logger: Logger

    /// A verifier trusting `trustAnchors`, signing its requests with `readerAuthentication`,
    /// keeping them in `store`, reading the time from `now`.
    public init(
        trustAnchors: [Certificate], readerAuthentication: (key: PrivateKey, chain: [Certificate])?, store: any RequestStateStore,
        publicURL: String? = nil, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.trustAnchors = trustAnchors
        self.readerAuthentication = readerAuthentication
        self.store = store
        self.publicURL = publicURL
        self.logger = logger
        self.now = now
    }

    /// The routes above.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: VerifierPage.html)))
        }
        router.post("/requests") { request, _ in
            try await createRequest(try await Self.body(of: request, upTo: ServiceLimits.maximumCreationByteCount))
        }
        router.post("/requests/:id/response") { request, context in
            let id = try RequestID(parsing: try context.parameters.require("id"))
            return try await answer(id, try await Self.body(of: request, upTo: ServiceLimits.maximumResponseByteCount))
        }
        return router
    }

    /// `POST /requests`.
    func createRequest(_ body: [UInt8]) async throws(ServiceError) -> Response {
        let creation = try RequestCreation(json: body)
        let id = RequestID.random()
        let stored: StoredRequest
        var members: [(String, JSONValue)] = [("id", .string(id.text))]
        switch creation.requestProtocol {
        case .annexC(let origin):
            let made: (request: DCAPIRequest, state: DCAPIRequestState)
            do {
                made = try DCAPIRequestState.make(
                    [creation.spec], origin: origin, readerAuthentication: readerAuthentication, now: now(), validity: creation.validity)
            } catch {
                // The origin and the validity were checked already: what fails here is the
                // verifier's own key generation or signing.
                throw ServiceError(.internalServerError, "requestNotMade", "the request cannot be made: \(error)")
            }
            stored = .annexC(made.state)
            members += [("protocol", .string(DCAPIRequest.protocolIdentifier)), ("request", made.request.json)]
            logger.info("made the org-iso-mdoc request \(id) for \(UntrustedText.escaped(origin)), expiring at \(TDate(made.state.expires).text)")
        case .openID4VP(let mode, let origin):
            let verifier: OpenID4VPRequestState.Verifier
            if let origin {
                verifier = .origin(origin)
            } else {
                guard let publicURL else {
                    throw ServiceError(
                        .badRequest, "responseModeUnavailable",
                        "a \(mode) response is posted to the verifier's response_uri, and this verifier has no public URL to make one of (online-verifier --public-url); use dc_api or dc_api.jwt")
                }
                let responseURI = "\(publicURL)/requests/\(id.text)/response"
                verifier = .client(id: OpenID4VPRequest.redirectURIPrefix + responseURI, responseURI: responseURI)
            }
            let made: (request: OpenID4VPRequest, state: OpenID4VPRequestState)
            do {
                made = try OpenID4VPRequestState.make(
                    try DCQLQuery(specs: [creation.spec]), responseMode: mode, verifier: verifier, now: now(), validity: creation.validity)
            } catch where error.code == .malformedRequest {
                throw ServiceError(.badRequest, "malformedBody", "the request cannot be made of this body: \(error.reason)")
            } catch {
                throw ServiceError(.internalServerError, "requestNotMade", "the request cannot be made: \(error)")
            }
            stored = .openID4VP(made.state)
            if origin != nil {
                members += [("protocol", .string(OpenID4VPRequest.protocolIdentifier)), ("request", made.request.json)]
            } else {
                members += [
                    ("protocol", .string(RequestCreation.openID4VPProtocolName)), ("request", made.request.json),
                    ("uri", .string(AuthorizationRequestURI.make(made.request))),
                ]
            }
            logger.info("made the OpenID4VP request \(id) (\(mode)), expiring at \(TDate(made.state.expires).text)")
        }
        try await store.put(stored, id: id)
        members.append(("expires", .string(TDate(stored.expires).text)))
        return JSONResponse.make(.object(members), status: .created)
    }

    /// `POST /requests/{id}/response`. The body is read before the request is taken, so that
    /// a body that is no answer of either protocol spends nothing; once taken, the request is
    /// spent whatever the answer turns out to be.
    func answer(_ id: RequestID, _ body: [UInt8]) async throws(ServiceError) -> Response {
        let received = try ReceivedAnswer(body)
        guard let stored = try await store.take(id) else {
            throw ServiceError(
                .notFound, "requestNotPending",
                "no request \(id) is pending: it was never made here, has been answered already (a request takes one answer), or expired")
        }
        let time = now()
        let deviceResponse: [UInt8]
        let transcript: SessionTranscriptBinding
        let online: JSONValue
        switch stored {
        case .annexC(let state):
            guard let encrypted = received.annexC else {
                throw ServiceError(.unprocessableContent, "wrongProtocol", "request \(id) was made in org-iso-mdoc, and the body is not an org-iso-mdoc response")
            }
            do {
                deviceResponse = try state.open(encrypted, at: time)
            } catch where error.code == .requestExpired {
                throw ServiceError(.gone, "requestExpired", "request \(id): \(error.reason)")
            } catch {
                throw ServiceError(.unprocessableContent, "responseNotBound", "request \(id): \(error)")
            }
            transcript = state.sessionTranscript
            online = VerificationReportJSON.online(state)
        case .openID4VP(let state):
            guard let response = received.openID4VP else {
                throw ServiceError(.unprocessableContent, "wrongProtocol", "request \(id) was made in OpenID4VP, and the body is not an OpenID4VP response")
            }
            let presentations: [(id: String, deviceResponse: [UInt8])]
            do {
                presentations = try state.open(response, at: time)
                transcript = try state.sessionTranscript
            } catch where error.code == .requestExpired {
                throw ServiceError(.gone, "requestExpired", "request \(id): \(error.reason)")
            } catch {
                throw ServiceError(.unprocessableContent, "responseNotBound", "request \(id): \(error)")
            }
            // The request has one Credential Query, which open(_:at:) checked the vp_token
            // answers with exactly one presentation.
            guard presentations.count == 1, let presentation = presentations.first else {
                throw ServiceError(.unprocessableContent, "responseNotBound", "request \(id): the vp_token holds \(presentations.count) presentations, not one")
            }
            deviceResponse = presentation.deviceResponse
            online = VerificationReportJSON.online(state, credentialID: presentation.id)
        }
        let verifier = DeviceResponseVerifier(trustAnchors: trustAnchors, sessionTranscript: transcript)
        let report: VerificationReport
        do {
            report = try verifier.verify(deviceResponse, at: time)
        } catch {
            throw ServiceError(.unprocessableContent, "notADeviceResponse", "request \(id): the response does not hold a DeviceResponse: \(error)")
        }
        logger.info("request \(id) was answered: \(report.outcome.rawValue)")
        return JSONResponse.make(VerificationReportJSON.make(report, online: online), status: .ok)
    }

    /// The body of `request`, at most `limit` bytes; throws `bodyTooLarge` (413) for a longer
    /// one.
    static func body(of request: Request, upTo limit: Int) async throws -> [UInt8] {
        do {
            return Array(buffer: try await request.body.collect(upTo: limit))
        } catch is NIOTooManyBytesError {
            throw ServiceError(.contentTooLarge, "bodyTooLarge", "the body is longer than the limit of \(limit) bytes")
        }
    }
}
