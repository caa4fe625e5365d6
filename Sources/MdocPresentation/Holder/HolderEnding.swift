/// How a ``HolderDriver`` that ends the session once its response is delivered ends it: ISO/IEC
/// 18013-5 9.1.1.4 lets either side end a session with a SessionData of status 20 or with the
/// transport's own termination, and SessionData may carry a status beside its data.
package enum HolderEnding: Sendable, Hashable {
    /// A SessionData of status 20 after the response, then BLE State 0x02: the usual end.
    case status
    /// The response's SessionData carries status 20 beside its data, then BLE State 0x02.
    case statusBesideResponse
    /// BLE State 0x02 alone (8.3.3.1.1.5): no status.
    case state
    /// A SessionData of status 20 after the response and nothing else: the holder keeps its
    /// side of the link and waits, at most the idle bound, for the reader to close the channel,
    /// as 9.1.1.4 requires of the side that receives a termination.
    case statusLeavingChannel
    /// The link closed right after the response, with neither a status nor State 0x02, as a
    /// lost connection ends it.
    case linkDrop
}
