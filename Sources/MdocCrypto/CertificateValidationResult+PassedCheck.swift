#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CertificateValidationResult {
    /// A check that ran and passed for one certificate.
    ///
    /// What was found is kept as the values it is made of and put into words only when
    /// ``detail`` is read: a verifier that validates a chain per response builds no text for the
    /// checks nobody renders.
    public struct PassedCheck: Sendable, Hashable, CustomStringConvertible {
        /// The certificate checked.
        public let certificate: Certificate
        /// The check.
        public let check: CertificateCheck
        /// What was found, as values.
        let finding: Finding

        /// A pass of `check` for `certificate`, with what was found.
        public init(certificate: Certificate, check: CertificateCheck, detail: String) {
            self.init(certificate: certificate, check: check, finding: .text(detail))
        }

        init(certificate: Certificate, check: CertificateCheck, finding: Finding) {
            self.certificate = certificate
            self.check = check
            self.finding = finding
        }

        /// What was found, in words.
        public var detail: String { finding.text }

        public var description: String { "certificate \"\(certificate.subject)\": \(check): ok, \(detail)" }

        /// Two passes are equal when they are of the same check of the same certificate and say
        /// the same in words.
        public static func == (lhs: PassedCheck, rhs: PassedCheck) -> Bool {
            lhs.certificate == rhs.certificate && lhs.check == rhs.check && lhs.detail == rhs.detail
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(certificate)
            hasher.combine(check)
            hasher.combine(detail)
        }
    }
}

extension CertificateValidationResult.PassedCheck {
    /// What a passed check found: text, or the values of one of the findings that the chain
    /// validator records on every validation.
    enum Finding: Sendable, ExpressibleByStringLiteral {
        /// Text made when the check ran (often a literal, which costs nothing to keep).
        case text(String)
        /// The certificate is valid at this time (RFC 5280 section 4.1.2.5).
        case validAt(Date)
        /// The extendedKeyUsage has this accepted purpose (RFC 5280 section 4.2.1.12).
        case extendedKeyUsage(String)
        /// The trust anchor's pathLenConstraint (nil when absent) permits this many intermediate
        /// CA certificates (RFC 5280 section 4.2.1.9).
        case rootPathLength(Int?, intermediates: Int)
        /// An intermediate's pathLenConstraint permits this many CA certificates below it.
        case intermediatePathLength(Int, below: Int)
        /// The path holds this many certificates of at most that many.
        case pathLength(Int, maximum: Int)
        /// The path ends at this trust anchor.
        case trustAnchor(Certificate)
        /// The certificate is signed by this issuer (RFC 5280 section 4.1.1.3).
        case signedBy(Certificate)

        init(stringLiteral text: String) {
            self = .text(text)
        }

        var text: String {
            switch self {
            case .text(let text): return text
            case .validAt(let time): return "valid at \(X509Time.rfc3339(time))"
            case .extendedKeyUsage(let purpose): return "extendedKeyUsage has \(purpose)"
            case .rootPathLength(let limit, let intermediates):
                return "pathLenConstraint \(limit ?? 0) permits \(intermediates) intermediate CA certificates"
            case .intermediatePathLength(let limit, let below):
                return "pathLenConstraint \(limit) permits \(below) CA certificates below it"
            case .pathLength(let count, let maximum): return "the path holds \(count) of at most \(maximum) certificates"
            case .trustAnchor(let anchor): return "the path ends at the trust anchor \"\(anchor.subject)\""
            case .signedBy(let issuer): return "signed by \"\(issuer.subject)\""
            }
        }
    }
}
