import COpenSSL

extension Certificate {
    /// Whether `signature` over `message` verifies with the certificate's public key: ECDSA
    /// (raw r||s, as COSE carries it, RFC 9053 section 2.1) with `digest`, or EdDSA (the digest
    /// is ignored). Used for the COSE_Sign1 of issuerAuth and readerAuth (ISO/IEC 18013-5 9.1.2
    /// and 9.1.4) with the x5chain leaf.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8], digest: DigestAlgorithm) -> Bool {
        publicKey.isValidSignature(signature, for: message, digest: digest)
    }

    /// Whether the certificate is self-signed (RFC 5280 section 3.2): self-issued, any
    /// authority key identifier naming its own key, and its signature made with its own key.
    /// Only such a certificate can end a path as a root, which is what ISO/IEC 18013-5 Annex B
    /// makes the IACA and the reader root.
    public var isSelfSigned: Bool {
        let selfSigned = X509_self_signed(handle.pointer, 1) == 1
        ERR_clear_error()
        return selfSigned
    }
}
