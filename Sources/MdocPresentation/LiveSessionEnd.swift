import MdocSession

/// How a live session ended: the protocol reached an end (ISO/IEC 18013-5 9.1.1.4, normal or
/// not), or the link did not let it (8.3.3.1.1: no peer, a bound ran out, the BLE layer failed).
public enum LiveSessionEnd: Sendable, Hashable, CustomStringConvertible {
    /// The session ended as `SessionOutcome` says.
    case session(SessionOutcome)
    /// The link could not be made or was lost before the session reached an end.
    case link(LinkError)

    /// `true` when the session ended normally: by either side with status 20, or the link
    /// ending after a response was delivered.
    public var isNormalEnd: Bool {
        if case .session(let outcome) = self { return outcome.isNormalEnd }
        return false
    }

    /// A short sentence for people.
    public var description: String {
        switch self {
        case .session(let outcome): return outcome.description
        case .link(let error): return error.description
        }
    }
}
