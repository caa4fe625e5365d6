/// The output of a key agreement (ECDH, X25519, X448): Z_AB of ISO/IEC 18013-5 9.1.1.5, the
/// x-coordinate of the shared point for Weierstrass curves (SEC 1 v2 section 3.3.1).
///
/// Meant as key-derivation input, not as a key. The bytes live in storage that is wiped when the
/// last copy goes; the description and reflection show the length only.
public struct SharedSecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let storage: SecureBytes

    init(storage: SecureBytes) {
        self.storage = storage
    }

    /// The secret's length in bytes.
    public var byteCount: Int { storage.count }

    /// Runs `body` with the secret's bytes, without copying them.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try storage.withUnsafeBytes(body)
    }

    /// HKDF-SHA-256 (RFC 5869) with this secret as the input keying material: how ISO/IEC 18013-5
    /// derives SKReader and SKDevice (9.1.1.5) and EMacKey (9.1.3.5). Same limits as
    /// ``HKDF/deriveKey(inputKeyMaterial:salt:info:outputByteCount:)``.
    public func hkdfDerivedSymmetricKey(salt: [UInt8], info: [UInt8], outputByteCount: Int) throws(CryptoError) -> SymmetricKey {
        try storage.withUnsafeBytes { (secret) throws(CryptoError) -> SymmetricKey in
            try HKDF.deriveKey(inputKeyMaterial: secret, salt: salt, info: info, outputByteCount: outputByteCount)
        }
    }

    /// `SharedSecret(32 bytes)`: the length only.
    public var description: String { "SharedSecret(\(byteCount) bytes)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["byteCount": byteCount]) }
}
