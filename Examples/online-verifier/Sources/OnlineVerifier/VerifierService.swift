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

/// The online verifier's HTTP interface (ISO/IEC TS 18013-7 Annex C over HTTP):
///
/// - `GET /`: ``VerifierPage``.
/// - `POST /requests`: a ``RequestCreation`` body; makes an Annex C request and its state
///   (`DCAPIRequestState.make`), keeps the state in the store under a fresh ``RequestID`` and
///   answers 201 `{"id", "request": {deviceRequest, encryptionInfo}, "expires"}`, `request`
///   being what the page passes to `navigator.credentials.get` as the `org-iso-mdoc` data.
/// - `POST /requests/{id}/response`: the wallet's `{"response": ...}`; takes the state out of
///   the store (once: a second answer is refused), opens the response with it and verifies the
///   DeviceResponse bound to its SessionTranscript (ISO/IEC 18013-5 9.3.1), as `mdoc-reader
///   verify --online-state` does; answers 200 with the ``VerificationReportJSON`` report,
///   whatever its outcome.
///
/// Refusals are ``ServiceError`` objects: 400 for a body or id that does not read, 404 for a
/// request that is not pending (unknown, answered already, or purged after its expiry), 410
/// for a request that expired, 413 for a body over ``ServiceLimits``, 422 for a response that
/// does not open with the request's key and transcript (another request or origin, or
/// altered) or is no DeviceResponse, 500 when the request cannot be made or a stored state does
/// not read, 503 when the store fails or is full.
public struct VerifierService: Sendable {
    /// The IACA certificates the documents' signers must chain to.
    public let trustAnchors: [Certificate]
    /// The key and chain that sign each DocRequest (ISO/IEC 18013-5 9.1.4), or `nil` for
    /// unsigned requests.
    public let readerAuthentication: (key: PrivateKey, chain: [Certificate])?
    /// Where requests are kept until answered.
    public let store: any RequestStateStore
    /// The current time: when requests are made and answers verified.
    public let now: @Sendable () -> Date
    private let logger: Logger

    /// A verifier trusting `trustAnchors`, signing its requests with `readerAuthentication`,
    /// keeping them in `store`, reading the time from `now`.
    public init(
        trustAnchors: [Certificate], readerAuthentication: (key: PrivateKey, chain: [Certificate])?, store: any RequestStateStore,
        logger: Logger, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.trustAnchors = trustAnchors
        self.readerAuthentication = readerAuthentication
        self.store = store
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
        let made: (request: DCAPIRequest, state: DCAPIRequestState)
        do {
            made = try DCAPIRequestState.make(
                [creation.spec], origin: creation.origin, readerAuthentication: readerAuthentication, now: now(),
                validity: creation.validity)
        } catch {
            // The origin and the validity were checked already: what fails here is the
            // verifier's own key generation or signing.
            throw ServiceError(.internalServerError, "requestNotMade", "the request cannot be made: \(error)")
        }
        let id = RequestID.random()
        try await store.put(.annexC(made.state), id: id)
        logger.info("made the org-iso-mdoc request \(id) for \(UntrustedText.escaped(creation.origin)), expiring at \(TDate(made.state.expires).text)")
        return JSONResponse.make(
            .object([("id", .string(id.text)), ("request", made.request.json), ("expires", .string(TDate(made.state.expires).text))]),
            status: .created)
    }

    /// `POST /requests/{id}/response`. The body is read before the request is taken, so that
    /// a body that is no response spends nothing; once taken, the request is spent whatever
    /// the answer turns out to be.
    func answer(_ id: RequestID, _ body: [UInt8]) async throws(ServiceError) -> Response {
        let encrypted: EncryptedResponse
        do {
            encrypted = try EncryptedResponse(json: body)
        } catch {
            throw ServiceError(.badRequest, "malformedResponse", "the body is not an org-iso-mdoc response: \(error)")
        }
        guard let stored = try await store.take(id) else {
            throw ServiceError(
                .notFound, "requestNotPending",
                "no request \(id) is pending: it was never made here, has been answered already (a request takes one answer), or expired")
        }
        let time = now()
        switch stored {
        case .annexC(let state):
            let deviceResponse: [UInt8]
            do {
                deviceResponse = try state.open(encrypted, at: time)
            } catch where error.code == .requestExpired {
                throw ServiceError(.gone, "requestExpired", "request \(id): \(error.reason)")
            } catch {
                throw ServiceError(.unprocessableContent, "responseNotBound", "request \(id): \(error)")
            }
            let verifier = DeviceResponseVerifier(trustAnchors: trustAnchors, sessionTranscript: state.sessionTranscript)
            let report: VerificationReport
            do {
                report = try verifier.verify(deviceResponse, at: time)
            } catch {
                throw ServiceError(.unprocessableContent, "notADeviceResponse", "request \(id): the decrypted response is not a DeviceResponse: \(error)")
            }
            logger.info("request \(id) was answered: \(report.outcome.rawValue)")
            return JSONResponse.make(VerificationReportJSON.make(report, state: state), status: .ok)
        }
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
