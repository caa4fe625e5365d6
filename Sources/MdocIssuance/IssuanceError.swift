import MdocErrors

/// A failure to issue a document (ISO/IEC 18013-5 9.1.2): the inputs cannot make an MSO that a
/// reader would accept, or signing failed.
///
/// Equality compares the code only.
public typealias IssuanceError = MdocError<IssuanceErrorDomain>

/// The domain of ``IssuanceError``.
public enum IssuanceErrorDomain: ErrorDomain {}

extension ErrorKind where Domain == IssuanceError {
    /// No document signer certificate was given; IssuerAuth needs one in `x5chain` (9.1.2.4).
    public static let missingCertificate = Self("missingCertificate")
    /// The document signer key is not the key of the first certificate of the chain.
    public static let keyMismatch = Self("keyMismatch")
    /// The document signer key is on a curve no COSE signature algorithm uses (X25519, X448).
    public static let unsupportedCurve = Self("unsupportedCurve")
    /// The doc type, a name space or a data element is empty, or one is given twice: the MSO
    /// ValueDigests need at least one name space with at least one element (9.1.2.4).
    public static let invalidNameSpaces = Self("invalidNameSpaces")
    /// The ValidityInfo is inconsistent (validFrom after validUntil, signed after validFrom)
    /// or `signed` lies outside the document signer certificate's validity (9.1.2.4).
    public static let invalidValidity = Self("invalidValidity")
    /// An IssuerSignedItem or the MSO cannot be read back within `CBORLimits.default`
    /// (too deep, too many items or too large), so readers with those limits would reject it.
    public static let exceedsDecodingLimits = Self("exceedsDecodingLimits")
    /// Signing the MSO or a VICAL failed inside the crypto library.
    public static let signingFailed = Self("signingFailed")
    /// A VICAL entry cannot be made: no document type, or an IACA without the subject key
    /// identifier the entry restates (ISO/IEC 18013-5 Annex C.1.7).
    public static let invalidVICALEntry = Self("invalidVICALEntry")
    /// Test material was asked for without a note saying why it fails, or with an empty one.
    public static let invalidTestMaterial = Self("invalidTestMaterial")
}
