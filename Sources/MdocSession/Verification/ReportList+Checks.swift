extension ReportList where Element == VerificationCheck {
    /// Calls `body` with the kind and outcome of each check in order, until it returns `false`,
    /// without building the checks of a ``ValueDigestChecks`` run.
    func forEachOutcome(_ body: (VerificationCheck.Kind, VerificationCheck.Outcome) -> Bool) {
        let checks = values
        var value = 0
        func valuesUpTo(_ end: Int) -> Bool {
            while value < end {
                guard body(checks[value].kind, checks[value].outcome) else { return false }
                value += 1
            }
            return true
        }
        for run in runs {
            guard valuesUpTo(run.valuesBefore) else { return }
            if let digests = run.entries as? ValueDigestChecks {
                for outcome in digests.outcomes where !body(.valueDigest, outcome) { return }
            } else {
                for offset in 0..<run.entries.count {
                    let check = run.entries[offset]
                    guard body(check.kind, check.outcome) else { return }
                }
            }
        }
        _ = valuesUpTo(checks.count)
    }
}
