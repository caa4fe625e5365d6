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
        guard case .map(let map) = cbor else {
            throw StatusListError(.invalidClaim, "\(path): the claims are \(cbor.kindName), not a map")
        }
        let subject = try Self.required(Key.subject, "sub", in: map, at: path)
        guard let subjectText = subject.textValue else {
            throw StatusListError(.invalidClaim, "\(path.appending(intKey: Key.subject)): sub is \(subject.kindName), not text")
        }
        self.subject = subjectText
        self.issuedAt = try Self.numericDate(try Self.required(Key.issuedAt, "iat", in: map, at: path), "iat", at: path.appending(intKey: Key.issuedAt))
        self.expiration = try map[int: Key.expiration].map { (item) throws(StatusListError) in
            try Self.numericDate(item, "exp", at: path.appending(intKey: Key.expiration))
        }
        if let ttl = map[int: Key.timeToLive] {
            guard case .unsignedInt(let seconds) = ttl, seconds > 0 else {
                throw StatusListError(.invalidClaim, "\(path.appending(intKey: Key.timeToLive)): ttl must be a positive integer, found \(Self.text(ttl))")
            }
            self.timeToLive = seconds
        } else {
            self.timeToLive = nil
        }
        let list = try Self.required(Key.statusList, "status_list", in: map, at: path)
        guard case .map = list else {
            throw StatusListError(.invalidClaim, "\(path.appending(intKey: Key.statusList)): status_list is \(list.kindName), not a map")
        }
        self.statusList = try StatusList(cbor: list, at: path.appending(intKey: Key.statusList))
        let known: Set<Int64> = [Key.subject, Key.issuedAt, Key.expiration, Key.timeToLive, Key.statusList]
        self.otherClaims = CBORMap(map.entries.filter { entry in
            guard let key = entry.key.int64Value else { return true }
            return !known.contains(key)
        })
    }

    /// The claims map: `sub`, `iat`, `exp`, `ttl`, `status_list` (those present), then the others.
    public var cbor: CBOR {
        var map = CBORMap()
        map.append(CBOR(Key.subject), .textString(subject))
        map.append(CBOR(Key.issuedAt), CBOR(issuedAt))
        if let expiration {
            map.append(CBOR(Key.expiration), CBOR(expiration))
        }
        if let timeToLive {
            map.append(CBOR(Key.timeToLive), .unsignedInt(timeToLive))
        }
        map.append(CBOR(Key.statusList), statusList.cbor)
        for entry in otherClaims.entries {
            map.append(entry.key, entry.value)
        }
        return .map(map)
    }

    private static func required(_ key: Int64, _ name: String, in map: CBORMap, at path: CBORPath) throws(StatusListError) -> CBOR {
        guard let item = map[int: key] else {
            throw StatusListError(.missingClaim, "\(path): the required claim \(name) (\(key)) is missing")
        }
        return item
    }

    /// An integer NumericDate (RFC 8392 section 2); a floating-point one is not accepted.
    private static func numericDate(_ item: CBOR, _ name: String, at path: CBORPath) throws(StatusListError) -> Int64 {
        guard let seconds = item.int64Value else {
            throw StatusListError(.invalidClaim, "\(path): \(name) must be an integer NumericDate, found \(Self.text(item))")
        }
        return seconds
    }

    private static func text(_ item: CBOR) -> String {
        if let value = item.int64Value { return String(value) }
        return item.kindName
    }
}
