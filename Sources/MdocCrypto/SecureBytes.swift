import COpenSSL

/// Heap bytes that are wiped (`OPENSSL_cleanse`) when the last reference goes: the storage of
/// ``SymmetricKey`` and ``SharedSecret``.
///
/// The bytes are written only while the object is being made, before it is shared, and never
/// after; that is why this class is `@unchecked Sendable`.
final class SecureBytes: @unchecked Sendable {
    /// Never `nil`, even for zero bytes, so OpenSSL calls that reject a null key still accept an
    /// empty one.
    private let pointer: UnsafeMutableRawPointer
    let count: Int

    /// Zero-filled storage of `count` bytes.
    init(count: Int) {
        self.count = count
        pointer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
    }

    /// A copy of `bytes`.
    convenience init(_ bytes: some Collection<UInt8>) {
        self.init(count: bytes.count)
        UnsafeMutableRawBufferPointer(start: pointer, count: count).copyBytes(from: bytes)
    }

    /// A copy of the first `count` bytes of `other`.
    convenience init(prefix count: Int, of other: SecureBytes) {
        self.init(count: min(count, other.count))
        pointer.copyMemory(from: other.pointer, byteCount: self.count)
    }

    deinit {
        OPENSSL_cleanse(pointer, max(count, 1))
        pointer.deallocate()
    }

    func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Only while the object is being made (see the type's comment).
    func withUnsafeMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    /// Constant-time equality (`CRYPTO_memcmp`); lengths are compared first, in the clear.
    func constantTimeEquals(_ other: SecureBytes) -> Bool {
        count == other.count && CRYPTO_memcmp(pointer, other.pointer, count) == 0
    }
}
