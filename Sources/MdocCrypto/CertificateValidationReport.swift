/// Collects the outcome of each (certificate, check) pair while a chain is validated; a failure
/// replaces an earlier pass for the same pair and the first failure for a pair is kept.
struct CertificateValidationReport {
    /// The most passes one certificate of a path is given: its validity, four checks of its
    /// place in the path, its signature algorithm, its critical extensions and its signature.
    static let passesPerCertificate = 8
    /// The passes a validated path is given as a whole: its length and its trust anchor.
    static let passesPerPath = 2

    private var failures: [CertificateValidationFailure] = []
    private var passed: [CertificateValidationResult.PassedCheck] = []

    /// Makes room for the passes of a path of up to `certificateCount` certificates at once,
    /// rather than as they are recorded.
    mutating func reserveCapacity(certificateCount: Int) {
        passed.reserveCapacity(certificateCount * Self.passesPerCertificate + Self.passesPerPath)
    }

    /// Whether `check` has failed for `certificate`. Certificates are told apart by their DER
    /// bytes, not their names, which two certificates of a path may share. A validation records
    /// a handful of failures at most, so a search costs less than hashing.
    private func hasFailed(_ certificate: Certificate?, _ check: CertificateCheck) -> Bool {
        failures.contains { $0.check == check && $0.certificate == certificate }
    }

    /// Records that `check` passed for `certificate`, unless it has already failed.
    mutating func pass(_ certificate: Certificate, _ check: CertificateCheck, _ finding: CertificateValidationResult.PassedCheck.Finding) {
        guard !hasFailed(certificate, check) else { return }
        passed.append(.init(certificate: certificate, check: check, finding: finding))
    }

    /// Records that `check` failed for `certificate` (`nil`: the chain as a whole).
    mutating func fail(_ certificate: Certificate?, _ check: CertificateCheck, _ reason: String) {
        guard !hasFailed(certificate, check) else { return }
        passed.removeAll { $0.certificate == certificate && $0.check == check }
        failures.append(CertificateValidationFailure(certificate: certificate, check: check, reason: reason))
    }

    /// Records `passed` when `failure` is `nil`, else the failure.
    mutating func record(
        _ certificate: Certificate, _ check: CertificateCheck, failure: String?, passed: CertificateValidationResult.PassedCheck.Finding
    ) {
        if let failure {
            fail(certificate, check, failure)
        } else {
            pass(certificate, check, passed)
        }
    }

    /// The result, failures ordered by the failing certificate's position in `path`.
    func result(path: [Certificate]) -> CertificateValidationResult {
        guard !failures.isEmpty else { return CertificateValidationResult(path: path, failures: [], passedChecks: passed) }
        let order = { (certificate: Certificate?) -> Int in certificate.flatMap { path.firstIndex(of: $0) } ?? path.count }
        let sorted = failures.enumerated().sorted { lhs, rhs in
            let (left, right) = (order(lhs.element.certificate), order(rhs.element.certificate))
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
        return CertificateValidationResult(path: path, failures: sorted, passedChecks: passed)
    }
}
