/// How long a live session waits for its peer (ISO/IEC 18013-5 8.3.3.1.1 leaves timing to the
/// implementation). Each bound is an inactivity bound, not a race against the link's speed: a
/// peer that keeps sending chunks of a message is not idle, and only ``message`` bounds how long
/// it may go on.
public struct SessionTimeouts: Sendable, Hashable {
    /// Finding the peer and setting up the link, until the session starts with State 0x01
    /// (8.3.3.1.1.4).
    public var connection: Duration
    /// The longest wait with nothing arriving: for the peer's next message, and between the
    /// chunks of one. Also the longest the peer may take to accept a message we send.
    public var idle: Duration
    /// The longest one message may take once its chunks started arriving, however steadily the
    /// peer sends: bounds a peer that trickles chunks. Counted from when the wait first saw
    /// chunks of the message arrive.
    public var message: Duration
    /// The reader's wait for the first octets of the response to its request, which includes the
    /// holder's consent: a person reading the request and deciding.
    public var response: Duration

    /// The default ``message`` bound, 5 minutes: the 4 MiB reassembly limit
    /// (`MessageReassembler.maximumMessageSize`) at 14 KB/s, well below what an LE link carries,
    /// while a peer that sends a chunk just often enough to stay under ``idle`` cannot hold a
    /// session for longer.
    public static let standardMessageLimit: Duration = .seconds(300)
    /// The default ``response`` bound, 2 minutes: time for a person to read a request and decide.
    public static let standardConsentTime: Duration = .seconds(120)

    /// Bounds of each kind.
    public init(connection: Duration, idle: Duration, message: Duration = standardMessageLimit,
                response: Duration = standardConsentTime) {
        self.connection = connection
        self.idle = idle
        self.message = message
        self.response = response
    }

    /// The holder's defaults: 2 minutes to find a reader and for each of its messages.
    public static let holder = SessionTimeouts(connection: .seconds(120), idle: .seconds(120))
    /// The reader's defaults: 30 s to find the mdoc and for each message to make progress,
    /// ``standardConsentTime`` for the holder's decision.
    public static let reader = SessionTimeouts(connection: .seconds(30), idle: .seconds(30))
}
