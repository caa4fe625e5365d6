import MdocErrors

/// Why an input of online presentation was refused (ISO/IEC TS 18013-7, OpenID4VP 1.0): a key
/// that has no JWK form this module writes, a JWE that does not parse, is not one this module
/// accepts or does not decrypt; an Annex C request, response or verifier's state that does not
/// read, has expired or does not open. The code names the check that failed; the reason says
/// what was found and where.
///
/// Equality compares the code only.
public typealias OnlineError = MdocError<OnlineErrorDomain>

/// The domain of ``OnlineError``: its errors print their code before the reason.
public enum OnlineErrorDomain: CodeNamingErrorDomain {}

extension ErrorKind where Domain == OnlineError {
    /// The key has no JWK form here: a curve with no JOSE name (RFC 7518 section 6.2.1.1 names
    /// P-256, P-384 and P-521).
    public static let unsupportedKey = Self("unsupportedKey")

    // JWE (RFC 7516 compact serialisation, RFC 7518 section 4.6 ECDH-ES).

    /// The JWE is longer than ``JWELimits/maximumCompactByteCount``, or its protected header than
    /// ``JWELimits/maximumHeaderByteCount``.
    public static let jweTooLarge = Self("jweTooLarge")
    /// The JWE does not parse: not five base64url parts, a header that is not a JSON object or
    /// has a member twice, a member of the wrong type, an encrypted key where ECDH-ES has none,
    /// an IV or tag of the wrong length.
    public static let malformedJWE = Self("malformedJWE")
    /// The JWE asks for what is not accepted: an `alg` other than `ECDH-ES`, an `enc` outside the
    /// allowlist, compression (`zip`) or critical extensions (`crit`).
    public static let unsupportedJWEAlgorithm = Self("unsupportedJWEAlgorithm")
    /// The `epk` is missing, not an EC P-256 public key, or not a point on the curve.
    public static let invalidEphemeralKey = Self("invalidEphemeralKey")
    /// The JWE does not decrypt with the recipient's key: another key, or altered bytes.
    public static let jweDecryptionFailed = Self("jweDecryptionFailed")
    /// Encrypting a JWE failed in the crypto library.
    public static let jweEncryptionFailed = Self("jweEncryptionFailed")

    // ISO/IEC TS 18013-7 Annex C (org-iso-mdoc).

    /// An Annex C request, response or state is longer than its limit in ``DCAPILimits``.
    public static let inputTooLarge = Self("inputTooLarge")
    /// The EncryptionInfo does not read: not `["dcapi", {"nonce": bstr, "recipientPublicKey":
    /// COSE_Key}]`, a nonce shorter than ``DCAPILimits/minimumNonceByteCount`` or longer than
    /// ``DCAPILimits/maximumNonceByteCount``, a key that is not a public P-256 key.
    public static let malformedEncryptionInfo = Self("malformedEncryptionInfo")
    /// The request object does not read: not JSON `{"deviceRequest": b64url, "encryptionInfo":
    /// b64url}`, or a `deviceRequest` that is not a DeviceRequest.
    public static let malformedRequest = Self("malformedRequest")
    /// The response does not read: not JSON `{"response": b64url}` whose bytes are
    /// `["dcapi", {"enc": bstr, "cipherText": bstr}]`, or a `cipherText` shorter than the AEAD
    /// tag or longer than the largest DeviceResponse and its tag.
    public static let malformedResponse = Self("malformedResponse")
    /// The response does not open with the request's key and SessionTranscript: it was
    /// encrypted for another request, another origin, or altered.
    public static let responseDecryptionFailed = Self("responseDecryptionFailed")
    /// Encrypting a response failed in the crypto library, or the response would be too large.
    public static let responseEncryptionFailed = Self("responseEncryptionFailed")
    /// The origin is not a serialised web origin (`https://host[:port]`: a scheme, `://`, a host
    /// and maybe a port, with no path, query, fragment or user, in ASCII).
    public static let invalidOrigin = Self("invalidOrigin")
    /// Making a request failed: no fresh key, or the DeviceRequest could not be built or signed.
    public static let requestConstructionFailed = Self("requestConstructionFailed")
    /// The verifier's request state does not read: not the JSON this module writes, or a
    /// validity outside ``DCAPILimits``.
    public static let malformedState = Self("malformedState")
    /// The verifier's request state is not consistent: its nonce or key is not the one of the
    /// EncryptionInfo it holds, or it was created after it expires.
    public static let stateTampered = Self("stateTampered")
    /// The request has expired: the response came after the state's expiry time.
    public static let requestExpired = Self("requestExpired")

    // OpenID4VP 1.0.

    /// The request asks for what is not done here: a signed Request Object (`request`),
    /// `transaction_data`, a Credential Query of another format than `mso_mdoc`, or DCQL
    /// `credential_sets`, `claim_sets` or `values`.
    public static let unsupportedRequest = Self("unsupportedRequest")
    /// The response is not of the request's `response_mode`: a `vp_token` where a JWE
    /// `response` was asked for, or the other way round.
    public static let responseModeMismatch = Self("responseModeMismatch")
    /// The `vp_token` does not answer the DCQL query: a Credential Query's `id` missing, an `id`
    /// that was not asked for, or other than one presentation for an `id`.
    public static let vpTokenMismatch = Self("vpTokenMismatch")
}
