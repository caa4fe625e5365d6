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

    /// A certificate's DER bytes as a key, hashed in one pass over the bytes (an array of bytes
    /// hashes them one at a time, which cost more than the lookup it serves).
    private struct DER: Hashable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
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
