import MdocCBOR

/// The claims of an identifier list token (ISO/IEC 18013-5 second edition 12.3.6.3): a CBOR
/// map with integer keys (RFC 8392 section 3), as a Status List Token's but for the list.
///
/// | key | claim | |
/// |---|---|---|
/// | 2 | `sub`: the token's URI, equal to the MSO's identifier_list `uri` | required |
/// | 6 | `iat`: when the token was issued | required |
/// | 4 | `exp`: when it expires | required |
/// | 65534 | `ttl`: how long it may be cached, in seconds, positive | optional |
/// | 65530 | `identifier_list`: the ``IdentifierList`` | required |
///
/// A token that also carries `status_list` (65533) is refused: it is one kind of list or the
/// other. Other claims are allowed and kept in their order.
public struct IdentifierListTokenClaims: Sendable, Hashable {
    /// The claim keys.
    public enum Key {
        /// `identifier_list`.
        public static let identifierList: Int64 = 65530
    }

    /// `sub`: the URI of the token.
    public var subject: String
    /// `iat`, in seconds since the epoch.
    public var issuedAt: Int64
    /// `exp`, in seconds since the epoch.
    public var expiration: Int64
    /// `ttl`, in seconds, when present; never 0.
    public var timeToLive: UInt64?
    /// `identifier_list`.
    public var identifierList: IdentifierList
    /// Every other claim, in its order.
    public var otherClaims: CBORMap

    /// Claims from their values.
    public init(subject: String, issuedAt: Int64, expiration: Int64, timeToLive: UInt64? = nil, identifierList: IdentifierList,
                otherClaims: CBORMap = CBORMap()) {
        self.subject = subject
        self.issuedAt = issuedAt
        self.expiration = expiration
        self.timeToLive = timeToLive
        self.identifierList = identifierList
        self.otherClaims = otherClaims
    }

    /// Decodes the claims map `cbor` found at `path`.
    ///
    /// Throws `missingClaim` when `sub`, `iat`, `exp` or `identifier_list` is absent,
    /// `invalidClaim` when a claim has the wrong type, `ttl` is 0 or `status_list` is present,
    /// and the errors of ``IdentifierList/init(cbor:at:)``.
    public init(cbor: CBOR, at path: CBORPath) throws(StatusListError) {
        let shared = try StatusTokenClaims(cbor: cbor, at: path)
        guard let expiration = shared.expiration else {
            throw StatusListError(.missingClaim, "\(path): the required claim exp (\(StatusListTokenClaims.Key.expiration)) is missing")
        }
        guard shared.map[int: StatusListTokenClaims.Key.statusList] == nil else {
            throw StatusListError(.invalidClaim, "\(path.appending(intKey: StatusListTokenClaims.Key.statusList)): an identifier list token carries no status_list")
        }
        let list = try StatusTokenClaims.required(Key.identifierList, "identifier_list", in: shared.map, at: path)
        self.subject = shared.subject
        self.issuedAt = shared.issuedAt
        self.expiration = expiration
        self.timeToLive = shared.timeToLive
        self.identifierList = try IdentifierList(cbor: list, at: path.appending(intKey: Key.identifierList))
        self.otherClaims = shared.otherClaims(besides: [Key.identifierList])
    }

    /// The claims map: `sub`, `iat`, `exp`, `ttl` (when present), `identifier_list`, then the
    /// others.
    public var cbor: CBOR {
        StatusTokenClaims.encode(
            subject: subject, issuedAt: issuedAt, expiration: expiration, timeToLive: timeToLive,
            list: (Key.identifierList, identifierList.cbor), otherClaims: otherClaims)
    }
}
