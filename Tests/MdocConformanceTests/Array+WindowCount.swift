extension Array where Element == UInt8 {
    /// How many times `pattern` occurs in these bytes, overlapping occurrences counted.
    func windowCount(of pattern: [UInt8]) -> Int {
        guard count >= pattern.count else { return 0 }
        return (0...(count - pattern.count)).filter { self[$0..<($0 + pattern.count)].elementsEqual(pattern) }.count
    }
}
