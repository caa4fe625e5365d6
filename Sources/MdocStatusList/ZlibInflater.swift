import CZlib
import MdocCBOR

/// Inflates the compressed `lst` of a status list: DEFLATE (RFC 1951) in the ZLIB format
/// (RFC 1950), as draft-ietf-oauth-status-list section 4.1 requires, under an absolute cap on
/// the output.
///
/// The two-byte header and the Adler-32 trailer are read here and zlib inflates the raw DEFLATE
/// data between them, so that each way a stream can be wrong has its own error: a gzip member
/// (`gzipNotZlib`), a raw DEFLATE stream or another header
/// (`notZlib`), a preset dictionary, invalid DEFLATE data, a stream that
/// ends early (`truncated`), a wrong checksum and bytes after the trailer.
/// zlib writes into a buffer of ``outputChunkBytes``, which is appended to the result only while
/// the result stays within the cap, so memory stays bounded however much the data would inflate
/// to (a "zlib bomb").
public enum ZlibInflater {
    /// 64 KiB: how much zlib inflates at a time before the output is checked against the cap.
    public static let outputChunkBytes = 64 * 1024

    /// The bytes `compressed` inflates to, at most `limit` of them.
    public static func inflate(_ compressed: [UInt8], limit: Int = StatusListLimits.decompressedBytes) throws(StatusListError) -> [UInt8] {
        try compressed.withUnsafeBytes { input in Result { () throws(StatusListError) in try inflate(input, limit: limit) } }.get()
    }

    /// The bytes `compressed` inflates to, at most `limit` of them, read where they lie.
    public static func inflate(_ compressed: CBORBytes, limit: Int = StatusListLimits.decompressedBytes) throws(StatusListError) -> [UInt8] {
        try compressed.withUnsafeBytes { input in Result { () throws(StatusListError) in try inflate(input, limit: limit) } }.get()
    }

    private static func inflate(_ input: UnsafeRawBufferPointer, limit: Int) throws(StatusListError) -> [UInt8] {
        try checkHeader(input)
        var stream = z_stream()
        // Negative window bits: raw DEFLATE, the header and trailer being read here (zlib manual,
        // inflateInit2). 15 is the largest window RFC 1950 allows (CINFO 7).
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw StatusListError(.compressionFailed, "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw StatusListError(.truncated, "the compressed list is empty")
        }
        var fed = headerBytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: outputChunkBytes)
        var checksum = adler32(0, nil, 0)
        var ended = false
        while !ended {
            if stream.avail_in == 0 {
                let remaining = input.count - fed
                guard remaining > 0 else {
                    throw StatusListError(.truncated, "the DEFLATE stream stops without its final block after \(input.count) bytes")
                }
                let count = min(remaining, Int(UInt32.max))
                stream.next_in = UnsafeMutablePointer(mutating: base + fed)
                stream.avail_in = UInt32(count)
                fed += count
            }
            var produced = 0
            let status = chunk.withUnsafeMutableBufferPointer { out in
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                produced = out.count - Int(stream.avail_out)
                return status
            }
            switch status {
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_STREAM_END:
                ended = true
            case Z_DATA_ERROR:
                let message = stream.msg.map { String(cString: $0) } ?? "invalid data"
                throw StatusListError(.invalidDeflate, "the DEFLATE data is invalid (\(message)) near byte \(fed - Int(stream.avail_in))")
            default:
                throw StatusListError(.compressionFailed, "zlib failed while inflating (status \(status))")
            }
            guard produced > 0 else { continue }
            guard output.count + produced <= limit else {
                throw StatusListError(.decompressedTooLarge, "the list inflates to more than \(limit) bytes")
            }
            if output.count + produced > output.capacity {
                // Grow to at most the cap, never past it as doubling would.
                output.reserveCapacity(min(limit, max(output.capacity * 2, output.count + produced)))
            }
            chunk.withUnsafeBufferPointer { out in
                checksum = adler32(checksum, out.baseAddress, UInt32(produced))
                output.append(contentsOf: out[0..<produced])
            }
        }
        try checkTrailer(input, from: fed - Int(stream.avail_in), checksum: UInt32(truncatingIfNeeded: checksum))
        return output
    }

    /// The length of the zlib header without a dictionary identifier (RFC 1950 section 2.2).
    private static let headerBytes = 2
    /// The length of the Adler-32 trailer (RFC 1950 section 2.2).
    private static let trailerBytes = 4

    /// Checks CMF and FLG (RFC 1950 section 2.2): method 8, a window of at most 32 KiB, the
    /// check bits, no preset dictionary.
    private static func checkHeader(_ input: UnsafeRawBufferPointer) throws(StatusListError) {
        guard input.count >= headerBytes else {
            throw StatusListError(.truncated, "a zlib stream starts with a 2-byte header, found \(input.count) bytes")
        }
        let cmf = input[0]
        let flg = input[1]
        // The gzip magic number (RFC 1952 section 2.3.1).
        if cmf == 0x1f && flg == 0x8b {
            throw StatusListError(.gzipNotZlib, "the list is a gzip member (1f 8b), not a zlib stream (RFC 1950)")
        }
        guard cmf & 0x0f == 8 else {
            throw StatusListError(.notZlib, "byte 0 (CMF \(hex(cmf))) names compression method \(cmf & 0x0f), not 8 (DEFLATE): not a zlib header, perhaps raw DEFLATE")
        }
        guard cmf >> 4 <= 7 else {
            throw StatusListError(.notZlib, "byte 0 (CMF \(hex(cmf))) asks for a window of 2^\(Int(cmf >> 4) + 8) bytes, more than the 32 KiB RFC 1950 allows")
        }
        guard (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 else {
            throw StatusListError(.notZlib, "bytes 0-1 (\(hex(cmf)) \(hex(flg))) fail the FCHECK test (CMF*256+FLG a multiple of 31): not a zlib header, perhaps raw DEFLATE")
        }
        guard flg & 0x20 == 0 else {
            throw StatusListError(.presetDictionary, "byte 1 (FLG \(hex(flg))) sets FDICT: a preset dictionary, which a status list never uses")
        }
    }

    /// Checks the big-endian Adler-32 at `start` against `checksum`, and that nothing follows it.
    private static func checkTrailer(_ input: UnsafeRawBufferPointer, from start: Int, checksum: UInt32) throws(StatusListError) {
        let left = input.count - start
        guard left >= trailerBytes else {
            throw StatusListError(.truncated, "the Adler-32 trailer at byte \(start) needs 4 bytes, found \(left)")
        }
        let trailer = input[start..<start + trailerBytes].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard trailer == checksum else {
            throw StatusListError(.checksumMismatch, "the Adler-32 trailer at byte \(start) is \(hex32(trailer)), the inflated bytes sum to \(hex32(checksum))")
        }
        guard left == trailerBytes else {
            throw StatusListError(.trailingBytes, "\(left - trailerBytes) bytes follow the Adler-32 trailer, from byte \(start + trailerBytes)")
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        Hex.encode([byte])
    }

    private static func hex32(_ value: UInt32) -> String {
        Hex.encode([UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)])
    }
}
