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
    ///
    /// Decided as OpenSSL 3.0's `X509_self_signed(_, 1)` decides it; by OpenSSL itself under
    /// another OpenSSL series, or when the certificate has an extension `ExtensionSummary` does
    /// not describe, an authority key identifier naming an issuer, or an algorithm
    /// `signatureVerification(with:)` leaves to OpenSSL.
    public var isSelfSigned: Bool {
        let summary = extensionSummary
        if OneHopPathValidation.restatesLoadedOpenSSL, summary.isComplete, summary.authorityKeyIdentifier?.namesIssuer != true,
            let verified = signatureVerification(with: publicKey)
        {
            return intrinsics.namesItselfAsIssuer && verified
        }
        guard let handle else { return false }
        let selfSigned = X509_self_signed(handle.pointer, 1) == 1
        ERR_clear_error()
        return selfSigned
    }

    /// Whether `key` verifies this certificate's signature, decided as OpenSSL's `X509_verify`
    /// decides it (RFC 5280 section 4.1.1.3) for the algorithms ISO/IEC 18013-5 Annex B allows:
    /// the outer signatureAlgorithm must equal the one inside tbsCertificate, the signatureValue
    /// must have no unused bits, and the ECDSA (DER `Ecdsa-Sig-Value`, RFC 5758 section 3.2) or
    /// EdDSA (RFC 8410 section 6) signature must verify over the tbsCertificate octets as
    /// received. `nil` when this certificate was not walked by ``CertificateLayout``, or its
    /// algorithm is another one, has parameters, or is not for `key`'s type: OpenSSL then decides.
    func signatureVerification(with key: PublicKey) -> Bool? {
        guard let layout else { return nil }
        let fields = self.fields
        guard X509_ALGOR_cmp(fields.signatureAlgorithm, fields.tbsSignatureAlgorithm) == 0,
            layout.signature.unusedBits == 0
        else { return false }
        var object: OpaquePointer? = nil
        var parameterType: Int32 = 0
        X509_ALGOR_get0(&object, &parameterType, nil, fields.signatureAlgorithm)
        var digestNID: Int32 = NID_undef
        var keyNID: Int32 = NID_undef
        guard parameterType == V_ASN1_UNDEF, let object,
            OBJ_find_sigid_algs(OBJ_obj2nid(object), &digestNID, &keyNID) == 1,
            let keyName = OBJ_nid2sn(keyNID), EVP_PKEY_is_a(key.key.pointer, keyName) == 1
        else { return nil }
        let digest: OpaquePointer?
        switch (digestNID, keyNID) {
        case (NID_undef, NID_ED25519), (NID_undef, NID_ED448):
            digest = nil
        case (_, NID_X9_62_id_ecPublicKey) where digestNID != NID_undef:
            guard let name = OBJ_nid2sn(digestNID), let named = EVP_get_digestbyname(name) else { return nil }
            digest = named
        default:
            return nil
        }
        let bytes = derRepresentation
        return key.verify(
            Array(bytes[layout.signature.octets]), message: Array(bytes[layout.tbsCertificate]), messageDigest: digest)
    }
}
