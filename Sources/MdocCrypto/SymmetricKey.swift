/// A secret symmetric key: a session key SKReader / SKDevice (ISO/IEC 18013-5 9.1.1.5), the
/// EMacKey (9.1.3.5), or any AES-GCM or HMAC key.
///
/// The bytes live in storage that is wiped when the last copy of the key goes. The description
/// and reflection show the length only, never the bytes. Equality is constant-time.
public struct SymmetricKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let storage: SecureBytes

    /// A key holding a copy of `bytes`.
    public init(bytes: [UInt8]) {
        storage = SecureBytes(bytes)
    }

    init(storage: SecureBytes) {
        self.storage = storage
    }

    /// The key's length in bytes.
    public var byteCount: Int { storage.count }

    /// A copy of the key's bytes; the caller owns this copy of the secret.
    public var bytes: [UInt8] { storage.withUnsafeBytes { Array($0) } }

    /// Runs `body` with the key's bytes, without copying them.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try storage.withUnsafeBytes(body)
    }

    /// Constant-time comparison of the bytes (`CRYPTO_memcmp`); lengths are compared in the clear.
    public static func == (lhs: SymmetricKey, rhs: SymmetricKey) -> Bool {
        lhs.storage.constantTimeEquals(rhs.storage)
    }

    /// `SymmetricKey(32 bytes)`: the length only.
    public var description: String { "SymmetricKey(\(byteCount) bytes)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["byteCount": byteCount]) }
}
