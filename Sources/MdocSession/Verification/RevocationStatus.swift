/// What a ``RevocationChecker`` knows about a document and its certificates.
public enum RevocationStatus: Sendable, Hashable {
    /// Neither the document nor a certificate of its path has been revoked; the text says what
    /// was consulted (for example "serial 1a is not on the CRL of CN=utopia iaca, next update
    /// 2021-01-08T00:00:00Z").
    case good(String)
    /// The document or a certificate of its path has been revoked; the text says which and by
    /// what.
    case revoked(String)
    /// The document has been suspended (a status list's SUSPENDED, draft-ietf-oauth-status-list
    /// section 7.1): not valid now, though its issuer may make it valid again; the text says by
    /// what.
    case suspended(String)
    /// The status information does not say, with why (for example "no status list fetched for
    /// https://example.com/status/1").
    case unknown(String)
}
