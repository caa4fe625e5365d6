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

    /// The extended key usage OID the end-entity certificate must carry (ISO/IEC 18013-5 Annex B).
    public var extendedKeyUsageOID: String {
        switch self {
        case .documentSigner: return CertificateProfile.documentSignerOID
        case .readerAuthentication: return CertificateProfile.readerAuthenticationOID
        }
    }

    /// The name the standard gives the end-entity certificate.
    public var leafName: String {
        switch self {
        case .documentSigner: return "document signer"
        case .readerAuthentication: return "mdoc reader authentication"
        }
    }

    /// The name the standard gives the root certificate.
    public var rootName: String {
        switch self {
        case .documentSigner: return "IACA"
        case .readerAuthentication: return "reader root"
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
}
