import COpenSSL

/// The hash functions ISO/IEC 18013-5 uses: for MSO value digests (9.1.2.4, with these exact
/// names as `digestAlgorithm`), for ECDSA (RFC 9053 section 2.1: ES256, ES384, ES512) and for the
/// session transcript hash (9.1.1.5). SHA-2 as in FIPS 180-4.
public enum DigestAlgorithm: String, Sendable, CaseIterable, CustomStringConvertible {
    /// SHA-256, 32-octet digests.
    case sha256 = "SHA-256"
    /// SHA-384, 48-octet digests.
    case sha384 = "SHA-384"
    /// SHA-512, 64-octet digests.
    case sha512 = "SHA-512"

    public var description: String { rawValue }

    /// The length of a digest in bytes.
    public var digestByteCount: Int {
        switch self {
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// The digest of `bytes` (`EVP_Digest`). Empty only if OpenSSL fails internally (memory
    /// exhaustion), which no comparison with a real digest survives.
    public func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// The digest of the bytes in `buffer`, which need not be copied into an array first (a
    /// view of a received message, for example); see ``hash(_:)-([UInt8])``.
    public func hash(_ buffer: UnsafeRawBufferPointer) -> [UInt8] {
        var length: UInt32 = 0
        let digest = [UInt8](unsafeUninitializedCapacity: digestByteCount) { output, initialized in
            let status = EVP_Digest(buffer.baseAddress, buffer.count, output.baseAddress, &length, fetchedMessageDigest, nil)
            initialized = status == 1 && Int(length) == digestByteCount ? digestByteCount : 0
        }
        guard digest.count == digestByteCount else {
            ERR_clear_error()
            return []
        }
        return digest
    }

    /// Whether the digest of the bytes in `buffer` is `expected`: the digest is computed into
    /// memory on the stack and compared there, and both are read where they lie, so checking the
    /// digests of many items (the value digests of an MSO, 9.1.2.5, against items of the same
    /// message) allocates nothing per item. `false` as well if OpenSSL fails internally.
    public func digest(of buffer: UnsafeRawBufferPointer, equals expected: UnsafeRawBufferPointer) -> Bool {
        guard expected.count == digestByteCount else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.largestDigestByteCount) { output in
            var length: UInt32 = 0
            guard EVP_Digest(buffer.baseAddress, buffer.count, output.baseAddress, &length, fetchedMessageDigest, nil) == 1,
                  Int(length) == digestByteCount
            else {
                ERR_clear_error()
                return false
            }
            return expected.indices.allSatisfy { expected[$0] == output[$0] }
        }
    }

    /// The length of the longest digest, SHA-512's.
    static let largestDigestByteCount = 64

    /// This function's `EVP_MD` fetched once from OpenSSL's default library context, for the
    /// digests and signature checks made here. With the static `EVP_MD` of ``messageDigest``,
    /// OpenSSL 3.0 fetches the implementation again on every use (a name lookup under the method
    /// store's lock, about 1,500 instructions, as much as half the SHA-256 of an
    /// IssuerSignedItemBytes), which a response pays once per element (9.1.2.5).
    var fetchedMessageDigest: OpaquePointer? {
        switch self {
        case .sha256: return Self.fetchedSHA256
        case .sha384: return Self.fetchedSHA384
        case .sha512: return Self.fetchedSHA512
        }
    }

    // Fetched on first use and kept for the process; an EVP_MD is immutable and OpenSSL's
    // functions take it from any thread.
    private nonisolated(unsafe) static let fetchedSHA256 = EVP_MD_fetch(nil, "SHA2-256", nil)
    private nonisolated(unsafe) static let fetchedSHA384 = EVP_MD_fetch(nil, "SHA2-384", nil)
    private nonisolated(unsafe) static let fetchedSHA512 = EVP_MD_fetch(nil, "SHA2-512", nil)

    /// OpenSSL's static `EVP_MD` for this function.
    var messageDigest: OpaquePointer? {
        switch self {
        case .sha256: return EVP_sha256()
        case .sha384: return EVP_sha384()
        case .sha512: return EVP_sha512()
        }
    }
}
