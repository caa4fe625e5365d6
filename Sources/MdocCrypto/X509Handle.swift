import COpenSSL

/// Owns one OpenSSL `X509` and frees it when the last reference goes.
///
/// The certificate is never mutated after parsing. OpenSSL guards its lazily filled extension
/// cache with a lock, so concurrent reads and verifications are safe; that is why this class is
/// `@unchecked Sendable`.
final class X509Handle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer` (one reference).
    init(takingOwnershipOf pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    /// Parses one DER certificate that must fill `bytes` exactly (RFC 5280 section 4.1).
    static func parse(derEncoded bytes: [UInt8]) throws(CryptoError) -> X509Handle {
        guard !bytes.isEmpty else {
            throw CryptoError(.invalidEncoding, "certificate: the DER input is empty")
        }
        let parsed: (OpaquePointer?, Int) = bytes.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return (nil, 0) }
            var cursor: UnsafePointer<UInt8>? = start
            let x509 = d2i_X509(nil, &cursor, buffer.count)
            let consumed = cursor.map { $0 - start } ?? 0
            return (x509, consumed)
        }
        guard let pointer = parsed.0 else {
            ERR_clear_error()
            throw CryptoError(.invalidEncoding, "certificate: \(bytes.count) bytes are not a DER X.509 certificate")
        }
        let handle = X509Handle(takingOwnershipOf: pointer)
        guard parsed.1 == bytes.count else {
            throw trailingBytes(bytes.count - parsed.1, after: parsed.1)
        }
        return handle
    }

    /// The error for `count` bytes after a certificate of `length` DER bytes.
    static func trailingBytes(_ count: Int, after length: Int) -> CryptoError {
        CryptoError(
            .invalidEncoding,
            count == 1
                ? "certificate: 1 byte follows the certificate's \(length) DER bytes"
                : "certificate: \(count) bytes follow the certificate's \(length) DER bytes"
        )
    }
}
