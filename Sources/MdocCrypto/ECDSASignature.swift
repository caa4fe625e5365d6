import COpenSSL

/// Conversion between the two ECDSA signature encodings: the fixed-width `r‖s` COSE uses
/// (RFC 9053 section 2.1, each integer left-padded to the curve's coordinate length) and the DER
/// `ECDSA-Sig-Value` SEQUENCE OpenSSL and X.509 use (RFC 3279 section 2.2.3).
public enum ECDSASignature: Sendable {
    /// The largest coordinate length accepted: 66 bytes, P-521's (the longest 18013-5 curve).
    public static let maximumCoordinateByteCount = 66

    /// The DER `ECDSA-Sig-Value` of a raw `r‖s` signature whose halves have equal length of at
    /// most ``maximumCoordinateByteCount`` bytes.
    ///
    /// Writes minimal DER (X.690 section 8.3 and 10.1): leading zero bytes dropped, one zero byte
    /// added when the high bit is set. Throws `.invalidParameter` for an empty, odd or too long
    /// input.
    public static func derFromRaw(_ raw: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard !raw.isEmpty, raw.count % 2 == 0, raw.count / 2 <= maximumCoordinateByteCount else {
            throw CryptoError(.invalidParameter, "a raw ECDSA signature has two halves of 1...\(maximumCoordinateByteCount) bytes each, not \(raw.count) bytes in all")
        }
        let half = raw.count / 2
        let r = minimalMagnitude(raw[..<half])
        let s = minimalMagnitude(raw[half...])
        let rLength = integerContentLength(r)
        let sLength = integerContentLength(s)
        // At most 2 × (2 + 67) = 138 content bytes, so a one- or two-byte length.
        let contentLength = 2 + rLength + 2 + sLength
        var der: [UInt8] = []
        der.reserveCapacity(3 + contentLength)
        der.append(0x30)
        if contentLength >= 0x80 { der.append(0x81) }
        der.append(UInt8(contentLength))
        appendInteger(r, contentLength: rLength, to: &der)
        appendInteger(s, contentLength: sLength, to: &der)
        return der
    }

    /// The raw `r‖s` form of a DER `ECDSA-Sig-Value`, each integer left-padded to
    /// `coordinateByteCount` bytes.
    ///
    /// The input must be exactly one strict-DER SEQUENCE of two non-negative INTEGERs that fit the
    /// width; otherwise throws `.invalidEncoding` (or `.invalidParameter` for a coordinate length
    /// outside 1...``maximumCoordinateByteCount``).
    public static func rawFromDER(_ der: [UInt8], coordinateByteCount: Int) throws(CryptoError) -> [UInt8] {
        guard (1...maximumCoordinateByteCount).contains(coordinateByteCount) else {
            throw CryptoError(.invalidParameter, "the ECDSA coordinate length must be 1...\(maximumCoordinateByteCount) bytes, not \(coordinateByteCount)")
        }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
            guard cursor == start + buffer.count else {
                ECDSA_SIG_free(signature)
                return nil
            }
            return signature
        }
        guard let parsed else {
            throw .openSSL(.invalidEncoding, "the bytes are not exactly one DER ECDSA-Sig-Value")
        }
        defer { ECDSA_SIG_free(parsed) }
        // OpenSSL's parser accepts some BER; a strict-DER input re-encodes to itself.
        guard let raw = fixedWidth(parsed, width: coordinateByteCount), (try? derFromRaw(raw)) == der else {
            ERR_clear_error()
            throw CryptoError(.invalidEncoding, "the ECDSA-Sig-Value is not strict DER of two non-negative integers of at most \(coordinateByteCount) bytes")
        }
        return raw
    }

    /// `r‖s` of a parsed signature, or `nil` when either is negative or wider than `width`.
    private static func fixedWidth(_ signature: OpaquePointer, width: Int) -> [UInt8]? {
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        guard let r, let s, BN_is_negative(r) == 0, BN_is_negative(s) == 0 else { return nil }
        var raw = [UInt8](repeating: 0, count: 2 * width)
        let written = raw.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let start = buffer.baseAddress else { return false }
            return BN_bn2binpad(r, start, Int32(width)) == Int32(width)
                && BN_bn2binpad(s, start + width, Int32(width)) == Int32(width)
        }
        return written ? raw : nil
    }

    /// The big-endian magnitude without leading zero bytes (empty for zero).
    private static func minimalMagnitude(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        bytes.drop(while: { $0 == 0 })
    }

    /// The INTEGER content length of a minimal magnitude: one zero byte for zero, one more when
    /// the high bit is set (X.690 section 8.3.2).
    private static func integerContentLength(_ magnitude: ArraySlice<UInt8>) -> Int {
        guard let first = magnitude.first else { return 1 }
        return magnitude.count + (first & 0x80 != 0 ? 1 : 0)
    }

    /// Appends a DER INTEGER holding the unsigned `magnitude` (X.690 section 8.3).
    private static func appendInteger(_ magnitude: ArraySlice<UInt8>, contentLength: Int, to der: inout [UInt8]) {
        der.append(0x02)
        der.append(UInt8(contentLength))
        if contentLength > magnitude.count { der.append(0) }
        der.append(contentsOf: magnitude)
    }
}
