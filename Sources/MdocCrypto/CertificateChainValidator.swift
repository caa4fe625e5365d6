import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Validates certificate chains against trust anchors and an ISO/IEC 18013-5 Annex B profile at
/// a given time.
///
/// OpenSSL builds and validates the path (RFC 5280 section 6.1: signatures, names, validity,
/// basic constraints, path length, key usage of issuers, critical extensions; X.509 strict mode),
/// reporting every error instead of stopping at the first. A certificate issued directly by a
/// trust anchor, the Annex B path, is first checked by every rule OpenSSL would apply to it
/// without OpenSSL's path builder (`OneHopPathValidation`): when they all hold, the result is
/// the one `X509_verify_cert` gives, at a fraction of its cost; otherwise OpenSSL validates the
/// chain and reports its failures. The Annex B profile of the leaf, any
/// intermediate and the root is then checked on the path built (key usage, extended key usage,
/// basic constraints and path length, key identifiers, signature algorithm). Trust anchors must be self-signed roots
/// (IACA or reader root certificates), as Annex B defines them; a chain that ends at a
/// certificate given as an anchor that is not one fails, and the failure says so.
///
/// ```swift
/// let validator = CertificateChainValidator(trustAnchors: [iaca])
/// let result = validator.validate(chain: x5chain, profile: .documentSigner, at: Date())
/// for failure in result.failures { print(failure) }
/// ```
public struct CertificateChainValidator: Sendable {
    /// The most certificates a path may hold, leaf and trust anchor included. ISO/IEC 18013-5
    /// paths have two (IACA -> document signer, reader root -> reader certificate); four leaves
    /// room for two intermediate CAs and bounds the work an untrusted `x5chain` can cause.
    public static let maximumChainLength = 4

    /// The trust anchors (self-signed root certificates).
    public let trustAnchors: [Certificate]
    private let oneHop: OneHopPathValidation
    private let store: TrustStore

    /// A validator trusting `trustAnchors`.
    public init(trustAnchors: [Certificate]) {
        self.trustAnchors = trustAnchors
        oneHop = OneHopPathValidation(anchors: trustAnchors)
        store = TrustStore(anchors: trustAnchors)
    }

    /// Validates `chain` for `profile` at `time`, the end-entity certificate carrying the
    /// profile's own extended key usage (``CertificateProfile/extendedKeyUsageOID``).
    ///
    /// - Parameters:
    ///   - chain: the certificates as an `x5chain` carries them (RFC 9360 section 2): the
    ///     end-entity certificate first, then its issuers; the root may or may not be included.
    ///   - profile: the Annex B profile the end-entity certificate and the root must meet.
    ///   - time: the validation time (injectable so that expired test vectors can be checked).
    /// - Returns: every failure found, each naming the certificate and the check, and every
    ///   check that passed.
    public func validate(chain: [Certificate], profile: CertificateProfile, at time: Date) -> CertificateValidationResult {
        validate(chain: chain, profile: profile, acceptingExtendedKeyUsages: [profile.extendedKeyUsageOID], at: time)
    }

    /// Validates `chain` for `profile` at `time`, the end-entity certificate carrying at least
    /// one of `purposes` as its extended key usage instead of the profile's own: the mdoc
    /// ecosystems other than the mDL's define their own purposes for the same roles (for
    /// example ``CertificateProfile/eudiPIDDocumentSignerOID``). Every other check is the
    /// profile's. An empty `purposes` accepts no certificate.
    public func validate(
        chain: [Certificate], profile: CertificateProfile, acceptingExtendedKeyUsages purposes: [String], at time: Date
    ) -> CertificateValidationResult {
        var report = CertificateValidationReport()
        guard let leaf = chain.first else {
            report.fail(nil, .emptyChain, "the chain holds no certificate")
            return report.result(path: [])
        }
        guard chain.count <= Self.maximumChainLength else {
            report.fail(
                leaf, .chainTooLong,
                "the chain holds \(chain.count) certificates, more than the maximum \(Self.maximumChainLength)"
            )
            return report.result(path: chain)
        }
        report.reserveCapacity(certificateCount: chain.count + 1)
        let oneHopAnchor = oneHop.anchor(for: chain, at: time)
        // The certificates OpenSSL's path and errors point to, when OpenSSL validates the chain.
        let known = oneHopAnchor == nil ? trustAnchors + chain : []
        let certificate = { (pointer: OpaquePointer?) -> Certificate? in
            guard let pointer else { return nil }
            return known.first { $0.handle?.pointer == pointer }
        }
        let path: [Certificate]
        let errors: [TrustStore.Error]
        if let anchor = oneHopAnchor {
            path = [leaf, anchor]
            errors = []
        } else {
            let outcome = store.verify(
                leaf: leaf, intermediates: chain.dropFirst(), at: time,
                maximumIntermediates: Self.maximumChainLength - 2
            )
            path = outcome.chain.compactMap(certificate)
            errors = outcome.errors
        }
        let anchor = path.last.flatMap { last in trustAnchors.first { $0 == last } }

        let policy = CertificateProfilePolicy(profile: profile, purposes: purposes, time: time)
        let checkedPath = path.isEmpty ? [leaf] : path
        policy.evaluate(path: checkedPath, anchored: anchor != nil, into: &report)

        // A path cut short by the depth limit reaches no anchor; that is not a second finding.
        let tooLong = errors.contains { $0.code == X509_V_ERR_CERT_CHAIN_TOO_LONG }
        for error in errors {
            let failing = certificate(error.certificate) ?? checkedPath.last ?? leaf
            let check = Self.check(for: error.code, certificate: failing)
            if tooLong && check == .issuerNotTrusted { continue }
            if check == .chainTooLong {
                report.fail(leaf, check, "the path needs more than the maximum \(Self.maximumChainLength) certificates")
                continue
            }
            var reason = TrustStore.message(error.code)
            if check == .issuerNotTrusted || check == .signature {
                reason += " (issuer \"\(failing.issuer)\")"
            }
            if check == .issuerNotTrusted {
                reason += anchorHint(for: checkedPath, profile: profile)
            }
            report.fail(failing, check, reason)
        }
        guard let anchor else {
            if !tooLong {
                report.fail(checkedPath.last ?? leaf, .issuerNotTrusted, "the path does not end at a trust anchor" + anchorHint(for: checkedPath, profile: profile))
            }
            return report.result(path: checkedPath)
        }
        if path.count > Self.maximumChainLength {
            report.fail(
                leaf, .chainTooLong,
                "the path holds \(path.count) certificates, more than the maximum \(Self.maximumChainLength)"
            )
        } else {
            report.pass(leaf, .chainTooLong, .pathLength(path.count, maximum: Self.maximumChainLength))
        }
        report.pass(leaf, .issuerNotTrusted, .trustAnchor(anchor))
        for (certificate, issuer) in zip(path, path.dropFirst()) {
            report.pass(certificate, .signature, .signedBy(issuer))
        }
        return report.result(path: checkedPath)
    }

    /// Why `path` reaches no anchor when the anchor given for it is not a self-signed root
    /// (OpenSSL only ends a path at one), else nothing: an anchor on the path, such as a
    /// document signer pinned in place of its IACA, or the issuer of its last certificate.
    private func anchorHint(for path: [Certificate], profile: CertificateProfile) -> String {
        let pinned = trustAnchors.first { anchor in
            (path.contains(anchor) || path.last.map { $0.issuer == anchor.subject } == true) && !anchor.isSelfSigned
        }
        guard let pinned else { return "" }
        return "; the trust anchor \"\(pinned.subject)\" is not a self-signed \(profile.rootName) certificate: trust the \(profile.rootName) that issued it"
    }

    /// The check an OpenSSL `X509_V_ERR_*` code about `certificate` belongs to.
    static func check(for code: Int32, certificate: Certificate) -> CertificateCheck {
        switch code {
        case X509_V_ERR_INVALID_CA:
            // X509_check_ca refuses a CA whose keyUsage lacks keyCertSign as well as a non-CA.
            let usage = certificate.keyUsage
            return usage != nil && usage?.contains(.keyCertSign) == false ? .keyUsage : .basicConstraints
        case X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_CERT_HAS_EXPIRED,
            X509_V_ERR_ERROR_IN_CERT_NOT_BEFORE_FIELD, X509_V_ERR_ERROR_IN_CERT_NOT_AFTER_FIELD:
            return .validity
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE,
            X509_V_ERR_UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY:
            return .signature
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
            X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_CERT_UNTRUSTED, X509_V_ERR_CERT_REJECTED:
            return .issuerNotTrusted
        case X509_V_ERR_KEYUSAGE_NO_CERTSIGN, X509_V_ERR_KEYUSAGE_NO_CRL_SIGN,
            X509_V_ERR_KEYUSAGE_NO_DIGITAL_SIGNATURE, X509_V_ERR_CA_CERT_MISSING_KEY_USAGE,
            X509_V_ERR_PATHLEN_WITHOUT_KU_KEY_CERT_SIGN:
            return .keyUsage
        case X509_V_ERR_INVALID_PURPOSE:
            return .extendedKeyUsage
        case X509_V_ERR_INVALID_NON_CA, X509_V_ERR_CA_BCONS_NOT_CRITICAL,
            X509_V_ERR_PATHLEN_INVALID_FOR_NON_CA:
            return .basicConstraints
        case X509_V_ERR_PATH_LENGTH_EXCEEDED:
            return .pathLength
        case X509_V_ERR_CERT_CHAIN_TOO_LONG:
            return .chainTooLong
        case X509_V_ERR_EE_KEY_TOO_SMALL, X509_V_ERR_CA_KEY_TOO_SMALL, X509_V_ERR_CA_MD_TOO_WEAK,
            X509_V_ERR_SIGNATURE_ALGORITHM_MISMATCH, X509_V_ERR_SIGNATURE_ALGORITHM_INCONSISTENCY,
            X509_V_ERR_EC_KEY_EXPLICIT_PARAMS:
            return .signatureAlgorithm
        case X509_V_ERR_AKID_SKID_MISMATCH, X509_V_ERR_AKID_ISSUER_SERIAL_MISMATCH,
            X509_V_ERR_MISSING_AUTHORITY_KEY_IDENTIFIER, X509_V_ERR_MISSING_SUBJECT_KEY_IDENTIFIER,
            X509_V_ERR_AUTHORITY_KEY_IDENTIFIER_CRITICAL, X509_V_ERR_SUBJECT_KEY_IDENTIFIER_CRITICAL:
            return .keyIdentifiers
        case X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION:
            return .criticalExtension
        default:
            return .pathValidation
        }
    }
}
