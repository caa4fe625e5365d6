/// The outcome of validating a certificate chain (RFC 5280 section 6.1 with an ISO/IEC 18013-5
/// Annex B profile): every check that ran, every failure, and the path built.
///
/// Validation is a value, not a throw, so that a verification report can list each check
/// (docs/architecture.md rule 5); after swift-certificates' `CertificateValidationResult`.
public struct CertificateValidationResult: Sendable, CustomStringConvertible {
    /// The path OpenSSL built, leaf first, ending with the trust anchor when one was found;
    /// when no anchor was found, as far as the chain given leads.
    public let path: [Certificate]
    /// Every failure, ordered by the failing certificate's place in the path (leaf first).
    public let failures: [CertificateValidationFailure]
    /// Every check that passed, in the order they ran.
    public let passedChecks: [PassedCheck]

    /// The result of a validation that built `path` and ran the given checks.
    public init(path: [Certificate], failures: [CertificateValidationFailure], passedChecks: [PassedCheck]) {
        self.path = path
        self.failures = failures
        self.passedChecks = passedChecks
    }

    /// `true` when a path to a trust anchor was built and no check failed.
    public var isValid: Bool { failures.isEmpty && !path.isEmpty }

    /// The validated path (leaf ... trust anchor), or `nil` when validation failed.
    public var validatedPath: [Certificate]? { isValid ? path : nil }

    /// The validated end-entity certificate, or `nil` when validation failed.
    public var validatedLeaf: Certificate? { validatedPath?.first }

    public var description: String {
        if isValid {
            return "valid: " + path.map { "\"\($0.subject)\"" }.joined(separator: " <- ")
        }
        return "invalid:\n" + failures.map { "  \($0)" }.joined(separator: "\n")
    }
}
