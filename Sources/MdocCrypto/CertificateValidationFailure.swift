/// One failed check of certificate chain validation, naming the certificate it concerns.
///
/// Its description reads like
/// `certificate "CN=utopia ds, C=US": validity: expired on 2021-10-01T00:00:00Z (checked at 2026-11-21T00:00:00Z)`.
public struct CertificateValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The certificate that failed; `nil` when the failure concerns the chain as a whole (an
    /// empty chain).
    public let certificate: Certificate?
    /// The check that failed.
    public let check: CertificateCheck
    /// What was wrong, in words.
    public let reason: String

    /// A failure of `check` for `certificate` (`nil`: the chain as a whole), for `reason`.
    public init(certificate: Certificate?, check: CertificateCheck, reason: String) {
        self.certificate = certificate
        self.check = check
        self.reason = reason
    }

    public var description: String {
        let subject = certificate.map { "certificate \"\($0.subject)\"" } ?? "chain"
        return "\(subject): \(check): \(reason)"
    }
}
