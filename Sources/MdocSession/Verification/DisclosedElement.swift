import MdocCBOR

/// A data element a DeviceResponse returned, with how it was authenticated.
public struct DisclosedElement: Sendable, Hashable {
    /// Where the element came from (18013-5 8.3.2.1.2.2).
    public enum Source: String, Sendable, Hashable {
        /// IssuerSigned: authenticated by its digest in the issuer-signed MSO.
        case issuerSigned
        /// DeviceSigned: authenticated by device authentication and the MSO KeyAuthorizations.
        case deviceSigned
    }

    /// The name space, for example `org.iso.18013.5.1`.
    public var nameSpace: String
    /// The data element identifier, for example `family_name`.
    public var identifier: String
    /// The element value as received.
    public var value: CBOR
    /// Whether the issuer or the device signed it.
    public var source: Source
    /// The IssuerSignedItem digestID (issuer-signed elements only).
    public var digestID: UInt64?
    /// `true` when issuer data authentication vouches for the element (18013-5 9.3.1): the MSO
    /// passed every issuer check (chain, signature, validity, docType, digest algorithm) and the
    /// element's digest matched it (issuer signed), or, for a device-signed element, device
    /// authentication passed and the MSO KeyAuthorizations authorise the device key to sign it
    /// (9.1.2.4). Not enough to trust the element: issuer data can be copied to another device,
    /// so see ``verified``.
    public var issuerAuthenticated: Bool
    /// `true` when the element is verified: it is ``issuerAuthenticated`` and its document
    /// passed both issuer data authentication and mdoc (device) authentication, the check that
    /// the data comes from the device it was issued to and not from a copy (9.1.3, 9.3.1). Only
    /// a verified element should be shown as valid, used or exported.
    public var verified: Bool

    /// An element as the verifier reports it.
    public init(nameSpace: String, identifier: String, value: CBOR, source: Source, digestID: UInt64?,
                issuerAuthenticated: Bool, verified: Bool) {
        self.nameSpace = nameSpace
        self.identifier = identifier
        self.value = value
        self.source = source
        self.digestID = digestID
        self.issuerAuthenticated = issuerAuthenticated
        self.verified = verified
    }
}
