import MdocCBOR

/// The claims of a Status List Token in CWT form (draft-ietf-oauth-status-list section 5.2): a
/// CBOR map with integer keys (RFC 8392 section 3).
///
/// | key | claim | |
/// |---|---|---|
/// | 2 | `sub`: the token's URI, equal to the Referenced Token's `uri` | required |
/// | 6 | `iat`: when the token was issued | required |
/// | 4 | `exp`: when it expires | recommended |
/// | 65534 | `ttl`: how long it may be cached, in seconds, positive | recommended |
/// | 65533 | `status_list`: the ``StatusList`` | required |
///
/// Times are NumericDate integers, seconds since 1970-01-01T00:00:00Z (RFC 8392 section 2).
/// Other claims are allowed (section 5.2) and kept in their order.
public struct StatusListTokenClaims: Sendable, Hashable {
    /// The claim keys of section 5.2. 65533 and 65534 are the values the draft requests from IANA
    /// (section 14.3) and its examples use.
    public enum Key {
        /// `sub`.
        public static let subject: Int64 = 2
        /// `exp`.
        public static let expiration: Int64 = 4
        /// `iat`.
        public static let issuedAt: Int64 = 6
        /// `status_list`.
        public static let statusList: Int64 = 65533
        /// `ttl`.
        public static let timeToLive: Int64 = 65534
    }

    /// `sub`: the URI of the Status List Token.
    public var subject: String
    /// `iat`, in seconds since the epoch.
    public var issuedAt: Int64
    /// `exp`, in seconds since the epoch, when present.
    public var expiration: Int64?
    /// `ttl`, in seconds, when present; never 0.
    public var timeToLive: UInt64?
    /// `status_list`.
    public var statusList: StatusList
    /// Every other claim, in its order.
    public var otherClaims: CBORMap

    /// Claims from their values.
    public init(subject: String, issuedAt: Int64, expiration: Int64? = nil, timeToLive: UInt64? = nil, statusList: StatusList,
                otherClaims: CBORMap = CBORMap()) {
        self.subject = subject
        self.issuedAt = issuedAt
        self.expiration = expiration
        self.timeToLive = timeToLive
        self.statusList = statusList
        self.otherClaims = otherClaims
    }

    /// Decodes the claims map `cbor` found at `path`.
    ///
    /// Throws `missingClaim` when `sub`, `iat` or `status_list` is absent,
    /// `invalidClaim` when a claim has the wrong type or `ttl` is 0, and the
    /// errors of ``StatusList/init(cbor:at:limit:)``.
    public init(cbor: CBOR, at path: CBORPath) throws(StatusListError) {
        let shared = try StatusTokenClaims(cbor: cbor, at: path)
        let list = try StatusTokenClaims.required(Key.statusList, "status_list", in: shared.map, at: path)
        guard case .map = list else {
            throw StatusListError(.invalidClaim, "\(path.appending(intKey: Key.statusList)): status_list is \(list.kindName), not a map")
        }
        self.subject = shared.subject
        self.issuedAt = shared.issuedAt
        self.expiration = shared.expiration
        self.timeToLive = shared.timeToLive
        self.statusList = try StatusList(cbor: list, at: path.appending(intKey: Key.statusList))
        self.otherClaims = shared.otherClaims(besides: [Key.statusList])
    }

    /// The claims map: `sub`, `iat`, `exp`, `ttl`, `status_list` (those present), then the others.
    public var cbor: CBOR {
        StatusTokenClaims.encode(
            subject: subject, issuedAt: issuedAt, expiration: expiration, timeToLive: timeToLive,
            list: (Key.statusList, statusList.cbor), otherClaims: otherClaims)
    }
}
