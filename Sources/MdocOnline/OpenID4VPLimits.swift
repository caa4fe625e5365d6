/// The bounds of OpenID for Verifiable Presentations 1.0 on what is received: a request, a
/// response and a verifier's state are input of a peer's (or a file's) choosing, checked before
/// anything is decoded. How long a request may be answered is bounded as for Annex C
/// (``DCAPILimits/minimumValidity`` to ``DCAPILimits/maximumValidity``).
public enum OpenID4VPLimits {
    /// 16 bytes: the random bytes of the `nonce` of a request made here, written as 22 base64url
    /// characters (section 5.2: "at least 128 bits of entropy" is recommended).
    public static let nonceByteCount = 16

    /// 256 characters: the longest `nonce` read. Section 5.2 sets no upper bound.
    public static let maximumNonceLength = 256

    /// 64 characters: the longest DCQL Credential Query `id` read (section 6.1 allows
    /// alphanumerics, `_` and `-`, and sets no length).
    public static let maximumCredentialIDLength = 64

    /// 16: the most Credential Queries a DCQL query may hold, and so the most entries of a
    /// `vp_token`. A request asks for a handful of documents.
    public static let maximumCredentialQueryCount = 16

    /// 16: the most presentations read for one Credential Query `id` of a `vp_token` (one is
    /// accepted: the queries made here do not set `multiple`).
    public static let maximumPresentationCount = 16

    /// 256: the most Claims Queries of one Credential Query.
    public static let maximumClaimQueryCount = 256

    /// 8: the most keys of `client_metadata.jwks` and values of
    /// `encrypted_response_enc_values_supported` read.
    public static let maximumListCount = 8

    /// 1 MiB: the longest request object read.
    public static let maximumRequestByteCount = 1024 * 1024

    /// 12 MiB: the longest response read (a JSON object or a form body). A `vp_token` holding
    /// the largest DeviceResponse decoded (MdocCrypto's `HPKE.maximumPlaintextByteCount`, 8 MiB)
    /// is 10.7 MiB of base64url; an encrypted response is bounded further by
    /// ``JWELimits/maximumCompactByteCount``, so its DeviceResponses total about 6.7 MiB at most.
    public static let maximumResponseByteCount = 12 * 1024 * 1024

    /// 64 KiB: the longest verifier's request state read. A state is about 1 KiB.
    public static let maximumStateByteCount = 64 * 1024

    /// 7 levels: the deepest JSON of a request (the object, `dcql_query`, `credentials`, a
    /// Credential Query, `claims`, a Claims Query, its `path`).
    public static let maximumRequestDepth = 7

    /// 3 levels: the deepest JSON of a response (the object, `vp_token`, an array of
    /// presentations) or a state (the object, an array of strings).
    public static let maximumResponseDepth = 3
}
