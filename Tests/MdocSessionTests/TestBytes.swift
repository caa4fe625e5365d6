import MdocCBOR
import MdocTestSupport

extension [UInt8] {
    /// The offsets where `pattern` starts.
    func offsets(of pattern: [UInt8]) -> [Int] {
        guard !pattern.isEmpty, count >= pattern.count else { return [] }
        return (0...(count - pattern.count)).filter { self[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    /// A copy with the only occurrence of `pattern` replaced by `replacement`; throws when
    /// `pattern` occurs other than once, so that a test never alters the wrong bytes.
    func replacingOnly(_ pattern: [UInt8], with replacement: [UInt8]) throws(TestDataError) -> [UInt8] {
        let starts = offsets(of: pattern)
        guard starts.count == 1, let start = starts.first else {
            throw TestDataError("expected one occurrence of \(Hex.encode(pattern)), found \(starts.count)")
        }
        var result = self
        result.replaceSubrange(start..<(start + pattern.count), with: replacement)
        return result
    }
}
