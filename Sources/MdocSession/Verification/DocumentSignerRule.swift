import MdocCrypto

/// The extended key usages a document signer certificate may carry to sign one kind of
/// document: what makes a certificate under a trusted IACA the signer of that doc type's MSO
/// (ISO/IEC 18013-5 9.3.3 and Annex B, with the purposes other mdoc ecosystems define for the
/// same role).
///
/// ``DocumentSignerPolicy`` picks a rule by doc type; every other check of the document signer
/// profile (key usage, basic constraints, key identifiers, the IACA's profile) is the same for
/// every rule.
public struct DocumentSignerRule: Sendable, Hashable, CustomStringConvertible {
    /// The rule's name, for example "ISO/IEC 18013-5 mDL".
    public var name: String
    /// The purposes the rule's specifications define, in order of preference.
    public var standardExtendedKeyUsages: [String]
    /// The purposes added for the doc type with ``DocumentSignerPolicy/accept(_:forDocType:)``,
    /// in the order added.
    public var addedExtendedKeyUsages: [String]

    /// A rule named `name` accepting `standardExtendedKeyUsages`, and `addedExtendedKeyUsages`.
    public init(name: String, standardExtendedKeyUsages: [String], addedExtendedKeyUsages: [String] = []) {
        self.name = name
        self.standardExtendedKeyUsages = standardExtendedKeyUsages
        self.addedExtendedKeyUsages = addedExtendedKeyUsages
    }

    /// Every purpose accepted, one being enough: the standard ones, then the added ones.
    public var acceptedExtendedKeyUsages: [String] {
        guard !addedExtendedKeyUsages.isEmpty else { return standardExtendedKeyUsages }
        return standardExtendedKeyUsages + addedExtendedKeyUsages.filter { !standardExtendedKeyUsages.contains($0) }
    }

    /// `the EUDI PID rule (1.3.130.2.0.0.1.2, 1.0.23220.4.1.2, 1.0.18013.5.1.2)`, with the added
    /// purposes after "added:".
    public var description: String {
        let added = addedExtendedKeyUsages.filter { !standardExtendedKeyUsages.contains($0) }
        let purposes = standardExtendedKeyUsages.joined(separator: ", ")
        return "the \(name) rule (\(purposes)\(added.isEmpty ? "" : "; added: \(added.joined(separator: ", "))"))"
    }

    /// The mDL's: the document signer extended key usage of ISO/IEC 18013-5 Annex B (Table B.3),
    /// 1.0.18013.5.1.2, and no other.
    public static let mDL = DocumentSignerRule(
        name: "ISO/IEC 18013-5 mDL", standardExtendedKeyUsages: [CertificateProfile.documentSignerOID])

    /// The EU PID's: id-eudi-iso-pid-kp-DS, 1.3.130.2.0.0.1.2, which the ARF PID Rulebook defines
    /// for PID Providers' document signers; the ISO/IEC TS 23220-4 mdoc document signer,
    /// 1.0.23220.4.1.2; and the ISO/IEC 18013-5 one, which document signers of PID Providers
    /// (the EU reference issuer among them) carry besides or instead.
    public static let eudiPID = DocumentSignerRule(
        name: "EUDI PID",
        standardExtendedKeyUsages: [
            CertificateProfile.eudiPIDDocumentSignerOID, CertificateProfile.mdocDocumentSignerOID,
            CertificateProfile.documentSignerOID,
        ])

    /// The EU proof of age attestation's: the Age Verification Blueprint defines no purpose of
    /// its own and builds on ISO/IEC 18013-5, ISO/IEC TS 23220-4 and the EUDI Wallet, whose
    /// issuers use the PID document signer's (1.3.130.2.0.0.1.2); so the EUDI PID rule's purposes.
    public static let euAgeVerification = DocumentSignerRule(
        name: "EU age verification", standardExtendedKeyUsages: eudiPID.standardExtendedKeyUsages)

    /// Any doc type without a rule of its own: a document signer purpose of any mdoc ecosystem
    /// this toolkit knows (`CertificateProfile.knownExtendedKeyUsageOIDs`). Each of them makes
    /// the certificate a document signer and nothing else; which issuers may sign which doc
    /// types is decided by the IACAs trusted.
    public static let mdoc = DocumentSignerRule(
        name: "generic mdoc", standardExtendedKeyUsages: CertificateProfile.documentSigner.knownExtendedKeyUsageOIDs)
}
