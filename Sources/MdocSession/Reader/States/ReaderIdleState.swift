/// Every request was answered: the reader may send another or end the session (ISO/IEC 18013-5
/// 9.1.1.4).
struct ReaderIdleState: AcceptsSessionData, Sendable {
    /// The established session.
    var session: EstablishedSession
}
