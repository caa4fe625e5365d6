/// The ISO/IEC 18013-5 Annex B certificate profiles a chain can be validated against.
///
/// Each profile names a two-level PKI: a self-signed root kept as a trust anchor and the
/// end-entity certificate it issues, identified by its extended key usage.
public enum CertificateProfile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Issuer data authentication (ISO/IEC 18013-5 9.1.2 and Annex B): an IACA root issues the
    /// document signer certificate that signs the MSO; extended key usage 1.0.18013.5.1.2.
    case documentSigner
    /// mdoc reader authentication (ISO/IEC 18013-5 9.1.4 and Annex B): a reader root issues the
    /// reader authentication certificate that signs ReaderAuthentication; extended key usage
    /// 1.0.18013.5.1.6.
    case readerAuthentication
    /// VICAL signing (ISO/IEC 18013-5 Annex C.1.7): a VICAL provider's root issues the VICAL
    /// signer certificate that signs the list; extended key usage 1.0.18013.5.1.8. Its key usage
    /// is digitalSignature or nonRepudiation: published VICAL signers carry either.
    case vicalSigner

    /// The extended key usage OID the end-entity certificate must carry (ISO/IEC 18013-5 Annex B).
    public var extendedKeyUsageOID: String {
        switch self {
        case .documentSigner: return CertificateProfile.documentSignerOID
        case .readerAuthentication: return CertificateProfile.readerAuthenticationOID
        case .vicalSigner: return CertificateProfile.vicalSignerOID
        }
    }

    /// The name the standard gives the end-entity certificate.
    public var leafName: String {
        switch self {
        case .documentSigner: return "document signer"
        case .readerAuthentication: return "mdoc reader authentication"
        case .vicalSigner: return "VICAL signer"
        }
    }

    /// The name the standard gives the root certificate.
    public var rootName: String {
        switch self {
        case .documentSigner: return "IACA"
        case .readerAuthentication: return "reader root"
        case .vicalSigner: return "VICAL root"
        }
    }

    /// The end-entity extended key usages that the mdoc ecosystems this toolkit knows define
    /// for the profile's role, the profile's own (ISO/IEC 18013-5) first: for a document signer
    /// 1.0.18013.5.1.2, ``mdocDocumentSignerOID`` and ``eudiPIDDocumentSignerOID``; for reader
    /// authentication 1.0.18013.5.1.6, ``mdocReaderAuthenticationOID`` and
    /// ``eudiPIDReaderAuthenticationOID``. A certificate carrying one of them was issued for
    /// the role, whichever ecosystem it belongs to.
    public var knownExtendedKeyUsageOIDs: [String] {
        switch self {
        case .documentSigner:
            return [CertificateProfile.documentSignerOID, CertificateProfile.mdocDocumentSignerOID, CertificateProfile.eudiPIDDocumentSignerOID]
        case .readerAuthentication:
            return [
                CertificateProfile.readerAuthenticationOID, CertificateProfile.mdocReaderAuthenticationOID,
                CertificateProfile.eudiPIDReaderAuthenticationOID,
            ]
        case .vicalSigner:
            return [CertificateProfile.vicalSignerOID]
        }
    }

    public var description: String { rawValue }

    /// id-mdl-kp-mdlDS: extended key usage of a document signer certificate (ISO/IEC 18013-5 Annex B).
    public static let documentSignerOID = "1.0.18013.5.1.2"
    /// id-mdl-kp-mdlJWS: extended key usage of the server retrieval JWS signer (ISO/IEC 18013-5 Annex B).
    public static let jwsSignerOID = "1.0.18013.5.1.3"
    /// id-mdl-kp-mdlReaderAuth: extended key usage of a reader authentication certificate
    /// (ISO/IEC 18013-5 Annex B).
    public static let readerAuthenticationOID = "1.0.18013.5.1.6"
    /// id-mdl-kp-mdlVICAL: extended key usage of a VICAL signer certificate (ISO/IEC 18013-5
    /// Annex C.1.7).
    public static let vicalSignerOID = "1.0.18013.5.1.8"
    /// The mdoc document signer extended key usage of ISO/IEC TS 23220-4 (the mdoc profile that
    /// is not specific to driving licences).
    public static let mdocDocumentSignerOID = "1.0.23220.4.1.2"
    /// The mdoc reader authentication extended key usage of ISO/IEC TS 23220-4.
    public static let mdocReaderAuthenticationOID = "1.0.23220.4.1.6"
    /// id-eudi-iso-pid-kp-DS: the document signer extended key usage of PID Providers in the
    /// EU Digital Identity Wallet (ARF PID Rulebook, "OIDs for use in PID-related certificates":
    /// european-commission(1.3.130) 2 0 0 1 2, used as ISO/IEC 18013-5 uses 1.0.18013.5.1.2).
    public static let eudiPIDDocumentSignerOID = "1.3.130.2.0.0.1.2"
    /// id-eudi-iso-pid-kp-ReaderAuth: the reader authentication extended key usage of Relying
    /// Parties requesting PIDs (ARF PID Rulebook).
    public static let eudiPIDReaderAuthenticationOID = "1.3.130.2.0.0.1.6"
}
