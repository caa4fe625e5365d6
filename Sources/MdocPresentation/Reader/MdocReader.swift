import Logging
import MdocBLE
import MdocCrypto
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An mdoc reader (ISO/IEC 18013-5 9.1.1 over the BLE transport of 8.3.3.1.1): configured once
/// by a ``Configuration`` (what to request, whom to trust, reader authentication, bounds,
/// termination), it reads one mdoc after another.
///
/// Every read is a new session with a new ephemeral reader key (EReaderKey, 9.1.1.4): a
/// ``Session`` is made for one engagement and can run only once, since it cannot be copied and
/// running consumes it. A kiosk reader is a loop:
///
/// ```swift
/// let reader = MdocReader(configuration: .init(request: [RequestPreset.ageOver18.docRequestSpec()], trustAnchors: iacas))
/// for scanned in camera {
///     switch try await reader.read(MdocURI(scanned), over: radio) {
///     case .verified(let documents, _): show(documents.first?.ageOver(18))
///     case let verdict: show(verdict)
///     }
/// }
/// ```
public struct MdocReader: Sendable {
    /// Everything a reader needs to know before it reads an mdoc.
    public struct Configuration: Sendable {
        /// The documents and elements to request (8.3.2.1.2.1).
        public var request: [DocRequestSpec]
        /// The IACA certificates issuers' document signers must chain to (9.3.3).
        public var trustAnchors: [Certificate]
        /// The reader authentication key and its certificate chain, leaf first (9.1.4); `nil`
        /// for a request without reader authentication.
        public var readerAuthentication: (key: PrivateKey, chain: [Certificate])?
        /// Which extended key usage a document signer must have, per document type.
        public var documentSignerPolicy: DocumentSignerPolicy
        /// The bounds of each wait.
        public var timeouts: SessionTimeouts
        /// How a session ends once the response is in.
        public var termination: ReaderTermination
        /// The BLE mode to use when the mdoc offers it; `nil` for the first it offers,
        /// peripheral server mode first.
        public var preferredMode: MdocBLEMode?
        /// The time responses are verified at.
        public var now: @Sendable () -> Date
        /// Where the BLE layers log.
        public var logger: Logger
        /// What the session bounds (``timeouts``, the wait for the mdoc included) are measured
        /// on; a test's own clock runs them in virtual time.
        public var clock: any Clock<Duration>

        /// A configuration requesting `request` and trusting `trustAnchors`; the other
        /// settings have the defaults of `mdoc-reader request`: no reader authentication,
        /// the standard document signer policy, ``SessionTimeouts/reader``, ending with status
        /// 20, the mdoc's first mode, the system's time and continuous clock.
        public init(
            request: [DocRequestSpec], trustAnchors: [Certificate],
            readerAuthentication: (key: PrivateKey, chain: [Certificate])? = nil,
            documentSignerPolicy: DocumentSignerPolicy = .standard, timeouts: SessionTimeouts = .reader,
            termination: ReaderTermination = .status, preferredMode: MdocBLEMode? = nil,
            now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "mdoc.ble"),
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.request = request
            self.trustAnchors = trustAnchors
            self.readerAuthentication = readerAuthentication
            self.documentSignerPolicy = documentSignerPolicy
            self.timeouts = timeouts
            self.termination = termination
            self.preferredMode = preferredMode
            self.now = now
            self.logger = logger
            self.clock = clock
        }
    }

    /// How this reader reads.
    public var configuration: Configuration

    /// A reader configured by `configuration`.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// A new session with the mdoc that showed `uri`, with a new ephemeral reader key; run it
    /// with ``Session/run(over:)``.
    ///
    /// - Throws: `SessionError` when the engagement cannot start a session (its key is on a
    ///   curve without key agreement, the request or reader authentication cannot be built).
    public func session(for uri: MdocURI) throws(SessionError) -> Session {
        let session = try ReaderSession(
            uri: uri, request: configuration.request, readerAuthentication: configuration.readerAuthentication,
            trustAnchors: configuration.trustAnchors, documentSignerPolicy: configuration.documentSignerPolicy,
            now: configuration.now)
        return Session(session: session, configuration: configuration)
    }

    /// Reads the mdoc that showed `uri` over `radio` in a new session: finds it, requests,
    /// verifies, ends the session, and says what came of it.
    ///
    /// - Throws: `SessionError` when the engagement cannot start a session
    ///   (``session(for:)-(MdocURI)``); everything after that is in the verdict.
    public func read(_ uri: MdocURI, over radio: any MdocRadio) async throws(SessionError) -> ReaderVerdict {
        try await session(for: uri).run(over: radio)
    }
}
