/// The `response_mode` of an OpenID4VP 1.0 request for a `vp_token`: how the wallet returns the
/// response, and whether it is encrypted (section 8.3, a JWE to a key of the request's
/// `client_metadata.jwks`).
public enum OpenID4VPResponseMode: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `dc_api`: returned through the Digital Credentials API, not encrypted (Appendix A.2).
    case digitalCredentialsAPI = "dc_api"
    /// `dc_api.jwt`: returned through the Digital Credentials API as `{"response": JWE}`.
    case digitalCredentialsAPIJWT = "dc_api.jwt"
    /// `direct_post`: posted to the `response_uri` as a form, not encrypted (section 8.2).
    case directPost = "direct_post"
    /// `direct_post.jwt`: posted to the `response_uri` as the form `response=JWE` (section 8.3.1).
    case directPostJWT = "direct_post.jwt"

    public var description: String { rawValue }

    /// Whether the response is a JWE.
    public var isEncrypted: Bool {
        self == .digitalCredentialsAPIJWT || self == .directPostJWT
    }

    /// Whether the request goes through the Digital Credentials API, whose SessionTranscript
    /// binds the origin (``OpenID4VPDCAPIHandover``) rather than the `client_id` and
    /// `response_uri` (``OpenID4VPHandover``).
    public var usesDigitalCredentialsAPI: Bool {
        self == .digitalCredentialsAPI || self == .digitalCredentialsAPIJWT
    }
}
