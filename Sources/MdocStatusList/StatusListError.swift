import MdocErrors

/// Why a Status List Token, a status list or its compressed bytes were rejected
/// (draft-ietf-oauth-status-list sections 4, 5.2 and 8.3; RFC 1950 for the compression). The
/// code names the check that failed; the reason says what was found and where.
///
/// Equality compares the code only.
public typealias StatusListError = MdocError<StatusListErrorDomain>

/// The domain of ``StatusListError``: its errors print their code before the reason.
public enum StatusListErrorDomain: CodeNamingErrorDomain {}

extension ErrorKind where Domain == StatusListError {
    // The compressed list (RFC 1950, draft section 4.1).

    /// The bytes do not start with a zlib header (RFC 1950 section 2.2): a raw DEFLATE stream,
    /// another compression method, a window over 32 KiB, or header check bits that do not add up.
    public static let notZlib = Self("notZlib")
    /// The bytes are a gzip member (RFC 1952), which the draft does not allow in place of zlib.
    public static let gzipNotZlib = Self("gzipNotZlib")
    /// The zlib header asks for a preset dictionary (FDICT), which no status list has.
    public static let presetDictionary = Self("presetDictionary")
    /// The DEFLATE data (RFC 1951) is invalid: a bad block type, code or distance.
    public static let invalidDeflate = Self("invalidDeflate")
    /// The bytes end before the DEFLATE stream or its Adler-32 trailer does.
    public static let truncated = Self("truncated")
    /// The Adler-32 trailer (RFC 1950 section 2.2) is not the checksum of the inflated bytes.
    public static let checksumMismatch = Self("checksumMismatch")
    /// Bytes follow the Adler-32 trailer.
    public static let trailingBytes = Self("trailingBytes")
    /// The list inflates to more than ``StatusListLimits/decompressedBytes``.
    public static let decompressedTooLarge = Self("decompressedTooLarge")
    /// zlib failed for want of memory or reported an internal error.
    public static let compressionFailed = Self("compressionFailed")

    // The status list (draft section 4).

    /// `bits` is not 1, 2, 4 or 8 (draft section 4.1).
    public static let invalidBits = Self("invalidBits")
    /// The StatusList map is malformed: `bits` or `lst` missing or of the wrong type,
    /// `aggregation_uri` not text (draft section 4.3).
    public static let invalidStatusList = Self("invalidStatusList")
    /// A status value does not fit in the list's `bits`.
    public static let invalidStatusValue = Self("invalidStatusValue")
    /// The IdentifierList map is malformed: `identifiers` missing or not a map of byte strings
    /// to maps, `aggregation_uri` not text (ISO/IEC 18013-5 second edition 12.3.6.4).
    public static let invalidIdentifierList = Self("invalidIdentifierList")
    /// The index is past the end of the list: no statement can be made (draft section 8.3).
    public static let indexOutOfRange = Self("indexOutOfRange")

    // The token (draft sections 5.2 and 8.3).

    /// The token is larger than ``StatusListLimits/tokenBytes``.
    public static let tokenTooLarge = Self("tokenTooLarge")
    /// The token is not well-formed CBOR or not a COSE_Sign1 or COSE_Mac0 structure.
    public static let malformedToken = Self("malformedToken")
    /// The token is a COSE message without its tag (18 or 17), which the draft requires.
    public static let untagged = Self("untagged")
    /// The token is wrapped in the CWT tag 61, which the draft forbids (section 5.2).
    public static let cwtTag = Self("cwtTag")
    /// The protected `typ` header (16) is missing, unprotected, or not
    /// `application/statuslist+cwt` (section 5.2), or `application/identifierlist+cwt` for an
    /// identifier list token.
    public static let wrongType = Self("wrongType")
    /// A required claim is missing: `sub` (2), `iat` (6) or `status_list` (65533); for an
    /// identifier list token, `exp` (4) or `identifier_list` (65530).
    public static let missingClaim = Self("missingClaim")
    /// A claim has the wrong type or value: `ttl` not a positive integer, `status_list` not a
    /// map, or a `status_list` in an identifier list token.
    public static let invalidClaim = Self("invalidClaim")
    /// `sub` is not the `uri` the Referenced Token points to (section 8.3 step 3).
    public static let subjectMismatch = Self("subjectMismatch")
    /// `exp` has passed (section 8.3 step 4).
    public static let expired = Self("expired")
    /// `iat` is later than the validation time by more than ``StatusListLimits/clockSkew``.
    public static let issuedInFuture = Self("issuedInFuture")
    /// The signature or MAC does not verify with the key given, or the key does not suit the
    /// token: a public key for a COSE_Mac0, a symmetric key for a COSE_Sign1, a curve or `alg`
    /// that do not match.
    public static let signatureInvalid = Self("signatureInvalid")
    /// The token's signer is not the document's issuer: no `x5chain`, or one that is neither
    /// the document signer nor a certificate its IACA issued (draft section 11.3).
    public static let notBoundToIssuer = Self("notBoundToIssuer")
    /// Making a token failed: the key signs with no ECDSA algorithm, the headers are invalid or
    /// the crypto library failed.
    public static let signingFailed = Self("signingFailed")
}
