import COpenSSL

/// Names for object identifiers as people read them in certificates: the extended key usage
/// purposes of the mdoc ecosystems, which OpenSSL does not know, and OpenSSL's long names for
/// everything else (RFC 5280, PKIX).
public enum ObjectIdentifierNames {
    /// The purposes of the mdoc ecosystems: ISO/IEC 18013-5 Annex B (the `1.0.18013.5.1` arc),
    /// ISO/IEC TS 23220-4 (`1.0.23220.4.1`) and the EU Digital Identity Wallet's PID Rulebook
    /// (`1.3.130.2.0.0.1`).
    static let mdocPurposes: [String: String] = [
        CertificateProfile.documentSignerOID: "id-mdl-kp-mdlDS, mDL document signer (ISO/IEC 18013-5 Annex B)",
        CertificateProfile.jwsSignerOID: "id-mdl-kp-mdlJWS, mDL server retrieval JWS signer (ISO/IEC 18013-5 Annex B)",
        CertificateProfile.readerAuthenticationOID: "id-mdl-kp-mdlReaderAuth, mdoc reader authentication (ISO/IEC 18013-5 Annex B)",
        "1.0.18013.5.1.7": "mDL IACA (ISO/IEC 18013-5)",
        CertificateProfile.mdocDocumentSignerOID: "mdoc document signer (ISO/IEC TS 23220-4)",
        CertificateProfile.mdocReaderAuthenticationOID: "mdoc reader authentication (ISO/IEC TS 23220-4)",
        CertificateProfile.eudiPIDDocumentSignerOID: "id-eudi-iso-pid-kp-DS, EUDI PID document signer (ARF PID Rulebook)",
        CertificateProfile.eudiPIDReaderAuthenticationOID: "id-eudi-iso-pid-kp-ReaderAuth, EUDI PID reader authentication (ARF PID Rulebook)",
    ]

    /// A readable name for `oid` (dotted), or `nil` when neither the mdoc table nor OpenSSL
    /// knows it.
    public static func name(of oid: String) -> String? {
        if let name = mdocPurposes[oid] { return name }
        let nid = oid.withCString { OBJ_txt2nid($0) }
        guard nid != NID_undef, let longName = OBJ_nid2ln(nid) else {
            ERR_clear_error()
            return nil
        }
        let name = String(cString: longName)
        return name == oid ? nil : name
    }
}
