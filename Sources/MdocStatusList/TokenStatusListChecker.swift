import MdocCrypto
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `RevocationChecker` that reads a document's status from the Status List Token its MSO
/// points to (ISO/IEC 18013-5 second edition `status`, `status_list`; draft-ietf-oauth-status-list
/// section 8.3), from tokens the application fetched beforehand.
///
/// The token must be bound to the document's issuer as strictly as the MSO is: its `x5chain`'s
/// first certificate is the document signer itself, or a certificate the same IACA issued that
/// meets the Annex B document signer profile (draft section 11.3: the Status List Token signed
/// by the Referenced Token's issuer). Its `sub` must be the MSO's `uri`, and it must not have
/// expired at the verification time.
///
/// | the list says | the check |
/// |---|---|
/// | VALID (0) | `RevocationStatus.good` |
/// | INVALID (1), SUSPENDED (2) | `RevocationStatus.revoked` |
/// | another value | `RevocationStatus.unknown`, naming it |
///
/// A document whose MSO names no status list is `RevocationStatus.good` with that said:
/// there is nothing to revoke it by. A list not fetched, one that failed to arrive, and a token
/// that fails any check are `RevocationStatus.unknown` with the reason, never revoked
/// (a network failure is not a revocation): `RevocationPolicy` decides what unknown means.
public struct TokenStatusListChecker: RevocationChecker {
    /// A status list as the application fetched it.
    public enum Fetched: Sendable {
        /// The token's bytes, as received.
        case token([UInt8])
        /// Why it could not be fetched (offline, unreachable, refused by a bound).
        case unavailable(String)
    }

    /// The lists fetched, by `uri`.
    public var fetched: [String: Fetched]

    /// A checker answering from `fetched`.
    public init(fetched: [String: Fetched]) {
        self.fetched = fetched
    }

    public func status(of query: RevocationQuery) -> RevocationStatus {
        guard let reference = query.statusListReference else {
            return .good("the MSO names no status list")
        }
        let uri = reference.uri
        guard let entry = fetched[uri] else {
            return .unknown("status not checked: no status list was fetched from \(uri)")
        }
        let bytes: [UInt8]
        switch entry {
        case .unavailable(let reason):
            return .unknown("status not checked: the status list \(uri) could not be fetched: \(reason)")
        case .token(let token):
            bytes = token
        }
        do throws(StatusListError) {
            let token = try StatusListToken(bytes: bytes)
            let key = try Self.issuerKey(of: token, for: query)
            let validation = try token.validate(uri: uri, at: query.time, key: .publicKey(key))
            let value = try validation.token.statusList.value(at: reference.index)
            let entryText = "entry \(reference.index) of \(uri) (issued \(Self.time(token.claims.issuedAt)))"
            switch value.kind {
            case .valid:
                return .good("\(entryText) is VALID")
            case .invalid:
                return .revoked("\(entryText) is INVALID: the issuer revoked the document")
            case .suspended:
                return .revoked("\(entryText) is SUSPENDED")
            default:
                return .unknown("\(entryText) is \(value), which this reader does not interpret")
            }
        } catch {
            return .unknown("status not checked: the status list \(uri) was rejected: \(error.reason)")
        }
    }

    /// The key that must have signed `token`: the document signer's, or that of a status signer
    /// the document's IACA issued.
    static func issuerKey(of token: StatusListToken, for query: RevocationQuery) throws(StatusListError) -> PublicKey {
        guard let signer = query.certificatePath.first, let iaca = query.certificatePath.last else {
            throw StatusListError(.notBoundToIssuer, "the document has no validated certificate path to bind the token to")
        }
        let chain = token.x5chain
        guard let first = chain.first else {
            throw StatusListError(.notBoundToIssuer, "the token carries no x5chain to bind it to the document's issuer")
        }
        if first == signer.derRepresentation { return signer.publicKey }
        var certificates: [Certificate] = []
        for der in chain {
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw StatusListError(.notBoundToIssuer, "a certificate of the token's x5chain does not parse: \(error.reason)")
            }
        }
        let result = CertificateChainValidator(trustAnchors: [iaca]).validate(
            chain: certificates, profile: .documentSigner, acceptingExtendedKeyUsages: CertificateProfile.documentSigner.knownExtendedKeyUsageOIDs,
            at: query.time)
        guard result.isValid, let leaf = certificates.first else {
            let reasons = result.failures.map(\.description).joined(separator: "; ")
            throw StatusListError(.notBoundToIssuer, "the token's signer is not bound to the document's IACA \"\(iaca.subject)\": \(reasons)")
        }
        return leaf.publicKey
    }

    private static func time(_ seconds: Int64) -> String {
        TDate(Date(timeIntervalSince1970: TimeInterval(seconds))).text
    }
}
