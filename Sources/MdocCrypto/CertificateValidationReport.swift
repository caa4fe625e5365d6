/// Collects the outcome of each (certificate, check) pair while a chain is validated; a failure
/// replaces an earlier pass for the same pair and the first failure for a pair is kept.
struct CertificateValidationReport {
    private struct Key: Hashable {
        let certificate: String
        let check: CertificateCheck
    }

    private var failures: [CertificateValidationFailure] = []
    private var failed: Set<Key> = []
    private var passed: [CertificateValidationResult.PassedCheck] = []

    mutating func pass(_ certificate: Certificate, _ check: CertificateCheck, _ detail: String) {
        guard !failed.contains(Key(certificate: certificate.subject, check: check)) else { return }
        passed.append(.init(certificate: certificate.subject, check: check, detail: detail))
    }

    mutating func fail(_ subject: String, _ check: CertificateCheck, _ reason: String) {
        let key = Key(certificate: subject, check: check)
        guard failed.insert(key).inserted else { return }
        passed.removeAll { $0.certificate == subject && $0.check == check }
        failures.append(CertificateValidationFailure(certificate: subject, check: check, reason: reason))
    }

    mutating func fail(_ certificate: Certificate, _ check: CertificateCheck, _ reason: String) {
        fail(certificate.subject, check, reason)
    }

    /// Records `passed` when `failure` is `nil`, else the failure.
    mutating func record(_ certificate: Certificate, _ check: CertificateCheck, failure: String?, passed: String) {
        if let failure {
            fail(certificate, check, failure)
        } else {
            pass(certificate, check, passed)
        }
    }

    /// The result, failures ordered by the failing certificate's position in `path`.
    func result(path: [Certificate]) -> CertificateValidationResult {
        let order = { (subject: String) -> Int in path.firstIndex { $0.subject == subject } ?? path.count }
        let sorted = failures.enumerated().sorted { lhs, rhs in
            let (left, right) = (order(lhs.element.certificate), order(rhs.element.certificate))
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
        return CertificateValidationResult(path: path, failures: sorted, passedChecks: passed)
    }
}
