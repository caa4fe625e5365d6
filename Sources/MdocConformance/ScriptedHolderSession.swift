import MdocCrypto

/// The session a ``ReaderConformanceCase`` runs with the mdoc reader under test: the engagement
/// the holder shows, and how the holder departs on purpose from the session ISO/IEC 18013-5
/// 9.1.1 describes.
public struct ScriptedHolderSession: Sendable {
    /// What the holder does beside answering the request.
    public enum Departure: Sendable, Hashable {
        /// Nothing: the response as the holder builds it from what was asked.
        case none
        /// The last byte of the response's SessionData `data` (the AES-GCM tag) is altered, so
        /// that the ciphertext cannot be authenticated (9.1.1.5).
        case alteredCiphertext
        /// The salt (`random`) of every IssuerSignedItem is altered after issuance, so that no
        /// returned element matches its digest in the MSO (9.1.2.4) while IssuerAuth still
        /// verifies.
        case alteredDigests
    }

    /// The curve of the engagement's EDeviceKey (9.1.5.2).
    public var eDeviceKeyCurve: Curve
    /// How the session departs from the usual one.
    public var departure: Departure

    /// A session with EDeviceKey on `eDeviceKeyCurve` departing as `departure` says.
    public init(eDeviceKeyCurve: Curve = .p256, departure: Departure = .none) {
        self.eDeviceKeyCurve = eDeviceKeyCurve
        self.departure = departure
    }
}
