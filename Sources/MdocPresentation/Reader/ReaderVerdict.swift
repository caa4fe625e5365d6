import MdocModel
import MdocSession

/// What a reader's session came to, in one value (ISO/IEC 18013-5 9.1.1.4, 9.3.1): the verified
/// documents, or why there are none. Every case carries the whole session's ``details`` (the
/// report, every message, the mode and ATT_MTU) for logs, captures and JSON.
///
/// Only ``verified(_:details:)`` holds data to show or use, and that data is only what passed
/// issuer data authentication and mdoc authentication (`VerifiedDocuments`).
public enum ReaderVerdict: Sendable {
    /// Why an mdoc returned no document.
    public enum Refusal: Sendable, Hashable, CustomStringConvertible {
        /// A response came with no document: the holder released nothing, or the mdoc holds
        /// none of the requested types. `status` is the DeviceResponse status (8.3.2.1.2.3),
        /// `documentErrors` what it said of each document type it did not return.
        case noDocuments(status: DeviceResponse.Status, documentErrors: [VerificationReport.DocumentErrorEntry])
        /// The session ended normally (status 20 from either side, or the mdoc left) before a
        /// response came.
        case sessionEnded(SessionOutcome)

        /// A short sentence for people.
        public var description: String {
            switch self {
            case .noDocuments(let status, _): return "the mdoc returned no document (status \(status))"
            case .sessionEnded(let outcome): return "\(outcome) before a response came"
            }
        }
    }

    /// Every returned document passed issuer data authentication and mdoc authentication.
    case verified(VerifiedDocuments, details: ReaderSessionResult)
    /// A response came and a document in it failed verification; the report says which check.
    case rejected(VerificationReport, details: ReaderSessionResult)
    /// The mdoc returned no document or ended the session without answering.
    case refused(Refusal, details: ReaderSessionResult)
    /// The session failed: a message did not decrypt or decode, or the mdoc ended it with an
    /// error status (10, 11).
    case failed(SessionError, details: ReaderSessionResult)
    /// No link to the mdoc could be made, or it was lost before a response came.
    case linkFailed(LinkError, details: ReaderSessionResult)

    /// The verdict on `result`: ``verified(_:details:)`` exactly when the report's
    /// `VerificationReport.verifiedDocuments` exist.
    public init(_ result: ReaderSessionResult) {
        if let report = result.report {
            if let documents = report.verifiedDocuments {
                self = .verified(documents, details: result)
            } else if report.outcome == .noDocuments {
                let status = DeviceResponse.Status(rawValue: report.status)
                self = .refused(.noDocuments(status: status, documentErrors: report.documentErrors), details: result)
            } else {
                self = .rejected(report, details: result)
            }
            return
        }
        switch result.end {
        case .link(let error):
            self = .linkFailed(error, details: result)
        case .session(.failed(let error)):
            self = .failed(error, details: result)
        case .session(let outcome):
            self = .refused(.sessionEnded(outcome), details: result)
        }
    }

    /// The whole session: the report, every message, the mode and the ATT_MTU.
    public var details: ReaderSessionResult {
        switch self {
        case .verified(_, let details), .rejected(_, let details), .refused(_, let details), .failed(_, let details),
            .linkFailed(_, let details):
            return details
        }
    }

    /// The verified documents; `nil` unless ``verified(_:details:)``.
    public var verifiedDocuments: VerifiedDocuments? {
        if case .verified(let documents, _) = self { return documents }
        return nil
    }
}
