import MdocCrypto
import MdocModel

/// A request arrived and the holder is deciding what to release (ISO/IEC 18013-5 8.3.2.1.2.1):
/// the reader may end the session meanwhile, but a second request before the answer is a
/// protocol error.
struct HolderAwaitingConsentState: AcceptsSessionData, Sendable {
    /// The established session.
    var session: EstablishedSession
    /// The reader's ephemeral key, for DeviceMac (9.1.3.5).
    let eReaderKey: PublicKey
    /// The request being decided on.
    let request: DeviceRequest
}
