import MdocCBOR
import MdocCOSE
import MdocCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StatusListToken {
    /// The key that authenticates a token: a public key for a COSE_Sign1, a symmetric key for a
    /// COSE_Mac0 (draft-ietf-oauth-status-list section 11.6).
    public enum Key: Sendable {
        /// The signer's public key.
        case publicKey(PublicKey)
        /// The key shared with the issuer.
        case symmetric(SymmetricKey)
    }

    /// Validates the token for a Referenced Token whose status list `uri` it should be, at
    /// `time`, with `key` (section 8.3 steps 3 and 4): the signature or MAC, then `sub`, `iat`
    /// and `exp`. The form, `typ` and claims were checked when the token was decoded.
    ///
    /// Throws the first failure: `signatureInvalid`,
    /// `subjectMismatch`, `issuedInFuture` (`iat`
    /// later than `time` by more than ``StatusListLimits/clockSkew``) or
    /// `expired` (`time` at or after `exp`, RFC 8392 section 3.1.4).
    /// `ttl` is reported, not enforced: caching is the caller's (section 8.3 step 4d).
    public func validate(uri: String, at time: Date, key: Key) throws(StatusListError) -> StatusListTokenValidation {
        let now = Int64(time.timeIntervalSince1970.rounded(.down))
        var checks: [StatusListTokenValidation.Check] = []
        func passed(_ kind: StatusListTokenValidation.Check.Kind, _ detail: String) {
            checks.append(.init(kind: kind, detail: detail))
        }
        switch message {
        case .sign1: passed(.form, "a tagged COSE_Sign1 (18)")
        case .mac0: passed(.form, "a tagged COSE_Mac0 (17)")
        }
        passed(.type, "protected typ \(Self.mediaType)")
        passed(.claims, "sub, iat and status_list present, each of its type")
        passed(.authenticity, try StatusTokenEnvelope.authenticate(message, with: key))
        try StatusTokenClaims.checkSubject(claims.subject, is: uri)
        passed(.subject, "sub is \(uri)")
        try StatusTokenClaims.checkIssuedAt(claims.issuedAt, now: now)
        passed(.issuedAt, "iat \(claims.issuedAt) is not after the validation time \(now) (\(StatusListLimits.clockSkew) s allowed)")
        if let expiration = claims.expiration {
            try StatusTokenClaims.checkExpiration(expiration, now: now)
            passed(.expiration, "exp \(expiration) is after the validation time \(now)")
        } else {
            passed(.expiration, "no exp")
        }
        passed(.statusList, "\(statusList.count) entries of \(statusList.bits) bits, \(statusList.bytes.count) bytes inflated from \(statusList.compressed.count)"
               + (claims.timeToLive.map { "; ttl \($0) s" } ?? "; no ttl"))
        return StatusListTokenValidation(checks: checks, time: time, token: self)
    }
}
