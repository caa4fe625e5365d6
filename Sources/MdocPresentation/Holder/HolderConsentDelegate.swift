import MdocSession

/// What the holder releases (ISO/IEC 18013-5 6.3.2.4, 8.3.2.1.2): the application's consent,
/// asked once per request.
///
/// ``presentation(of:identities:credentials:)`` shapes what the holder is shown; by default
/// DocRequests of one docType are merged under the stricter terms
/// (``PresentationRequest/init(merging:identities:credentials:)``). ``decide(_:)`` gives the
/// answer, however long a person takes.
public protocol HolderConsentDelegate: Sendable {
    /// The request as the holder is shown it, from the received request, the identity of each
    /// DocRequest's reader and the holder's credentials.
    func presentation(of request: ReceivedRequest, identities: [ReaderIdentity], credentials: [Credential]) -> PresentationRequest

    /// The elements to release for `request`; `ElementSelection.none` declines it all.
    ///
    /// The task is cancelled when the reader ends the session or leaves before the answer: return
    /// promptly then (whatever is returned is not sent), and stop asking.
    func decide(_ request: PresentationRequest) async -> ElementSelection
}

extension HolderConsentDelegate {
    /// Each DocRequest with its reader's identity, DocRequests of one docType merged.
    public func presentation(of request: ReceivedRequest, identities: [ReaderIdentity], credentials: [Credential]) -> PresentationRequest {
        PresentationRequest(merging: request, identities: identities, credentials: credentials)
    }
}

/// Consent given by a function of the request, such as a rule set or an answer that never
/// changes.
public struct HolderConsent: HolderConsentDelegate {
    private let decision: @Sendable (PresentationRequest) async -> ElementSelection

    /// Consent that answers each request with `decision(request)`.
    public init(_ decision: @escaping @Sendable (PresentationRequest) async -> ElementSelection) {
        self.decision = decision
    }

    /// Releases every requested element the holder has, without asking: for a holder whose user
    /// agreed beforehand.
    public static let approvingAllAvailable = HolderConsent { $0.allAvailable }

    /// Releases nothing.
    public static let refusingAll = HolderConsent { _ in .none }

    /// The answer `decision` gives.
    public func decide(_ request: PresentationRequest) async -> ElementSelection {
        await decision(request)
    }
}
