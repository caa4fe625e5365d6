import CZlib

/// Compresses a status list's bytes for the issuer's side: DEFLATE (RFC 1951) in the ZLIB format
/// (RFC 1950), as draft-ietf-oauth-status-list section 4.1 requires of `lst`, at the highest
/// compression level, which the draft recommends (section 4.1 step 4).
public enum ZlibDeflater {
    /// The zlib stream of `bytes`: header, DEFLATE data and Adler-32 trailer.
    public static func deflate(_ bytes: [UInt8]) throws(StatusListError) -> [UInt8] {
        let bound = compressBound(UInt(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(bound))
        var length = bound
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &length, input.baseAddress, UInt(input.count), Z_BEST_COMPRESSION)
            }
        }
        guard status == Z_OK else {
            throw StatusListError(.compressionFailed, "zlib failed to compress \(bytes.count) bytes (status \(status))")
        }
        output.removeSubrange(Int(length)...)
        return output
    }
}
