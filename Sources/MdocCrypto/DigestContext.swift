import COpenSSL

/// One OpenSSL digest context (`EVP_MD_CTX`) that computes many digests of one
/// ``DigestAlgorithm``, one after the other: the value digests of an MSO (ISO/IEC 18013-5
/// 9.1.2.5), one per returned data element, checked by one verification.
///
/// `EVP_Digest` makes, initialises, cleanses and frees a context for every digest, which for an
/// IssuerSignedItemBytes of about a hundred bytes costs a tenth of the digest itself; this context
/// is made once and initialised again for each digest, giving the same digests. It is not
/// `Sendable`: one verification uses it, on one thread, and drops it.
package final class DigestContext {
    /// The hash function of every digest computed here.
    package let algorithm: DigestAlgorithm
    /// The OpenSSL context, `nil` only if OpenSSL could not allocate it; no digest then matches.
    private let context: OpaquePointer?
    /// The `EVP_MD` of ``algorithm`` (``DigestAlgorithm/fetchedMessageDigest``), looked up once
    /// here instead of once per digest.
    private let messageDigest: OpaquePointer?

    /// A context for digests with `algorithm`.
    package init(_ algorithm: DigestAlgorithm) {
        self.algorithm = algorithm
        context = EVP_MD_CTX_new()
        messageDigest = algorithm.fetchedMessageDigest
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// Whether the digest of the bytes in `buffer` is `expected`, as
    /// ``DigestAlgorithm/digest(of:equals:)`` answers: computed into memory on the stack and
    /// compared there, allocating nothing. `false` as well if OpenSSL fails internally.
    package func digest(of buffer: UnsafeRawBufferPointer, equals expected: UnsafeRawBufferPointer) -> Bool {
        guard expected.count == algorithm.digestByteCount, let context else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DigestAlgorithm.largestDigestByteCount) { output in
            var length: UInt32 = 0
            guard EVP_DigestInit_ex2(context, messageDigest, nil) == 1,
                  EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) == 1,
                  EVP_DigestFinal_ex(context, output.baseAddress, &length) == 1,
                  Int(length) == algorithm.digestByteCount
            else {
                ERR_clear_error()
                return false
            }
            // Eight bytes at a time: every digest length is a multiple of eight (32, 48, 64).
            let computed = UnsafeRawBufferPointer(output)
            var difference: UInt64 = 0
            for offset in stride(from: 0, to: expected.count, by: 8) {
                difference |= expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ computed.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            }
            return difference == 0
        }
    }
}
