import MdocCBOR

/// The claims a Status List Token (draft-ietf-oauth-status-list section 5.2) and an identifier
/// list token (ISO/IEC 18013-5 second edition 12.3.6.3) share, read from the claims map: `sub`
/// (2), `iat` (6), `exp` (4) and `ttl` (65534). Times are integer NumericDates, seconds since
/// 1970-01-01T00:00:00Z (RFC 8392 section 2).
struct StatusTokenClaims {
    /// The claims map as received.
    let map: CBORMap
    /// `sub`.
    let subject: String
    /// `iat`.
    let issuedAt: Int64
    /// `exp`, when present.
    let expiration: Int64?
    /// `ttl`, when present; never 0.
    let timeToLive: UInt64?

    /// The shared claims of the map `cbor` found at `path`: throws `missingClaim` when `sub` or
    /// `iat` is absent, `invalidClaim` when one of the four has the wrong type or `ttl` is 0.
    init(cbor: CBOR, at path: CBORPath) throws(StatusListError) {
        guard case .map(let map) = cbor else {
            throw StatusListError(.invalidClaim, "\(path): the claims are \(cbor.kindName), not a map")
        }
        typealias Key = StatusListTokenClaims.Key
        let subject = try Self.required(Key.subject, "sub", in: map, at: path)
        guard let subjectText = subject.textValue else {
            throw StatusListError(.invalidClaim, "\(path.appending(intKey: Key.subject)): sub is \(subject.kindName), not text")
        }
        self.map = map
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
    }

    /// The claims other than the four shared ones and `list`, in their order.
    func otherClaims(besides list: Set<Int64>) -> CBORMap {
        typealias Key = StatusListTokenClaims.Key
        let known = list.union([Key.subject, Key.issuedAt, Key.expiration, Key.timeToLive])
        return CBORMap(map.entries.filter { entry in
            guard let key = entry.key.int64Value else { return true }
            return !known.contains(key)
        })
    }

    /// The claims map: `sub`, `iat`, `exp` and `ttl` (those present), the list, then the others.
    static func encode(
        subject: String, issuedAt: Int64, expiration: Int64?, timeToLive: UInt64?, list: (key: Int64, value: CBOR), otherClaims: CBORMap
    ) -> CBOR {
        typealias Key = StatusListTokenClaims.Key
        var map = CBORMap()
        map.append(CBOR(Key.subject), .textString(subject))
        map.append(CBOR(Key.issuedAt), CBOR(issuedAt))
        if let expiration {
            map.append(CBOR(Key.expiration), CBOR(expiration))
        }
        if let timeToLive {
            map.append(CBOR(Key.timeToLive), .unsignedInt(timeToLive))
        }
        map.append(CBOR(list.key), list.value)
        for entry in otherClaims.entries {
            map.append(entry.key, entry.value)
        }
        return .map(map)
    }

    /// Checks that `sub` is `uri`, the Referenced Token's (draft section 8.3 step 4a).
    static func checkSubject(_ subject: String, is uri: String) throws(StatusListError) {
        guard subject == uri else {
            throw StatusListError(.subjectMismatch, "sub is \"\(UntrustedText.escaped(subject))\", not the list's uri \"\(UntrustedText.escaped(uri))\"")
        }
    }

    /// Checks that `iat` is not after `now` by more than ``StatusListLimits/clockSkew`` (draft
    /// section 8.3 step 4b).
    static func checkIssuedAt(_ issuedAt: Int64, now: Int64) throws(StatusListError) {
        let (latest, overflow) = now.addingReportingOverflow(StatusListLimits.clockSkew)
        guard overflow || issuedAt <= latest else {
            throw StatusListError(.issuedInFuture, "iat \(issuedAt) is \(issuedAt - now) s after the validation time \(now), more than the \(StatusListLimits.clockSkew) s allowed")
        }
    }

    /// Checks that `exp` has not passed at `now` (draft section 8.3 step 4c; RFC 8392 section
    /// 3.1.4).
    static func checkExpiration(_ expiration: Int64, now: Int64) throws(StatusListError) {
        guard now < expiration else {
            throw StatusListError(.expired, "exp \(expiration) has passed at the validation time \(now)")
        }
    }

    /// The claim `key` (`name`) of `map`, which must be there.
    static func required(_ key: Int64, _ name: String, in map: CBORMap, at path: CBORPath) throws(StatusListError) -> CBOR {
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
