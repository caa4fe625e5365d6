extension ReportList where Element == VerificationCheck {
    /// Calls `body` with the kind and outcome of each check in order, until it returns `false`,
    /// without building the checks of a ``ValueDigestChecks`` run.
    func forEachOutcome(_ body: (VerificationCheck.Kind, VerificationCheck.Outcome) -> Bool) {
        for segment in segments {
            switch segment {
            case .values(let checks):
                for check in checks where !body(check.kind, check.outcome) { return }
            case .run(let run as ValueDigestChecks):
                for outcome in run.outcomes where !body(.valueDigest, outcome) { return }
            case .run(let run):
                for offset in 0..<run.count {
                    let check = run[offset]
                    if !body(check.kind, check.outcome) { return }
                }
            }
        }
    }
}
