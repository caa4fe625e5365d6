/// A figure of a benchmark against its target, an upper bound (README, "Benchmark"): a missed
/// target is said on its line, so that a run that misses one cannot be read as one that met it.
struct Target {
    /// The measured figure; not a number when it could not be measured (a slope over one row).
    let value: Double
    /// The largest value that meets the target.
    let bound: Double

    /// Whether the figure meets the target; a figure that was not measured meets none, and
    /// fails none: ``json`` is then `null`.
    var isMet: Bool { value.isFinite && value <= bound }

    /// The target as the reports print it after the figure: `(target ≤ 1.2×)`, with `: MISSED`
    /// when the figure exceeds it and `: not measured` when there is no figure; `more` is
    /// printed after them, inside the parentheses.
    func text(digits: Int = 1, unit: String = "", more: String = "") -> String {
        let verdict = !value.isFinite ? ": not measured" : isMet ? "" : ": MISSED"
        return "(target ≤ \(format(bound, digits: digits))\(unit)\(verdict)\(more))"
    }

    /// `true` or `false` for JSON, `null` when the figure was not measured.
    var json: String {
        value.isFinite ? String(isMet) : "null"
    }
}
