import Glibc
import MdocCrypto
import NIOConcurrencyHelpers

/// The certificates a verifier has parsed from `x5chain` headers, keyed by their exact DER bytes.
///
/// A reader verifies many documents signed by the same few document signers; parsing a
/// certificate (its fields decoded, its key imported, its extensions summarised for path
/// validation) is a step of verification worth doing once, so each distinct certificate is parsed
/// once, and the key it holds is one OpenSSL has already used. Only parsing is cached: every
/// verification still validates the chain and checks every signature at its own time.
final class CertificateCache: Sendable {
    /// The most certificates kept. A verifier sees a handful of document signers; the bound keeps
    /// a stream of hostile, ever-different certificates from growing memory. When full, the cache
    /// starts over.
    static let maximumEntries = 64

    private let entries = NIOLockedValueBox<[DER: Certificate]>([:])

    /// A certificate's DER bytes as a key. Equal when all the bytes are (memcmp(3)); the hash
    /// takes the length and the last ``hashedTailCount`` bytes, which end with the signature
    /// value (RFC 5280 section 4.1.1.3) that tells two certificates of one issuer apart, so that
    /// a lookup does not hash the whole certificate.
    private struct DER: Hashable {
        let bytes: [UInt8]

        /// The bytes at the end of the DER that the hash takes.
        static let hashedTailCount = 64

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.suffix(Self.hashedTailCount))) }
        }

        static func == (lhs: DER, rhs: DER) -> Bool {
            lhs.bytes.count == rhs.bytes.count && lhs.bytes.withUnsafeBytes { left in
                rhs.bytes.withUnsafeBytes { right in
                    // Equal counts: both empty (no base address) or both with bytes to compare.
                    guard let leftBytes = left.baseAddress, let rightBytes = right.baseAddress else { return true }
                    return memcmp(leftBytes, rightBytes, left.count) == 0
                }
            }
        }
    }

    /// The certificate for `der`, parsed now or earlier.
    func certificate(derEncoded der: [UInt8]) throws(CryptoError) -> Certificate {
        let key = DER(bytes: der)
        if let cached = entries.withLockedValue({ $0[key] }) {
            return cached
        }
        let certificate = try Certificate(derEncoded: der)
        entries.withLockedValue { entries in
            if entries.count >= Self.maximumEntries {
                entries.removeAll(keepingCapacity: true)
            }
            entries[key] = certificate
        }
        return certificate
    }

    /// The number of certificates held.
    var count: Int {
        entries.withLockedValue { $0.count }
    }
}
