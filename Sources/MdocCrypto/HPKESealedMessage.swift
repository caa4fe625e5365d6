/// What single-shot HPKE encryption gives the recipient (RFC 9180 section 6.1): the
/// encapsulated key `enc` and the ciphertext `ct` (the AEAD output, tag appended). ISO/IEC TS
/// 18013-7 Annex C carries them as `enc` and `cipherText`.
public struct HPKESealedMessage: Sendable, Equatable {
    /// `enc`: the sender's ephemeral public key, serialised as in RFC 9180 section 7.1.1.
    public var encapsulatedKey: [UInt8]
    /// `ct`: the ciphertext with the AEAD tag appended.
    public var ciphertext: [UInt8]

    /// A message from its two parts, as received.
    public init(encapsulatedKey: [UInt8], ciphertext: [UInt8]) {
        self.encapsulatedKey = encapsulatedKey
        self.ciphertext = ciphertext
    }
}
