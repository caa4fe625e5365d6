import MdocCBOR
import MdocCrypto
import MdocModel

/// The issuing country is consistent (ISO/IEC 18013-5 Annex B): the document signer
/// certificate's countryName is the same as its issuer's, the IACA's (Table B.3), and an
/// `issuing_country` element the document returns (7.2.1, Table 5: the issuing authority's
/// country) names the IACA's country too.
///
/// An application rule, not part of ``StandardDocumentPolicy``: Annex B puts these
/// requirements on issuers, and a reader that wants to hold issuers to them adds the policy.
/// It records one ``VerificationCheck/Kind/issuerCountry`` check on the document signer and one
/// per `issuing_country` element returned, each failing with
/// ``VerificationFailure/Code/countryMismatch``. A failure is one of issuer data
/// authentication: no element of the document is then issuer-authenticated.
public struct IACACountryPolicy: DocumentVerifierPolicy {
    /// The identifier of the issuing country element.
    public static let issuingCountry = "issuing_country"

    /// The name spaces whose `issuing_country` element is checked: by default the mDL's
    /// (`org.iso.18013.5.1`) and the EU PID's (`eu.europa.ec.eudi.pid.1`), which defines it the
    /// same way.
    public var issuingCountryNameSpaces: Set<String>

    /// The policy, checking the `issuing_country` elements of `issuingCountryNameSpaces`.
    public init(issuingCountryNameSpaces: Set<String> = [NameSpace.mDL, NameSpace.eudiPID]) {
        self.issuingCountryNameSpaces = issuingCountryNameSpaces
    }

    /// Records the checks. Without a document signer chain validated to a trust anchor there is
    /// no IACA to compare with, and the check is recorded as not made.
    public func evaluate(_ verification: inout DocumentVerification) {
        guard let signer = verification.documentSigner, let iaca = verification.trustAnchor else {
            verification.record(VerificationCheck(
                .issuerCountry, subject: verification.documentSigner.map(VerificationCheck.Subject.certificate) ?? .x5chain(of: .issuerAuth),
                outcome: .skipped("the document signer chain did not validate to a trust anchor")))
            return
        }
        let iacaCountry = iaca.countryName
        let problem: String?
        switch (signer.countryName, iacaCountry) {
        case (_, nil):
            problem = "the IACA \"\(iaca.subject)\" has no countryName; Annex B requires one"
        case (nil, let iacaCountry?):
            problem = "the document signer has no countryName; Annex B requires its IACA's, \(iacaCountry)"
        case (let signerCountry?, let iacaCountry?):
            problem = signerCountry == iacaCountry
                ? nil : "the document signer's countryName \(signerCountry) is not its IACA's, \(iacaCountry) (\"\(iaca.subject)\")"
        }
        verification.record(
            problem.map { VerificationCheck(.issuerCountry, subject: .certificate(signer), outcome: .failed(.countryMismatch, $0)) }
                ?? VerificationCheck(
                    .issuerCountry, subject: .certificate(signer), outcome: .passed,
                    detail: "countryName \(iacaCountry ?? ""), as the IACA \"\(iaca.subject)\""))
        guard let iacaCountry else { return }
        for (nameSpace, items) in verification.document.issuerSigned.nameSpaces ?? OrderedMap() where issuingCountryNameSpaces.contains(nameSpace) {
            for item in items where item.value.elementIdentifier == Self.issuingCountry {
                let subject = VerificationCheck.Subject.element(nameSpace: nameSpace, identifier: Self.issuingCountry)
                guard case .textString(let country) = item.value.elementValue else {
                    verification.record(VerificationCheck(
                        .issuerCountry, subject: subject, outcome: .failed(.countryMismatch, "issuing_country is not text (7.2.1, Table 5)")))
                    continue
                }
                verification.record(
                    country == iacaCountry
                        ? VerificationCheck(.issuerCountry, subject: subject, outcome: .passed, detail: "\(country), the IACA's countryName")
                        : VerificationCheck(
                            .issuerCountry, subject: subject,
                            outcome: .failed(.countryMismatch, "issuing_country is \"\(country)\", but the IACA's countryName is \(iacaCountry)")))
            }
        }
    }
}
