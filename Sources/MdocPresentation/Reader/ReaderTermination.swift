/// How the reader ends the session once it has the response (ISO/IEC 18013-5 9.1.1.4,
/// 8.3.3.1.1.5).
///
/// The raw values are the names `mdoc-reader request --termination` accepts.
public enum ReaderTermination: String, Sendable, Hashable, CaseIterable {
    /// SessionData with status 20 (9.1.1.4), then BLE State 0x02.
    case status
    /// Only the transport-specific termination, BLE State 0x02 (8.3.3.1.1.5).
    case state
    /// Nothing: wait for the mdoc to end the session, at most the idle bound.
    case wait
}
