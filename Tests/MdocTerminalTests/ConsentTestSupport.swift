import MdocModel
import MdocPresentation
import MdocSession

/// Requests shared by the consent tests.
enum ConsentTestSupport {
    static let mDL = "org.iso.18013.5.1.mDL"
    static let nameSpace = "org.iso.18013.5.1"

    static func element(_ identifier: String, retain: Bool = false, available: Bool = true) -> PresentationRequest.Element {
        PresentationRequest.Element(
            nameSpace: nameSpace, identifier: identifier,
            displayName: DataElementCatalogue.displayName(of: identifier, in: nameSpace),
            intentToRetain: retain, isAvailable: available)
    }

    /// An mDL request for family_name, portrait (retained), age_over_18 and a missing element.
    static func request(reader: ReaderIdentity = .trusted(subject: "CN=Reader", anchor: "CN=Reader Root")) -> PresentationRequest {
        PresentationRequest(documents: [
            PresentationRequest.Document(
                docType: mDL,
                elements: [
                    element("family_name"), element("portrait", retain: true), element("age_over_18"),
                    element("signature_usual_mark", available: false),
                ],
                readerAuthentication: reader, isAvailable: true),
        ])
    }

    /// A request for a document the holder does not have, besides the mDL.
    static func requestWithMissingDocument() -> PresentationRequest {
        var request = request()
        request.documents.append(PresentationRequest.Document(
            docType: "eu.europa.ec.eudi.pid.1",
            elements: [PresentationRequest.Element(
                nameSpace: "eu.europa.ec.eudi.pid.1", identifier: "family_name", displayName: "Family name",
                intentToRetain: false, isAvailable: false)],
            readerAuthentication: .anonymous, isAvailable: false))
        return request
    }

    static func selection(_ identifiers: [String]) -> ElementSelection {
        ElementSelection([mDL: [nameSpace: Set(identifiers)]])
    }
}
