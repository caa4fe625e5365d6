/// `DocType = tstr` values this toolkit knows (ISO/IEC 18013-5 7.1; EUDI PID Rulebook; EU Age
/// Verification Blueprint).
public enum DocType {
    /// The mobile driving licence (ISO/IEC 18013-5 7.1).
    public static let mDL = "org.iso.18013.5.1.mDL"
    /// The EU Digital Identity Wallet person identification data (PID Rulebook, mdoc encoding).
    public static let eudiPID = "eu.europa.ec.eudi.pid.1"
    /// The EU proof of age attestation (Age Verification Blueprint, mdoc encoding).
    public static let euAgeVerification = "eu.europa.ec.av.1"
}

/// `NameSpace = tstr` values this toolkit knows (ISO/IEC 18013-5 7.2.1; AAMVA mDL Implementation
/// Guidelines; EUDI PID Rulebook; EU Age Verification Blueprint).
public enum NameSpace {
    /// The mDL data elements of Table 5 (ISO/IEC 18013-5 7.2.1).
    public static let mDL = "org.iso.18013.5.1"
    /// The AAMVA extension name space for North American mDLs.
    public static let aamva = "org.iso.18013.5.1.aamva"
    /// The EUDI PID name space.
    public static let eudiPID = "eu.europa.ec.eudi.pid.1"
    /// The name space of the EU proof of age attestation (`age_over_18` and its kin).
    public static let euAgeVerification = "eu.europa.ec.av.1"
}
