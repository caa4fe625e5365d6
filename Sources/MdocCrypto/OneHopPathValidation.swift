import COpenSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Establishes, without OpenSSL's path builder, that `X509_verify_cert` would validate a path of
/// one certificate issued directly by a trust anchor (RFC 5280 section 6.1) with no error: the
/// path every ISO/IEC 18013-5 document signer and reader certificate takes (Annex B: IACA ->
/// document signer, reader root -> reader certificate).
///
/// Every rule OpenSSL 3.0 applies to such a path in the X.509 strict mode
/// ``CertificateChainValidator`` sets is applied here to the same OpenSSL structures
/// (``CertificateFields``, ``ExtensionSummary``): the anchor is found by issuer name and is the
/// only anchor of that name; its authority key identifier, signature algorithm and key usage
/// admit it as the issuer; it is a self-signed CA trusted as it stands; neither certificate has
/// an unhandled critical extension or an explicitly parameterised curve; the strict-mode rules on
/// basic constraints, key usage, names, subject alternative names, algorithm consistency and key
/// identifiers hold for both; the anchor's key verifies the leaf's signature; both are valid at
/// the validation time. The answer is only ever "valid", or "not established here": for anything
/// else (an error, a longer chain, an extension the summary does not describe, an algorithm with
/// parameters) the caller runs `X509_verify_cert`, so its failures are reported as OpenSSL
/// reports them.
///
/// The rules are those of OpenSSL 3.0 (`crypto/x509/x509_vfy.c` and `v3_purp.c` of the 3.0
/// series), the OpenSSL the toolkit is built and tested with; with any other version of the
/// library loaded, nothing is established here and every chain goes to `X509_verify_cert`.
struct OneHopPathValidation {
    /// Whether the OpenSSL loaded is of the 3.0 series, whose verifier these rules restate.
    static let restatesLoadedOpenSSL = OPENSSL_version_major() == 3 && OPENSSL_version_minor() == 0

    /// The trust anchors, as the validator holds them.
    let anchors: [Certificate]

    /// The trust anchor that issued `chain`'s leaf when the path from the leaf to it is valid at
    /// `time` by every rule of `X509_verify_cert`; `nil` when that is not established here. The
    /// chain must be the leaf alone or the leaf followed by that anchor.
    func anchor(for chain: [Certificate], at time: Date) -> Certificate? {
        guard Self.restatesLoadedOpenSSL, let leaf = chain.first, chain.count <= 2 else { return nil }
        let candidates = anchors.filter { X509_NAME_cmp($0.fields.subject, leaf.fields.issuer) == 0 }
        guard candidates.count == 1, let anchor = candidates.first else { return nil }
        if chain.count == 2 && chain[1] != anchor { return nil }
        let seconds = time_t(time.timeIntervalSince1970.rounded(.down))
        return Self.holds(leaf: leaf, anchor: anchor, at: seconds) ? anchor : nil
    }

    /// Every rule of `X509_verify_cert` (strict mode, no purpose, no policy or revocation
    /// checking) for the path `leaf` -> `anchor` at `time`.
    private static func holds(leaf: Certificate, anchor: Certificate, at time: time_t) -> Bool {
        let issued = leaf.extensionSummary
        let root = anchor.extensionSummary
        // Both extension caches valid and free of unhandled critical extensions.
        guard issued.isComplete, root.isComplete else { return false }
        // The leaf is not self-issued, so the anchor is looked up as its issuer.
        guard !leaf.isSelfIssued else { return false }
        // The anchor is self-signed as OpenSSL's trust check requires (its own signature is not
        // checked, below).
        guard anchor.intrinsics.namesItselfAsIssuer else { return false }
        // The anchor issued the leaf: identifiers, keyCertSign; the leaf's signature algorithm
        // is one for the anchor's key type, which the signature check below establishes (it
        // verifies nothing else, and the strict rules make the algorithm inside tbsCertificate
        // the same).
        guard keyIdentifiersMatch(issued.authorityKeyIdentifier, issuer: root),
            !root.keyUsageRejects(ExtensionSummary.keyCertSign)
        else { return false }
        // The leaf may be a CA or not, but no other kind (strict); the anchor must be a CA.
        let leafCA = caStatus(leaf), anchorCA = caStatus(anchor)
        guard leafCA == 0 || leafCA == 1, anchorCA == 1 else { return false }
        guard strictRulesHold(for: leaf, isLast: false), strictRulesHold(for: anchor, isLast: true),
            leaf.intrinsics.hasNamedCurve, anchor.intrinsics.hasNamedCurve
        else { return false }
        // Signatures and validity, anchor first as OpenSSL checks them; the anchor's own
        // signature is not checked (no X509_V_FLAG_CHECK_SS_SIGNATURE).
        return isValid(anchor, at: time) && leaf.signatureVerification(with: anchor.publicKey) == true
            && isValid(leaf, at: time)
    }

    /// OpenSSL's `X509_check_akid`, for identifiers without authorityCertIssuer or serial number
    /// (with them, `false`: not established here).
    static func keyIdentifiersMatch(
        _ authority: ExtensionSummary.AuthorityKeyIdentifier?, issuer: ExtensionSummary
    ) -> Bool {
        guard let authority else { return true }
        guard !authority.namesIssuer else { return false }
        guard let keyIdentifier = authority.keyIdentifier, let subjectKeyIdentifier = issuer.subjectKeyIdentifier else {
            return true
        }
        return keyIdentifier == subjectKeyIdentifier
    }

    /// OpenSSL's `check_sig_alg_match`: the algorithm is a signature algorithm for `key`'s type.
    static func signatureAlgorithm(_ algorithm: UnsafePointer<X509_ALGOR>, isFor key: PublicKey) -> Bool {
        var object: OpaquePointer? = nil
        X509_ALGOR_get0(&object, nil, nil, algorithm)
        var keyNID: Int32 = NID_undef
        guard let object, OBJ_find_sigid_algs(OBJ_obj2nid(object), nil, &keyNID) == 1,
            let name = OBJ_nid2sn(keyNID)
        else { return false }
        return EVP_PKEY_is_a(key.key.pointer, name) == 1
    }

    /// OpenSSL's `X509_check_ca`: 0 not a CA, 1 a CA by basic constraints, 3 a version 1 root,
    /// 4 a CA only by key usage. (On this path a self-issued certificate is the anchor, which
    /// ``holds(leaf:anchor:at:)`` has found self-signed, as a version 1 root must be.)
    private static func caStatus(_ certificate: Certificate) -> Int {
        let summary = certificate.extensionSummary
        if summary.keyUsageRejects(ExtensionSummary.keyCertSign) { return 0 }
        if summary.hasBasicConstraints { return summary.isCA ? 1 : 0 }
        if certificate.fields.version == 0 && certificate.isSelfIssued { return 3 }
        return summary.hasKeyUsage ? 4 : 0
    }

    /// The rules `check_extensions` adds in X.509 strict mode for a path of two certificates
    /// (RFC 5280 sections 4.1.1.2, 4.1.2.4, 4.1.2.6, 4.2.1.1 to 4.2.1.3, 4.2.1.6 and 4.2.1.9);
    /// `isLast` for the trust anchor, which needs no authority key identifier.
    private static func strictRulesHold(for certificate: Certificate, isLast: Bool) -> Bool {
        let summary = certificate.extensionSummary
        let fields = certificate.fields
        let keyCertSign = summary.keyUsage & ExtensionSummary.keyCertSign != 0
        if summary.hasPathLength && !(summary.isCA && keyCertSign) { return false }
        if summary.isCA && !summary.basicConstraintsIsCritical { return false }
        if summary.isCA ? !summary.hasKeyUsage : keyCertSign { return false }
        guard X509_NAME_entry_count(fields.issuer) > 0 else { return false }
        if X509_NAME_entry_count(fields.subject) == 0 {
            let needsSubject = summary.isCA || summary.keyUsage & ExtensionSummary.cRLSign != 0
            guard !needsSubject, summary.subjectAlternativeNameCount != nil, summary.subjectAlternativeNameIsCritical
            else { return false }
        }
        if let count = summary.subjectAlternativeNameCount, count <= 0 { return false }
        guard X509_ALGOR_cmp(fields.signatureAlgorithm, fields.tbsSignatureAlgorithm) == 0 else { return false }
        guard fields.version >= 2 else { return fields.extensionCount == 0 }
        if !isLast && summary.authorityKeyIdentifier?.keyIdentifier == nil { return false }
        return !(summary.isCA && summary.subjectKeyIdentifier == nil)
    }

    /// OpenSSL's `check_curve`: an elliptic-curve key must not have been given with explicit
    /// curve parameters.
    static func hasNamedCurve(_ key: PublicKey) -> Bool {
        guard key.curve.isWeierstrass else { return true }
        var explicit: Int32 = 0
        guard EVP_PKEY_get_int_param(key.key.pointer, "decoded-from-explicit", &explicit) == 1 else {
            ERR_clear_error()
            return false
        }
        return explicit == 0
    }

    /// OpenSSL's `ossl_x509_check_cert_time`: notBefore <= `time` < notAfter, both times well
    /// formed (`X509_cmp_time`). Compares the seconds read once when the certificate was parsed;
    /// for a time `X509_cmp_time` would not compare, or a validation time outside the years it
    /// can express, asks it.
    private static func isValid(_ certificate: Certificate, at time: time_t) -> Bool {
        let fields = certificate.fields
        if X509Time.comparableTimes.contains(time), let notBefore = fields.notBeforeSeconds, let notAfter = fields.notAfterSeconds {
            return notBefore <= time && time < notAfter
        }
        var time = time
        return X509_cmp_time(fields.notBefore, &time) < 0 && X509_cmp_time(fields.notAfter, &time) > 0
    }
}
