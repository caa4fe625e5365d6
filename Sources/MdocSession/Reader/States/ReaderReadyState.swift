/// The session keys are derived and nothing was sent yet (ISO/IEC 18013-5 9.1.1.4): the next
/// step is SessionEstablishment with the first request.
struct ReaderReadyState: AcceptsSessionData, Sendable {
    /// The session, keyed from the engagement and EReaderKey.
    var session: EstablishedSession
}
