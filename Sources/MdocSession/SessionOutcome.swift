/// How a session ended, for either side (ISO/IEC 18013-5 9.1.1.4 status codes, 8.3.3.1.1.5
/// transport-specific termination).
public enum SessionOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The mdoc reader ended the session (SessionData status 20).
    case terminatedByReader
    /// The mdoc ended the session (SessionData status 20).
    case terminatedByHolder
    /// The transport ended after at least one response was delivered: a normal end, since a
    /// reader may simply disconnect once it has its answer.
    case transportEnded
    /// The session ended with an error: ours (reported to the peer with status 10, 11 or 20) or
    /// the peer's (`SessionError.Code.peerReportedError`).
    case failed(SessionError)

    /// `true` unless the session failed.
    public var isNormalEnd: Bool {
        if case .failed = self { return false }
        return true
    }

    /// A short sentence for people; a failure in the words of its reason, which say what went
    /// wrong without the error's code.
    public var description: String {
        switch self {
        case .terminatedByReader: return "the reader ended the session"
        case .terminatedByHolder: return "the mdoc ended the session"
        case .transportEnded: return "the connection ended after the response"
        case .failed(let error): return "the session failed: \(error.reason)"
        }
    }
}
