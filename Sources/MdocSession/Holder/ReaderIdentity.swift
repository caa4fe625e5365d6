/// Who is asking, as reader authentication established it for one DocRequest (ISO/IEC 18013-5
/// 9.1.4): what the holder is shown before consenting.
public enum ReaderIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The request carries no readerAuth.
    case anonymous
    /// The readerAuth signature verifies and the reader certificate `subject` chains to the
    /// trusted reader root `anchor`.
    case trusted(subject: String, anchor: String)
    /// The request carries readerAuth that does not hold: the certificate is missing, unreadable
    /// or not trusted, or the signature does not verify. `subject` is the reader certificate's
    /// subject when one was readable; it is a claim, not an identity.
    case untrusted(subject: String?, reason: String)

    /// A short sentence for people.
    public var description: String {
        switch self {
        case .anonymous:
            return "anonymous reader (no reader authentication)"
        case .trusted(let subject, let anchor):
            return "\(subject), trusted through \(anchor)"
        case .untrusted(let subject, let reason):
            return "untrusted reader\(subject.map { " claiming to be \($0)" } ?? ""): \(reason)"
        }
    }

    /// How far the identity is established: untrusted (a claim that failed) below anonymous
    /// below trusted.
    package var trustRank: Int {
        switch self {
        case .untrusted: return 0
        case .anonymous: return 1
        case .trusted: return 2
        }
    }

    /// The identity a reader authentication report shows.
    init(_ report: ReaderAuthenticationVerifier.Report) {
        if report.isAnonymous {
            self = .anonymous
        } else if report.isAuthenticated, let subject = report.readerCertificate, let anchor = report.trustAnchor {
            self = .trusted(subject: subject, anchor: anchor)
        } else {
            let reasons = report.checks.compactMap(\.failureReason)
            self = .untrusted(
                subject: report.readerCertificate,
                reason: reasons.isEmpty ? "reader authentication did not complete" : reasons.joined(separator: "; "))
        }
    }
}
