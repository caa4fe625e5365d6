// Number and column formatting shared by the reports of mdoc-benchmark.

/// `value` with `digits` decimals; `n/a` when it is not a number (such as a slope over a
/// single row).
func format(_ value: Double, digits: Int = 1) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let whole = (value * scale).rounded()
    let integer = Int(whole) / Int(scale)
    let fraction = abs(Int(whole)) % Int(scale)
    guard digits > 0 else { return String(integer) }
    let fractionText = String(fraction)
    let sign = whole < 0 && integer == 0 ? "-" : ""
    return sign + String(integer) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
}

/// `value` rounded to 3 decimals, for JSON; `null` when it is not a number.
func rounded(_ value: Double) -> String {
    value.isFinite ? format(value, digits: 3) : "null"
}

/// `text` as a JSON string literal (the names printed here hold no control characters).
func jsonString(_ text: String) -> String {
    "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
}

func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

func padLeft(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

/// The least-squares slope of `y` over `x`: the cost of one more unit of `x`.
func slope(_ x: [Double], _ y: [Double]) -> Double {
    let n = Double(x.count)
    // One row has no slope.
    guard x.count > 1 else { return .nan }
    let meanX = x.reduce(0, +) / n
    let meanY = y.reduce(0, +) / n
    var covariance = 0.0
    var variance = 0.0
    for (xi, yi) in zip(x, y) {
        covariance += (xi - meanX) * (yi - meanY)
        variance += (xi - meanX) * (xi - meanX)
    }
    return variance > 0 ? covariance / variance : .nan
}
