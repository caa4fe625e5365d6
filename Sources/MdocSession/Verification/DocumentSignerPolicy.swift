import MdocCrypto
import MdocModel

/// The issuer profile per doc type (ISO/IEC 18013-5 9.3.1 step 1, 9.3.3, Annex B): which
/// ``DocumentSignerRule`` applies to which doc type, and the extended key usages a verifier
/// accepts besides. As a ``DocumentVerifierPolicy`` it validates each document's signer chain to
/// the verifier's trust anchors under the rule of the document's doc type.
///
/// ISO/IEC 18013-5 gives the mDL's document signer the extended key usage 1.0.18013.5.1.2
/// (Annex B, Table B.3); other doc types belong to ecosystems that define their own purposes for
/// the same role. The standard policy applies:
///
/// | doc type | rule |
/// |---|---|
/// | `org.iso.18013.5.1.mDL` | ``DocumentSignerRule/mDL``: 1.0.18013.5.1.2 only |
/// | `eu.europa.ec.eudi.pid.1` | ``DocumentSignerRule/eudiPID``: 1.3.130.2.0.0.1.2, 1.0.23220.4.1.2 or 1.0.18013.5.1.2 |
/// | `eu.europa.ec.av.1` | ``DocumentSignerRule/euAgeVerification``: the same three |
/// | any other | ``DocumentSignerRule/mdoc``: 1.0.18013.5.1.2, 1.0.23220.4.1.2 or 1.3.130.2.0.0.1.2 |
///
/// ``accept(_:forDocType:)`` adds purposes for one doc type, for issuers whose document signers
/// carry a purpose of their own; ``setRule(_:forDocType:)`` replaces a doc type's rule, for an
/// ecosystem that requires other purposes than the standard ones; ``scope(_:to:)`` limits a
/// trust anchor to the doc types a VICAL lists it for.
///
/// ```swift
/// var policy = DocumentSignerPolicy.standard
/// try policy.accept("1.2.3.4", forDocType: "org.example.membership.1")
/// let verifier = DeviceResponseVerifier(trustAnchors: [iaca], documentSignerPolicy: policy)
/// ```
public struct DocumentSignerPolicy: DocumentVerifierPolicy, Hashable {
    /// The rules of the doc types that have one; every other doc type follows
    /// ``DocumentSignerRule/mdoc``.
    public static let standardRules: [String: DocumentSignerRule] = [
        DocType.mDL: .mDL, DocType.eudiPID: .eudiPID, DocType.euAgeVerification: .euAgeVerification,
    ]

    /// The standard rules with nothing added.
    public static let standard = DocumentSignerPolicy()

    /// The rule of each doc type that has one: ``standardRules`` with those set by
    /// ``setRule(_:forDocType:)``.
    public private(set) var rules = DocumentSignerPolicy.standardRules
    /// The purposes added, per doc type, in the order added.
    public private(set) var addedExtendedKeyUsages: [String: [String]] = [:]
    /// The document types each scoped trust anchor may anchor (``scope(_:to:)``); an anchor not
    /// listed anchors any.
    public private(set) var trustScopes: [Certificate: Set<String>] = [:]

    /// The standard rules with nothing added.
    public init() {}

    /// Accepts `purpose`, a dotted OID, as the extended key usage of document signers of
    /// `docType`, besides those of its rule.
    ///
    /// Throws `CryptoError.Code.invalidParameter` when `purpose` is not a dotted OID
    /// (`ObjectIdentifierSyntax`) or `docType` is empty or holds a control character.
    public mutating func accept(_ purpose: String, forDocType docType: String) throws(CryptoError) {
        try Self.check(docType: docType)
        if let problem = ObjectIdentifierSyntax.problem(in: purpose) {
            throw CryptoError(.invalidParameter, "document signer policy: the purpose is not a dotted OID: \(problem)")
        }
        var added = addedExtendedKeyUsages[docType] ?? []
        if !added.contains(purpose) {
            added.append(purpose)
        }
        addedExtendedKeyUsages[docType] = added
    }

    /// Makes `rule` the rule of `docType`, in place of its standard rule or
    /// ``DocumentSignerRule/mdoc``; purposes accepted for the doc type stay accepted besides.
    ///
    /// Throws `CryptoError.Code.invalidParameter` when `docType` is empty or holds a control
    /// character, or a purpose of `rule` is not a dotted OID (`ObjectIdentifierSyntax`).
    public mutating func setRule(_ rule: DocumentSignerRule, forDocType docType: String) throws(CryptoError) {
        try Self.check(docType: docType)
        for purpose in rule.acceptedExtendedKeyUsages {
            if let problem = ObjectIdentifierSyntax.problem(in: purpose) {
                throw CryptoError(.invalidParameter, "document signer policy: the rule \(rule.name) has a purpose that is not a dotted OID: \(problem)")
            }
        }
        rules[docType] = rule
    }

    /// Lets `anchor` anchor documents of `docTypes` only, as the VICAL that lists it says
    /// (ISO/IEC 18013-5 Annex C.1.7); a second call for the same anchor adds its doc types.
    /// Every document whose chain ends at a scoped anchor then gets the check of
    /// ``TrustScopePolicy``.
    public mutating func scope(_ anchor: Certificate, to docTypes: Set<String>) {
        trustScopes[anchor, default: []].formUnion(docTypes)
    }

    /// The rule for documents of `docType`, with the purposes added for it.
    public func rule(for docType: String) -> DocumentSignerRule {
        var rule = rules[docType] ?? .mdoc
        rule.addedExtendedKeyUsages += (addedExtendedKeyUsages[docType] ?? []).filter { !rule.addedExtendedKeyUsages.contains($0) }
        return rule
    }

    /// Validates the document signer chain under the rule of the document's doc type: the
    /// ``VerificationCheck/Kind/issuerCertificate`` checks. (The MSO's doc type must equal the
    /// document's, ``DocTypePolicy``, so the rule is the signed doc type's whenever it matters.)
    public func evaluate(_ verification: inout DocumentVerification) {
        verification.validateDocumentSignerChain(under: rule(for: verification.document.docType))
        if !trustScopes.isEmpty {
            TrustScopePolicy(scopes: trustScopes).evaluate(&verification)
        }
    }

    private static func check(docType: String) throws(CryptoError) {
        guard !docType.isEmpty, !docType.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw CryptoError(.invalidParameter, "document signer policy: the doc type must be non-empty text without control characters")
        }
    }
}
