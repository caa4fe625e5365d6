/// A request was sent and its DeviceResponse is due (ISO/IEC 18013-5 9.1.1.4).
struct ReaderAwaitingResponseState: AcceptsSessionData, Sendable {
    /// The established session.
    var session: EstablishedSession
}
