/// A response that passed every check of a fetch: a 2xx status, the content type asked for (when
/// one was), no content coding, a body within the bound.
public struct HTTPFetchResult: Sendable, Equatable {
    /// The final response's status code, 200 to 299.
    public var statusCode: Int
    /// The final response's Content-Type as the server sent it, parameters included; nil when it
    /// sent none.
    public var contentType: String?
    /// The body, byte for byte as received.
    public var body: [UInt8]
    /// The URI the body came from: the one asked for, or where redirects led. It names a server's
    /// choice, so escape it before showing it.
    public var finalURI: String
    /// How many redirects were followed.
    public var redirectCount: Int
    /// How long the fetch took, from the first connection attempt to the last byte.
    public var elapsed: Duration

    /// A result of these parts.
    public init(statusCode: Int, contentType: String?, body: [UInt8], finalURI: String, redirectCount: Int, elapsed: Duration) {
        self.statusCode = statusCode
        self.contentType = contentType
        self.body = body
        self.finalURI = finalURI
        self.redirectCount = redirectCount
        self.elapsed = elapsed
    }
}
