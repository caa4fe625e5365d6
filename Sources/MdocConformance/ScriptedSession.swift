import MdocCBOR
import MdocModel
import MdocSession

/// The session a ``ConformanceCase`` runs against the mdoc under test: what the reader asks, and
/// how it departs on purpose from the session ISO/IEC 18013-5 9.1.1 describes.
public struct ScriptedSession: Sendable {
    /// The first DeviceRequest.
    public enum Request: Sendable {
        /// The DeviceRequest the reader builds from these DocRequests (8.3.2.1.2.1).
        case built([DocRequestSpec])
        /// These bytes, sent exactly as given: a DeviceRequest that may be malformed on purpose.
        case given([UInt8])
    }

    /// What the session does beside sending its request.
    public enum Departure: Sendable, Hashable {
        /// Nothing: the session as the reader builds it.
        case none
        /// The last byte of SessionEstablishment's `data` (the AES-GCM tag) is altered, so that
        /// the ciphertext cannot be authenticated (9.1.1.5).
        case alteredCiphertext
        /// After the response, the SessionEstablishment's ciphertext is sent again in
        /// SessionData: a replay under a reader counter the mdoc already used (9.1.1.5).
        case replayedCiphertext
        /// SessionEstablishment carries an EReaderKey on another curve than the engagement's
        /// EDeviceKey (9.1.5.2), with the ciphertext of the key on the right one.
        case eReaderKeyOnOtherCurve
    }

    /// The first DeviceRequest.
    public var request: Request
    /// How the session departs from the usual one.
    public var departure: Departure

    /// A session sending `request` and departing as `departure` says.
    public init(request: Request, departure: Departure = .none) {
        self.request = request
        self.departure = departure
    }
}
