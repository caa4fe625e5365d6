import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `RevocationChecker` that reads a document's status from the list its MSO points to
/// (ISO/IEC 18013-5 second edition, MobileSecurityObject `status`): a Status List Token for a
/// `status_list` (draft-ietf-oauth-status-list section 8.3), an identifier list token for an
/// `identifier_list` (12.3.6), from tokens the application fetched beforehand.
///
/// The token must be bound to the document's issuer as strictly as the MSO is: its `x5chain`'s
/// first certificate is the document signer itself, or its chain validates under the Annex B
/// document signer profile to the certificate the MSO's reference names (`certificate`,
/// 12.3.6.2) or, without one, to the document's IACA (draft section 11.3: the token signed by
/// the Referenced Token's issuer). Its `sub` must be the MSO's `uri`, and it must not have
/// expired at the verification time.
///
/// | the list says | the check |
/// |---|---|
/// | VALID (0) | `RevocationStatus.good` |
/// | INVALID (1) | `RevocationStatus.revoked` |
/// | SUSPENDED (2) | `RevocationStatus.suspended` |
/// | another value | `RevocationStatus.unknown`, naming it |
/// | the identifier list holds the document's `id` | `RevocationStatus.revoked` |
/// | the identifier list does not hold it | `RevocationStatus.good` |
///
/// A `status_list` is read when the MSO names both. A document whose MSO names no `status` is
/// `RevocationStatus.good` with that said: there is nothing to revoke it by; one whose `status`
/// names neither mechanism is `RevocationStatus.unknown`. A list not fetched, one that failed to
/// arrive, and a token that fails any check are `RevocationStatus.unknown` with the reason,
/// never revoked (a network failure is not a revocation): `RevocationPolicy` decides what
/// unknown means.
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
        if let reference = query.statusListReference {
            return status(of: query, in: reference)
        }
        if let reference = query.identifierListReference {
            return status(of: query, in: reference)
        }
        guard let status = query.status else {
            return .good("the MSO names no status")
        }
        let mechanisms = (status.mapValue?.entries ?? []).map { UntrustedText.escaped($0.key.textValue ?? $0.key.kindName) }.joined(separator: ", ")
        return .unknown("status not checked: the MSO's status names no status_list or identifier_list this reader reads (\(mechanisms))")
    }

    /// The entry of the Status List Token `reference` names.
    private func status(of query: RevocationQuery, in reference: RevocationQuery.StatusListReference) -> RevocationStatus {
        let uri = reference.uri
        let bytes: [UInt8]
        switch token(uri, kind: "status list") {
        case .success(let token): bytes = token
        case .failure(let notHad): return notHad.status
        }
        do throws(StatusListError) {
            let token = try StatusListToken(bytes: bytes)
            let key = try Self.issuerKey(x5chain: token.x5chain, trustPoint: reference.certificate, for: query)
            let validation = try token.validate(uri: uri, at: query.time, key: .publicKey(key))
            let value = try validation.token.statusList.value(at: reference.index)
            let entryText = "entry \(reference.index) of \(uri) (issued \(Self.time(token.claims.issuedAt)))"
            switch value.kind {
            case .valid:
                return .good("\(entryText) is VALID")
            case .invalid:
                return .revoked("\(entryText) is INVALID: the issuer revoked the document")
            case .suspended:
                return .suspended("\(entryText) is SUSPENDED")
            default:
                return .unknown("\(entryText) is \(value), which this reader does not interpret")
            }
        } catch {
            return .unknown("status not checked: the status list \(uri) was rejected: \(error.reason)")
        }
    }

    /// Whether the identifier list token `reference` names holds the document's identifier.
    private func status(of query: RevocationQuery, in reference: RevocationQuery.IdentifierListReference) -> RevocationStatus {
        let uri = reference.uri
        let bytes: [UInt8]
        switch token(uri, kind: "identifier list") {
        case .success(let token): bytes = token
        case .failure(let notHad): return notHad.status
        }
        do throws(StatusListError) {
            let token = try IdentifierListToken(bytes: bytes)
            let key = try Self.issuerKey(x5chain: token.x5chain, trustPoint: reference.certificate, for: query)
            try token.validate(uri: uri, at: query.time, key: .publicKey(key))
            let listText = "the identifier list \(uri) (issued \(Self.time(token.claims.issuedAt)), \(token.identifierList.identifiers.count) identifiers)"
            let identifier = Hex.encode(reference.identifier)
            return token.identifierList.contains(reference.identifier)
                ? .revoked("\(listText) holds the document's identifier \(identifier): the issuer revoked the document")
                : .good("\(listText) does not hold the document's identifier \(identifier)")
        } catch {
            return .unknown("status not checked: the identifier list \(uri) was rejected: \(error.reason)")
        }
    }

    /// A list that was not had: the unknown status to answer with.
    private struct NotHad: Error {
        let status: RevocationStatus
    }

    /// The bytes fetched from `uri`, or the unknown status of a list not had.
    private func token(_ uri: String, kind: String) -> Result<[UInt8], NotHad> {
        switch fetched[uri] {
        case nil:
            return .failure(NotHad(status: .unknown("status not checked: no \(kind) was fetched from \(uri)")))
        case .unavailable(let reason)?:
            return .failure(NotHad(status: .unknown("status not checked: the \(kind) \(uri) could not be fetched: \(reason)")))
        case .token(let token)?:
            return .success(token)
        }
    }

    /// The key that must have signed a token with `x5chain`: the document signer's, or that of
    /// a signer whose chain validates to `trustPoint` (the certificate the MSO names) or, without
    /// one, to the document's IACA.
    static func issuerKey(x5chain chain: [[UInt8]], trustPoint: [UInt8]?, for query: RevocationQuery) throws(StatusListError) -> PublicKey {
        guard let signer = query.certificatePath.first, let iaca = query.certificatePath.last else {
            throw StatusListError(.notBoundToIssuer, "the document has no validated certificate path to bind the token to")
        }
        guard let first = chain.first else {
            throw StatusListError(.notBoundToIssuer, "the token carries no x5chain to bind it to the document's issuer")
        }
        if first == signer.derRepresentation { return signer.publicKey }
        let anchor: Certificate
        if let trustPoint {
            do {
                anchor = try Certificate(derEncoded: trustPoint)
            } catch {
                throw StatusListError(.notBoundToIssuer, "the certificate the MSO names for the list's signer does not parse: \(error.reason)")
            }
        } else {
            anchor = iaca
        }
        var certificates: [Certificate] = []
        for der in chain {
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw StatusListError(.notBoundToIssuer, "a certificate of the token's x5chain does not parse: \(error.reason)")
            }
        }
        let result = CertificateChainValidator(trustAnchors: [anchor]).validate(
            chain: certificates, profile: .documentSigner, acceptingExtendedKeyUsages: CertificateProfile.documentSigner.knownExtendedKeyUsageOIDs,
            at: query.time)
        guard result.isValid, let leaf = certificates.first else {
            let reasons = result.failures.map(\.description).joined(separator: "; ")
            let named = trustPoint == nil ? "the document's IACA" : "the certificate the MSO names"
            throw StatusListError(.notBoundToIssuer, "the token's signer is not bound to \(named) \"\(anchor.subject)\": \(reasons)")
        }
        return leaf.publicKey
    }

    private static func time(_ seconds: Int64) -> String {
        TDate(Date(timeIntervalSince1970: TimeInterval(seconds))).text
    }
}
