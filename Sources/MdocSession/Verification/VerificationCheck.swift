/// One check made while verifying a DeviceResponse or a reader's request, and its outcome
/// (design.md rule 5: a report lists every check, so a caller never interprets a bare Bool).
public struct VerificationCheck: Sendable, Hashable, CustomStringConvertible {
    /// What was checked.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The structure decodes (MSO, COSE objects, embedded items).
        case structure
        /// The document signer certificate chains to a trust anchor under the Annex B profile
        /// (18013-5 9.3.3, B.1).
        case issuerCertificate = "issuer certificate"
        /// The IssuerAuth COSE_Sign1 verifies with the document signer key (9.1.2.4).
        case issuerSignature = "issuer signature"
        /// The MSO validity window contains the verification time (9.3.1 step 5).
        case validity
        /// The MSO docType equals the document's docType (9.3.1 step 4).
        case docType
        /// The MSO digest algorithm is one 18013-5 allows (9.1.2.5).
        case digestAlgorithm = "digest algorithm"
        /// A returned element's digest equals the MSO's value digest (9.3.1 step 3).
        case valueDigest = "value digest"
        /// DeviceSignature or DeviceMac verifies over DeviceAuthenticationBytes (9.1.3).
        case deviceAuthentication = "device authentication"
        /// Device-signed elements are authorised by the MSO KeyAuthorizations (9.1.2.4).
        case keyAuthorization = "key authorization"
        /// The reader certificate chains to a trusted reader root under the Annex B profile.
        case readerCertificate = "reader certificate"
        /// ReaderAuth verifies over ReaderAuthenticationBytes (9.1.4).
        case readerSignature = "reader signature"
    }

    /// How the check ended.
    public enum Outcome: Sendable, Hashable {
        /// The check passed.
        case passed
        /// The check failed, with its code and reason.
        case failed(VerificationFailure)
        /// Not made, with the reason (for example no session transcript was given).
        case skipped(String)

        /// The check failed with `code`, explained by `reason`.
        public static func failed(_ code: VerificationFailure.Code, _ reason: String) -> Outcome {
            .failed(VerificationFailure(code, reason))
        }
    }

    /// Text of a check kept in its parts until it is read, so that verifying thousands of
    /// elements builds no string for a check nobody reads. Equal when the text is.
    enum Text: Sendable, Hashable {
        case text(String)
        /// `nameSpace/identifier`.
        case element(nameSpace: String, identifier: String)
        /// `digestID N`.
        case digestID(UInt64)

        var text: String {
            switch self {
            case .text(let text): return text
            case .element(let nameSpace, let identifier): return nameSpace + "/" + identifier
            case .digestID(let digestID): return "digestID \(digestID)"
            }
        }

        static func == (lhs: Text, rhs: Text) -> Bool {
            switch (lhs, rhs) {
            case (.text(let a), .text(let b)): return a == b
            case (.element(let a, let b), .element(let c, let d)): return a == c && b == d
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
    /// What the check was about: an element (`org.iso.18013.5.1/family_name`), a certificate, ...
    public var subject: String {
        get { subjectText.text }
        set { subjectText = .text(newValue) }
    }
    /// How it ended.
    public var outcome: Outcome
    /// What was established when it passed (for example "ES256 by CN=utopia ds, C=US").
    public var detail: String {
        get { detailText.text }
        set { detailText = .text(newValue) }
    }
    private var subjectText: Text
    private var detailText: Text

    /// A check of `kind` about `subject` that ended with `outcome`.
    public init(_ kind: Kind, subject: String, outcome: Outcome, detail: String = "") {
        self.init(kind, subject: .text(subject), outcome: outcome, detail: .text(detail))
    }

    /// A check whose text is built when it is read.
    init(_ kind: Kind, subject: Text, outcome: Outcome, detail: Text = .text("")) {
        self.kind = kind
        self.subjectText = subject
        self.outcome = outcome
        self.detailText = detail
    }

    /// `true` when the check passed.
    public var passed: Bool {
        if case .passed = outcome { return true }
        return false
    }

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
    public var isIssuerCheck: Bool {
        switch kind {
        case .structure, .issuerCertificate, .issuerSignature, .validity, .docType, .digestAlgorithm, .valueDigest:
            return true
        case .deviceAuthentication, .keyAuthorization, .readerCertificate, .readerSignature:
            return false
        }
    }

    /// One line: kind, subject and outcome.
    public var description: String {
        switch outcome {
        case .passed: return "\(kind.rawValue) (\(subject)): passed\(detail.isEmpty ? "" : ", \(detail)")"
        case .failed(let reason): return "\(kind.rawValue) (\(subject)): FAILED: \(reason)"
        case .skipped(let reason): return "\(kind.rawValue) (\(subject)): not checked: \(reason)"
        }
    }
}
