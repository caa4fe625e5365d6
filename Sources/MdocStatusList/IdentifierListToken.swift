import MdocCBOR
import MdocCOSE

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An identifier list token (ISO/IEC 18013-5 second edition 12.3.6.3), decoded from the bytes an
/// HTTP response carried, which it keeps as received: the CWT form of a Status List Token
/// (draft-ietf-oauth-status-list section 5.2) with `typ` `application/identifierlist+cwt` and
/// an ``IdentifierList`` in place of the status list (``IdentifierListTokenClaims``).
///
/// Decoding checks the form, as ``StatusListToken`` does; ``validate(uri:at:key:)`` checks that
/// the token is authentic, current and the one asked for.
public struct IdentifierListToken: Sendable {
    /// The media type of an identifier list token, its `typ` header.
    public static let mediaType = "application/identifierlist+cwt"

    /// The token exactly as received.
    public let bytes: [UInt8]
    /// The COSE message.
    public let message: StatusListToken.Message
    /// The claims, decoded from the received payload.
    public let claims: IdentifierListTokenClaims

    /// Decodes a token from `bytes` (see the type's description for what is checked).
    public init(bytes: [UInt8]) throws(StatusListError) {
        let (message, claims) = try StatusTokenEnvelope.open(bytes, mediaType: Self.mediaType)
        self.claims = try IdentifierListTokenClaims(cbor: claims, at: .root)
        self.bytes = bytes
        self.message = message
    }

    /// The identifier list of the `identifier_list` claim.
    public var identifierList: IdentifierList { claims.identifierList }

    /// The `x5chain` certificates (DER, leaf first; RFC 9360), empty when the token has none.
    public var x5chain: [[UInt8]] { message.headers.x5chain }

    /// Validates the token for a document whose identifier_list `uri` it should be, at `time`,
    /// with `key`: the signature or MAC, then `sub`, `iat` and `exp`, as a Status List Token's
    /// (draft-ietf-oauth-status-list section 8.3 steps 3 and 4).
    ///
    /// Throws the first failure: `signatureInvalid`, `subjectMismatch`, `issuedInFuture` or
    /// `expired`.
    public func validate(uri: String, at time: Date, key: StatusListToken.Key) throws(StatusListError) {
        let now = Int64(time.timeIntervalSince1970.rounded(.down))
        _ = try StatusTokenEnvelope.authenticate(message, with: key)
        try StatusTokenClaims.checkSubject(claims.subject, is: uri)
        try StatusTokenClaims.checkIssuedAt(claims.issuedAt, now: now)
        try StatusTokenClaims.checkExpiration(claims.expiration, now: now)
    }
}
