import MdocCrypto
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One check made while verifying a DeviceResponse or a reader's request, and its outcome
/// (docs/architecture.md rule 5: a report lists every check, so a caller never interprets a bare Bool).
///
/// What was checked is a ``Kind`` and what it was checked on a ``Subject``: typed values that a
/// program compares, which the reports print as the names docs/json-report.md lists.
public struct VerificationCheck: Sendable, Hashable, CustomStringConvertible {
    /// How the check ended. The cases with a payload are boxed: a report holds a check per
    /// element, nearly all of them passed, and an outcome then takes a word instead of five.
    public enum Outcome: Sendable, Hashable {
        /// The check passed.
        case passed
        /// The check failed, with its code and reason.
        indirect case failed(VerificationFailure)
        /// Not made, with the reason (for example no session transcript was given).
        indirect case skipped(String)

        /// The check failed with `code`, explained by `reason`.
        public static func failed(_ code: VerificationFailure.Code, _ reason: String) -> Outcome {
            .failed(VerificationFailure(code, reason))
        }

        /// `true` for ``passed``.
        var isPassed: Bool {
            if case .passed = self { return true }
            return false
        }
    }

    /// Text of a check kept in its parts until it is read, so that verifying thousands of
    /// elements builds no string for a check nobody reads. Equal when the text is.
    enum Text: Sendable, Hashable {
        case text(String)
        /// `digestID N`.
        case digestID(UInt64)
        /// How a document signer's or reader's chain was accepted (9.3.3): the trust anchor it
        /// chains to under `profile`, and the extendedKeyUsage `rule` accepted, if a rule applies.
        indirect case chain(anchor: String, profile: CertificateProfile, purpose: String?, rule: DocumentSignerRule?)
        /// The MSO's validity window (9.1.2.4) and the time it was checked at.
        indirect case validity(from: TDate, until: TDate, checkedAt: Date)

        var text: String {
            switch self {
            case .text(let text): return text
            case .digestID(let digestID): return "digestID \(digestID)"
            case .chain(let anchor, let profile, let purpose, let rule):
                let accepted = purpose.flatMap { purpose in rule.map { "; extendedKeyUsage \(purpose) accepted by \($0)" } }
                return "chains to \"\(anchor)\" under the \(profile.leafName) profile" + (accepted ?? "")
            case .validity(let from, let until, let time):
                return "valid from \(from) until \(until), checked at \(TDate(time).text)"
            }
        }

        static func == (lhs: Text, rhs: Text) -> Bool {
            switch (lhs, rhs) {
            case (.text(let a), .text(let b)): return a == b
            case (.digestID(let a), .digestID(let b)): return a == b
            default: return lhs.text == rhs.text
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(text)
        }
    }

    /// What was checked.
    public var kind: Kind
    /// What the check was about: an element, a certificate, the issuerAuth, ...
    public var subject: Subject
    /// How it ended.
    public var outcome: Outcome
    /// What was established when it passed (for example "ES256 by CN=utopia ds, C=US").
    public var detail: String {
        get { detailText.text }
        set { detailText = .text(newValue) }
    }
    private var detailText: Text

    /// A check of `kind` about `subject` that ended with `outcome`.
    public init(_ kind: Kind, subject: Subject, outcome: Outcome, detail: String = "") {
        self.init(kind, subject: subject, outcome: outcome, detail: .text(detail))
    }

    /// A check whose detail is built when it is read.
    init(_ kind: Kind, subject: Subject, outcome: Outcome, detail: Text) {
        self.kind = kind
        self.subject = subject
        self.outcome = outcome
        self.detailText = detail
    }

    /// `true` when the check passed.
    public var passed: Bool { outcome.isPassed }

    /// `true` when the check failed.
    public var failed: Bool {
        if case .failed = outcome { return true }
        return false
    }

    /// The failure reason, or `nil`.
    public var failureReason: String? {
        if case .failed(let failure) = outcome { return failure.reason }
        return nil
    }

    /// The failure code, or `nil` when the check did not fail.
    public var failureCode: VerificationFailure.Code? {
        if case .failed(let failure) = outcome { return failure.code }
        return nil
    }

    /// `true` for checks that belong to issuer data authentication (9.3.1).
    public var isIssuerCheck: Bool { kind.mechanism == .issuerDataAuthentication }

    /// One line: kind, subject and outcome.
    public var description: String {
        switch outcome {
        case .passed: return "\(kind) (\(subject)): passed\(detail.isEmpty ? "" : ", \(detail)")"
        case .failed(let reason): return "\(kind) (\(subject)): FAILED: \(reason)"
        case .skipped(let reason): return "\(kind) (\(subject)): not checked: \(reason)"
        }
    }
}
