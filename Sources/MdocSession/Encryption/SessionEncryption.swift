import MdocCrypto

/// Message encryption of an ISO/IEC 18013-5 session (9.1.1.5, cipher suite 1): AES-256-GCM, no
/// additional data, a 16-byte tag appended, and a 12-byte IV made of the sender's 8-byte
/// identifier (``SessionRole/identifier``) and a 4-byte big-endian message counter.
///
/// Each direction has its own counter, starting at 1 and increasing by one per message. A
/// received message is decrypted only with the counter that must come next, so a replayed,
/// skipped or reordered message fails (9.1.1.5: "the mdoc reader shall ... check the counter");
/// a failure ends the session with status 10 (decryption error) in the caller.
public struct SessionEncryption: Sendable {
    /// Which side we are.
    public let role: SessionRole
    private let keys: SessionKeys
    /// The counter of the next message we send.
    public private(set) var sendCounter: UInt32 = 1
    /// The counter the next received message must carry.
    public private(set) var receiveCounter: UInt32 = 1

    /// The largest counter a message may use; one more would wrap the 32-bit field, so the
    /// session must end instead (18013-5 9.1.1.5 counts messages with a 4-byte counter).
    public static let maximumCounter = UInt32.max

    /// A new session for `role` with both counters at 1.
    public init(role: SessionRole, keys: SessionKeys) {
        self.role = role
        self.keys = keys
    }

    /// A session resumed at given counters: for tests that reach ``maximumCounter``, and for a
    /// session capture, which opens each message at the counter of its place.
    package init(role: SessionRole, keys: SessionKeys, sendCounter: UInt32, receiveCounter: UInt32) {
        self.role = role
        self.keys = keys
        self.sendCounter = sendCounter
        self.receiveCounter = receiveCounter
    }

    private var sendKey: SymmetricKey { role == .reader ? keys.skReader : keys.skDevice }
    private var receiveKey: SymmetricKey { role == .reader ? keys.skDevice : keys.skReader }

    /// The IV for `counter` under `identifier`.
    public static func nonce(identifier: [UInt8], counter: UInt32) -> [UInt8] {
        identifier + [UInt8(counter >> 24), UInt8(counter >> 16 & 0xff), UInt8(counter >> 8 & 0xff), UInt8(counter & 0xff)]
    }

    /// Encrypts the next outgoing message and advances the send counter.
    public mutating func encrypt(_ plaintext: [UInt8]) throws(SessionError) -> [UInt8] {
        guard sendCounter != 0 else {
            throw SessionError(.counterExhausted, "the send counter reached \(Self.maximumCounter); the session must end")
        }
        let nonce = Self.nonce(identifier: role.identifier, counter: sendCounter)
        let sealed: [UInt8]
        do {
            sealed = try AESGCM.seal(plaintext, key: sendKey, nonce: nonce)
        } catch {
            throw SessionError(.encryptionFailed, "AES-256-GCM encryption failed: \(error)")
        }
        sendCounter &+= 1
        return sealed
    }

    /// Decrypts the next incoming message with the counter that must come next, and advances it.
    /// A message from another counter position or another key fails with
    /// `SessionError.Code.decryptionFailed` and leaves the counter unchanged.
    public mutating func decrypt(_ sealed: [UInt8]) throws(SessionError) -> [UInt8] {
        guard receiveCounter != 0 else {
            throw SessionError(.counterExhausted, "the receive counter reached \(Self.maximumCounter); the session must end")
        }
        let nonce = Self.nonce(identifier: role.peer.identifier, counter: receiveCounter)
        let plaintext: [UInt8]
        do {
            plaintext = try AESGCM.open(sealed, key: receiveKey, nonce: nonce)
        } catch {
            throw SessionError(
                .decryptionFailed,
                "message \(receiveCounter) from the \(role.peer) did not decrypt (wrong key, wrong counter, or altered)")
        }
        receiveCounter &+= 1
        return plaintext
    }
}
