import MdocCrypto
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a document about to be issued will fail verification, one note per reason: the
/// document signer certificate checked as a reader checks it (chain to the IACA under the
/// Annex B profile and the doc type's rule), and the MSO's times checked as a reader checks them
/// (ISO/IEC 18013-5 9.1.2.4, 9.3.1), all at the time of issuance. No note: an ordinary document.
enum TestMaterialNotes {
    static func notes(
        documentSigner: Certificate, iaca: Certificate, rule: DocumentSignerRule, validity: ValidityInfo, at time: Date
    ) -> [String] {
        var notes = CertificateChainValidator(trustAnchors: [iaca]).validate(
            chain: [documentSigner], profile: .documentSigner, acceptingExtendedKeyUsages: rule.acceptedExtendedKeyUsages, at: time
        ).failures.map { "document signer \($0)" }
        let issued = TDate(time).text
        let (signed, from, until) = (validity.signed, validity.validFrom, validity.validUntil)
        if time < from.date {
            notes.append("the MSO is not yet valid: validFrom \(from.text) is after the issuance time \(issued)")
        }
        if time >= until.date {
            notes.append("the MSO has expired: validUntil \(until.text) is not after the issuance time \(issued)")
        }
        if signed.date < documentSigner.notValidBefore || signed.date > documentSigner.notValidAfter {
            notes.append(
                "the MSO was signed at \(signed.text), outside the validity of the document signer "
                    + "(\(TDate(documentSigner.notValidBefore).text) to \(TDate(documentSigner.notValidAfter).text))")
        }
        if signed.date > from.date {
            notes.append("the MSO signed time \(signed.text) is after its validFrom \(from.text) (ISO/IEC 18013-5 9.1.2.4)")
        }
        if from.date >= until.date {
            notes.append("the MSO validUntil \(until.text) is not after its validFrom \(from.text) (ISO/IEC 18013-5 9.1.2.4)")
        }
        return notes
    }
}
