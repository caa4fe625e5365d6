import MdocCrypto

/// The response was sent; the reader may send another request or end the session (ISO/IEC
/// 18013-5 9.1.1.4).
struct HolderAwaitingRequestState: AcceptsSessionData, Sendable {
    /// The established session.
    var session: EstablishedSession
    /// The reader's ephemeral key, for DeviceMac (9.1.3.5).
    let eReaderKey: PublicKey
}
