/// How a fuzz target reads libFuzzer's input: the bytes, and a split of them into several
/// messages, each prefixed by its length as two big-endian octets (the seed corpora written by
/// make-corpus.py use the same layout).
public enum FuzzInput {
    /// The input `size` bytes at `data` as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// At most `limit` length-prefixed parts of `bytes`; a truncated last part is kept as it is.
    public static func parts(of bytes: [UInt8], limit: Int) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var index = 0
        while index < bytes.count, parts.count < limit {
            guard index + 2 <= bytes.count else { break }
            let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            index += 2
            let end = min(bytes.count, index + length)
            parts.append(Array(bytes[index..<end]))
            index = end
        }
        return parts
    }
}
