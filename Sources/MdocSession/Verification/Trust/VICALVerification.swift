import MdocCrypto
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What ``VICALVerifier`` found in a signed VICAL (ISO/IEC 18013-5 Annex C.1.7): the list as a
/// whole (its version, date, signer and signature), whether it is stale, and each entry with the
/// problems that keep it from anchoring anything.
///
/// A failure of the list as a whole makes every entry untrusted (``trustedEntries`` is empty); an
/// entry's problem sets only that entry aside.
public struct VICALVerification: Sendable {
    /// A check of the list as a whole.
    public enum Check: String, Sendable, Hashable, CustomStringConvertible {
        /// `version` is one this toolkit reads (major version 1).
        case version
        /// `date` is not after the verification time.
        case date
        /// The `x5chain` holds the VICAL signer certificate, and every certificate parses.
        case signerCertificate
        /// The signer is pinned, or its chain validates to a VICAL anchor under the VICAL signer
        /// profile (`CertificateProfile.vicalSigner`).
        case signerChain
        /// The COSE_Sign1 signature verifies with the signer's key.
        case signature

        public var description: String { rawValue }
    }

    /// A check of one entry.
    public enum EntryCheck: String, Sendable, Hashable, CustomStringConvertible {
        /// `certificate` is a DER certificate.
        case certificate
        /// `serialNumber` is the certificate's.
        case serialNumber
        /// `ski` is the certificate's subject key identifier (or, without one, the identifier
        /// of its public key, RFC 5280 section 4.2.1.2 method 1).
        case ski
        /// `issuer`, when present, is the certificate's issuer Name.
        case issuer
        /// `subject`, when present, is the certificate's subject Name.
        case subject
        /// `notBefore` and `notAfter`, when present, are the certificate's.
        case validityFields
        /// The certificate is a self-signed IACA of the Annex B profile.
        case iacaProfile
        /// The certificate is valid at the verification time.
        case validity

        public var description: String { rawValue }
    }

    /// A failed check of the list, and why.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// The check.
        public let check: Check
        /// What was wrong, in words.
        public let reason: String

        public var description: String { "\(check): \(reason)" }
    }

    /// A failed check of an entry, and why.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The check.
        public let check: EntryCheck
        /// What was wrong, in words.
        public let reason: String

        public var description: String { "\(check): \(reason)" }
    }

    /// One entry of the list.
    public struct Entry: Sendable {
        /// Its position in `certificateInfos`.
        public let index: Int
        /// The entry as listed.
        public let info: VICAL.CertificateInfo
        /// Its certificate, when it parses.
        public let certificate: Certificate?
        /// What keeps it from anchoring anything; empty for a usable entry.
        public let problems: [Problem]

        /// Whether the entry may anchor its document types (when the list verified).
        public var isUsable: Bool { certificate != nil && problems.isEmpty }
        /// The document types it may anchor.
        public var docTypes: [String] { info.docType }
    }

    /// The list.
    public let vical: VICAL
    /// The time it was verified at.
    public let time: Date
    /// The VICAL signer certificate, when the `x5chain` holds one that parses.
    public let signer: Certificate?
    /// Whether the signer certificate is itself one of the verifier's anchors (pinned), rather
    /// than validated to one.
    public let signerIsPinned: Bool
    /// The validation of the signer's chain, when it was validated to an anchor.
    public let signerChain: CertificateValidationResult?
    /// The failed checks of the list as a whole; empty when it verified.
    public let failures: [Failure]
    /// Every entry, in list order.
    public let entries: [Entry]

    /// Whether the list verified: signature, signer, version and date.
    public var isVerified: Bool { failures.isEmpty }
    /// Whether the verification time is at or past `nextUpdate`: the provider has (or should
    /// have) issued a newer list. Whether a stale list is used is the caller's policy.
    public var isStale: Bool { vical.nextUpdate.map { time >= $0.date } ?? false }
    /// The entries a reader may trust for their document types: the usable ones of a verified
    /// list, none otherwise.
    public var trustedEntries: [Entry] { isVerified ? entries.filter(\.isUsable) : [] }
    /// The IACAs of ``trustedEntries``, each with the document types it may anchor (the union,
    /// when the list names it twice): the trust anchors of a ``DeviceResponseVerifier`` and the
    /// scopes of its ``TrustScopePolicy``.
    public var trustScopes: [Certificate: Set<String>] {
        var scopes: [Certificate: Set<String>] = [:]
        for entry in trustedEntries {
            guard let certificate = entry.certificate else { continue }
            scopes[certificate, default: []].formUnion(entry.docTypes)
        }
        return scopes
    }
}
