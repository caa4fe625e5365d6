import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

/// Signs VICALs (ISO/IEC 18013-5 Annex C.1.7) as a VICAL provider does: the encoded `VICAL` as
/// the payload of a COSE_Sign1, the VICAL signer's chain (leaf first) in the unprotected
/// `x5chain` (label 33), the algorithm following the signer key's curve.
///
/// ```swift
/// let signer = try VICALSigner(signerKey: key, signerChain: [vicalSigner])
/// let entry = try VICALSigner.certificateInfo(for: iaca, docTypes: [DocType.mDL])
/// let signed = try signer.sign(VICAL(vicalProvider: "Test", date: TDate(Date()), certificateInfos: [entry]))
/// ```
public struct VICALSigner: Sendable {
    /// The VICAL signer's private key.
    public let signerKey: PrivateKey
    /// The VICAL signer certificate first, then its issuers, as the `x5chain` carries them.
    public let signerChain: [Certificate]
    private let algorithm: COSEAlgorithm

    /// A signer with `signerKey`, whose certificate is the first of `signerChain`.
    ///
    /// Throws `missingCertificate` for an empty chain, `keyMismatch` when the key is not the
    /// first certificate's, and `unsupportedCurve` for a key no COSE signature algorithm uses.
    public init(signerKey: PrivateKey, signerChain: [Certificate]) throws(IssuanceError) {
        guard let signer = signerChain.first else {
            throw IssuanceError(.missingCertificate, "no VICAL signer certificate was given for the x5chain")
        }
        guard signer.publicKey == signerKey.publicKey else {
            throw IssuanceError(.keyMismatch, "the VICAL signer key is not the key of the first certificate, \"\(signer.subject)\"")
        }
        guard let algorithm = COSEAlgorithm.signatureAlgorithm(forKeyOn: signerKey.curve) else {
            throw IssuanceError(.unsupportedCurve, "a \(signerKey.curve) key cannot sign a VICAL")
        }
        self.signerKey = signerKey
        self.signerChain = signerChain
        self.algorithm = algorithm
    }

    /// The entry that lists `iaca` for `docTypes`: the certificate, and every field that restates
    /// it taken from it (serial number, subject key identifier, issuer and subject Names,
    /// validity, country).
    ///
    /// Throws `invalidVICALEntry` when `docTypes` is empty or the certificate has no subject key
    /// identifier extension (the entry's `ski` would have to be computed).
    public static func certificateInfo(
        for iaca: Certificate, docTypes: [String], issuingAuthority: String? = nil
    ) throws(IssuanceError) -> VICAL.CertificateInfo {
        guard !docTypes.isEmpty else {
            throw IssuanceError(.invalidVICALEntry, "the entry for \"\(iaca.subject)\" lists no document type")
        }
        guard let ski = iaca.subjectKeyIdentifier else {
            throw IssuanceError(.invalidVICALEntry, "\"\(iaca.subject)\" has no subject key identifier extension")
        }
        return VICAL.CertificateInfo(
            certificate: iaca.derRepresentation, serialNumber: iaca.serialNumberBytes, ski: ski, docType: docTypes,
            issuingAuthority: issuingAuthority, issuingCountry: iaca.countryName, issuer: iaca.issuerNameDER,
            subject: iaca.subjectNameDER, notBefore: TDate(iaca.notValidBefore), notAfter: TDate(iaca.notValidAfter))
    }

    /// Signs `vical`. Throws `exceedsDecodingLimits` when the list could not be read back within
    /// `SignedVICAL.limits`, and `signingFailed` when signing fails.
    public func sign(_ vical: VICAL) throws(IssuanceError) -> SignedVICAL {
        var unprotected = CBORMap()
        unprotected.append(CBOR(COSEHeaders.Label.x5chain), COSEHeaders.x5chainValue(signerChain.map(\.derRepresentation)))
        let message: COSESign1
        do {
            message = try COSESign1.sign(
                payload: vical.cbor.encoded(), detached: false, algorithm: algorithm, key: signerKey, unprotectedHeaders: unprotected)
        } catch {
            throw IssuanceError(.signingFailed, "signing the VICAL with \(algorithm) failed: \(error)")
        }
        do {
            return try SignedVICAL(encoded: message.encoded())
        } catch {
            throw IssuanceError(.exceedsDecodingLimits, "the signed VICAL cannot be read back: \(error)")
        }
    }
}
