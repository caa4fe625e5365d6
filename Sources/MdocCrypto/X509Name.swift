import COpenSSL
import NIOConcurrencyHelpers

/// A certificate's subject or issuer Name (RFC 5280 section 4.1.2.4) as OpenSSL decoded it,
/// with its text made when first read.
///
/// Decoding a Name is one of the costliest steps of reading a certificate (OpenSSL also builds
/// the canonical form `X509_NAME_cmp` compares), and the issuer Name of a document signer is the
/// subject Name of the IACA read before it. Names decoded from a certificate's DER are therefore
/// kept in a small process-wide cache keyed by their exact DER bytes: a document signer's issuer
/// is then the IACA's subject, already decoded and printed. A Name is never changed after
/// decoding and OpenSSL only reads it, so sharing it between certificates and threads is safe,
/// which is why this class is `@unchecked Sendable`.
final class X509Name: @unchecked Sendable {
    /// The `X509_NAME`.
    let pointer: OpaquePointer
    /// The certificate that owns ``pointer`` when it is borrowed from a whole decoded certificate;
    /// `nil` when this object owns it.
    private let owner: X509Handle?
    /// The text ``text(field:)`` made.
    private let printed = NIOLockedValueBox<String?>(nil)

    /// A Name borrowed from `certificate`, which is kept alive with it.
    init(borrowing pointer: OpaquePointer, of certificate: X509Handle) {
        self.pointer = pointer
        owner = certificate
    }

    private init(owning pointer: OpaquePointer) {
        self.pointer = pointer
        owner = nil
    }

    deinit {
        if owner == nil { X509_NAME_free(pointer) }
    }

    /// The Name whose DER encoding is `der`, from `cache` or decoded with `d2i_X509_NAME`;
    /// `nil` unless it decodes and uses every octet.
    static func decoding(_ der: UnsafeBufferPointer<UInt8>, cache: Cache = .shared) -> X509Name? {
        let key = Array(der)
        if let cached = cache.name(for: key) { return cached }
        guard let start = der.baseAddress else { return nil }
        var cursor: UnsafePointer<UInt8>? = start
        guard let decoded = d2i_X509_NAME(nil, &cursor, der.count) else { return nil }
        let name = X509Name(owning: decoded)
        guard cursor == start + der.count else { return nil }
        cache.insert(name, for: key)
        return name
    }

    /// The Name as text (``X509Fields/name(_:field:)``), printed once; a Name that does not
    /// print is named by `field` in the error.
    func text(field: String) throws(CryptoError) -> String {
        if let text = printed.withLockedValue({ $0 }) { return text }
        let text = try X509Fields.name(pointer, field: field)
        printed.withLockedValue { $0 = text }
        return text
    }

    /// Names decoded from DER, by their exact bytes.
    final class Cache: Sendable {
        /// The most Names the process-wide cache keeps. A verifier meets a handful of issuers
        /// and signers; the bound keeps a stream of ever-different certificates from growing
        /// memory. When full, a cache starts over.
        static let maximumNames = 64

        /// The cache every certificate read from DER uses.
        static let shared = Cache(capacity: maximumNames)

        private let capacity: Int
        private let names = NIOLockedValueBox<[[UInt8]: X509Name]>([:])

        /// An empty cache that keeps at most `capacity` Names.
        init(capacity: Int) {
            self.capacity = capacity
        }

        /// The Name decoded from exactly `der`, if kept.
        func name(for der: [UInt8]) -> X509Name? {
            names.withLockedValue { $0[der] }
        }

        /// Keeps `name`, decoded from `der`; a full cache is emptied first.
        func insert(_ name: X509Name, for der: [UInt8]) {
            names.withLockedValue { names in
                if names.count >= capacity { names.removeAll(keepingCapacity: true) }
                names[der] = name
            }
        }

        /// The number of Names kept.
        var count: Int { names.withLockedValue { $0.count } }
    }
}
