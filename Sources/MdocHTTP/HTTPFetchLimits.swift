/// The bounds of one fetch: a Status List Token's `uri` (draft-ietf-oauth-status-list section 8.1)
/// comes from a document, and the server behind it may be slow, stalled, lying or hostile
/// (section 11.4 on redirects; section 11.5 on bounding what a client is made to do). Each bound
/// is a named default; a caller may tighten or loosen one for its own use.
public struct HTTPFetchLimits: Sendable, Equatable {
    /// 2 seconds: the default ``connectTimeout``. A status list server answers a TCP (and TLS)
    /// handshake in well under a second; a reader should not hang on an address that drops
    /// packets.
    public static let defaultConnectTimeout: Duration = .seconds(2)

    /// 5 seconds: the default ``transferTimeout``, connection included. A 4 MiB token arrives in
    /// under a second on any link that is fit to check a document's status at a counter.
    public static let defaultTransferTimeout: Duration = .seconds(5)

    /// 1,024 bytes per second: the default ``lowSpeedBytesPerSecond``. A transfer slower than
    /// this for ``defaultLowSpeedTime`` is a trickle (a "slowloris" server), or a server that took
    /// the connection and never answers.
    public static let defaultLowSpeedBytesPerSecond = 1024

    /// 2 seconds: the default ``lowSpeedTime``, how long a transfer may stay under
    /// ``lowSpeedBytesPerSecond`` before it is abandoned.
    public static let defaultLowSpeedTime: Duration = .seconds(2)

    /// 3: the default ``maximumRedirects``. The draft allows following redirects (section 8.2)
    /// and warns of loops (section 11.4); a published list moved once or twice needs no more.
    public static let defaultMaximumRedirects = 3

    /// 4 MiB: the default ``maximumBodyBytes``, the same bound as the largest token decoded
    /// (the draft's appendix "Size Comparison" puts 10 million 1-bit entries, half of them set,
    /// at about 1.2 MB). The transfer stops as soon as the body passes it, whatever the response's
    /// Content-Length says.
    public static let defaultMaximumBodyBytes = 4 * 1024 * 1024

    /// How long connecting (TCP and TLS) may take.
    public var connectTimeout: Duration
    /// How long the whole transfer may take, connecting and redirects included.
    public var transferTimeout: Duration
    /// The slowest transfer, in bytes per second, tolerated for ``lowSpeedTime``.
    public var lowSpeedBytesPerSecond: Int
    /// How long a transfer may stay under ``lowSpeedBytesPerSecond``, in whole seconds (libcurl's
    /// unit; a fraction counts as a second more).
    public var lowSpeedTime: Duration
    /// The most redirects followed (RFC 9110 section 15.4). A redirect is followed only to the
    /// scheme of the URI asked for: never from `https` to `http`, nor to any other scheme.
    public var maximumRedirects: Int
    /// The largest body accepted, in bytes.
    public var maximumBodyBytes: Int
    /// Whether a `http` URI may be fetched. By default only `https` is: the token is signed, but a
    /// plain fetch tells every on-path observer which list, and so which issuer, a reader asked.
    public var allowsPlainHTTP: Bool
    /// A PEM file of the certificate authorities that TLS servers are verified with instead of the
    /// system's (a test CA); nil for the system's.
    public var caFile: String?

    /// The bounds: every one at its default unless given.
    public init(
        connectTimeout: Duration = Self.defaultConnectTimeout,
        transferTimeout: Duration = Self.defaultTransferTimeout,
        lowSpeedBytesPerSecond: Int = Self.defaultLowSpeedBytesPerSecond,
        lowSpeedTime: Duration = Self.defaultLowSpeedTime,
        maximumRedirects: Int = Self.defaultMaximumRedirects,
        maximumBodyBytes: Int = Self.defaultMaximumBodyBytes,
        allowsPlainHTTP: Bool = false,
        caFile: String? = nil
    ) {
        self.connectTimeout = connectTimeout
        self.transferTimeout = transferTimeout
        self.lowSpeedBytesPerSecond = lowSpeedBytesPerSecond
        self.lowSpeedTime = lowSpeedTime
        self.maximumRedirects = maximumRedirects
        self.maximumBodyBytes = maximumBodyBytes
        self.allowsPlainHTTP = allowsPlainHTTP
        self.caFile = caFile
    }
}
