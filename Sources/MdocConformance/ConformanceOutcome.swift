/// What one ``ConformanceCase`` came to.
public enum ConformanceOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The mdoc showed the expected behaviour.
    case passed
    /// The mdoc did something else; the reason says what it did and what was expected.
    case failed(String)
    /// Nothing could be concluded about the mdoc: no session could be made (no engagement, no
    /// link), or the session could not be started on our side.
    case inconclusive(String)

    /// `passed`, `failed` or `inconclusive`, as reports write it.
    public var name: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .inconclusive: "inconclusive"
        }
    }

    /// Why the case did not pass; `nil` when it passed.
    public var reason: String? {
        switch self {
        case .passed: nil
        case .failed(let reason), .inconclusive(let reason): reason
        }
    }

    /// The name, with the reason after a colon.
    public var description: String {
        reason.map { "\(name): \($0)" } ?? name
    }
}
