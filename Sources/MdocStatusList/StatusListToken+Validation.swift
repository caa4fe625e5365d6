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
        passed(.authenticity, try checkAuthenticity(key))
        guard claims.subject == uri else {
            throw StatusListError(.subjectMismatch, "sub is \"\(UntrustedText.escaped(claims.subject))\", not the status list uri \"\(UntrustedText.escaped(uri))\"")
        }
        passed(.subject, "sub is \(uri)")
        let (latest, overflow) = now.addingReportingOverflow(StatusListLimits.clockSkew)
        guard overflow || claims.issuedAt <= latest else {
            throw StatusListError(.issuedInFuture, "iat \(claims.issuedAt) is \(claims.issuedAt - now) s after the validation time \(now), more than the \(StatusListLimits.clockSkew) s allowed")
        }
        passed(.issuedAt, "iat \(claims.issuedAt) is not after the validation time \(now) (\(StatusListLimits.clockSkew) s allowed)")
        if let expiration = claims.expiration {
            guard now < expiration else {
                throw StatusListError(.expired, "exp \(expiration) has passed at the validation time \(now)")
            }
            passed(.expiration, "exp \(expiration) is after the validation time \(now)")
        } else {
            passed(.expiration, "no exp")
        }
        passed(.statusList, "\(statusList.count) entries of \(statusList.bits) bits, \(statusList.bytes.count) bytes inflated from \(statusList.compressed.count)"
               + (claims.timeToLive.map { "; ttl \($0) s" } ?? "; no ttl"))
        return StatusListTokenValidation(checks: checks, time: time, token: self)
    }

    /// Checks the signature or MAC over the received bytes (RFC 9052 sections 4.4 and 6.3), and
    /// says what verified.
    private func checkAuthenticity(_ key: Key) throws(StatusListError) -> String {
        switch (message, key) {
        case (.sign1(let sign1), .publicKey(let publicKey)):
            guard let algorithm = sign1.algorithm, algorithm.isSignatureAlgorithm else {
                throw StatusListError(.signatureInvalid, "the COSE_Sign1 has no protected signature alg this toolkit supports")
            }
            guard algorithm.isSuitable(for: publicKey.curve) else {
                throw StatusListError(.signatureInvalid, "the token is signed with \(algorithm), which a \(publicKey.curve) key does not make")
            }
            guard sign1.isValidSignature(publicKey: publicKey) else {
                throw StatusListError(.signatureInvalid, "the \(algorithm) signature does not verify with the key given")
            }
            return "the \(algorithm) signature verifies with the key given"
        case (.mac0(let mac0), .symmetric(let symmetricKey)):
            guard mac0.algorithm == .hmac256 else {
                throw StatusListError(.signatureInvalid, "the COSE_Mac0's protected alg is not HMAC 256/256, the one MAC this toolkit supports")
            }
            guard mac0.isValidTag(key: symmetricKey) else {
                throw StatusListError(.signatureInvalid, "the HMAC 256/256 tag does not verify with the key given")
            }
            return "the HMAC 256/256 tag verifies with the key given"
        case (.sign1, .symmetric):
            throw StatusListError(.signatureInvalid, "the token is a COSE_Sign1, which a symmetric key cannot verify")
        case (.mac0, .publicKey):
            throw StatusListError(.signatureInvalid, "the token is a COSE_Mac0, which a public key cannot verify")
        }
    }
}
