/// The status of a document as its issuer publishes it and the reader found it: what a
/// ``RevocationPolicy`` learnt from its ``RevocationChecker`` about a document whose MSO names
/// where its status is published (ISO/IEC 18013-5 second edition, MobileSecurityObject
/// `status`), or that the checker found revoked or could not answer for.
public struct DocumentStatus: Sendable, Hashable {
    /// What the status is.
    public enum Value: String, Sendable, Hashable {
        /// Neither the document nor a certificate of its path has been revoked or suspended.
        case valid
        /// The document or a certificate of its path has been revoked (a status list's
        /// INVALID, draft-ietf-oauth-status-list section 7.1).
        case invalid
        /// The document has been suspended (a status list's SUSPENDED).
        case suspended
        /// The status could not be learnt (no list at hand, one that failed its checks, a value
        /// the reader does not interpret); ``DocumentStatus/accepted`` says whether the reader
        /// accepted the document anyway.
        case notChecked
    }

    /// What the status is.
    public var value: Value
    /// Why, in the checker's words: what was consulted, or why nothing could be.
    public var reason: String
    /// For ``Value/notChecked``, whether the policy accepted the document without its status
    /// (``RevocationPolicy/UnknownStatus/accept``); `true` otherwise when the status let the
    /// document pass, `false` when it failed it.
    public var accepted: Bool
    /// The status list entry the MSO names, when it names one.
    public var statusList: RevocationQuery.StatusListReference?
    /// The identifier list entry the MSO names, when it names one.
    public var identifierList: RevocationQuery.IdentifierListReference?

    /// A status of `value`, for `reason`, accepted or not, read from the references of
    /// `query`.
    public init(_ value: Value, reason: String, accepted: Bool, query: RevocationQuery) {
        self.value = value
        self.reason = reason
        self.accepted = accepted
        self.statusList = query.statusListReference
        self.identifierList = query.identifierListReference
    }
}
