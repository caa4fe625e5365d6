import MdocModel

/// Ready-made mDL requests (ISO/IEC 18013-5 7.2.1, Table 5), by what a reader wants to check.
public enum RequestPreset: String, Sendable, Hashable, CaseIterable {
    /// Only `age_over_18` (7.2.5): the age check of a bar or a shop.
    case ageOver18 = "age-over-18"
    /// What a traffic stop needs: name, portrait, driving privileges, licence number, expiry and
    /// issuing country.
    case driving
    /// Every mDL data element the `DataElementCatalogue` names.
    case full

    /// The document type asked for: the mDL.
    public var docType: String { DocType.mDL }

    /// The name space of the elements: the mDL name space.
    public var nameSpace: String { NameSpace.mDL }

    /// The data element identifiers asked for, in request order.
    public var elementIdentifiers: [String] {
        switch self {
        case .ageOver18:
            return ["age_over_18"]
        case .driving:
            return ["family_name", "given_name", "portrait", "driving_privileges", "document_number", "expiry_date", "issuing_country"]
        case .full:
            return DataElementCatalogue.identifiers(in: NameSpace.mDL)
        }
    }

    /// The request for this preset, every element with the same IntentToRetain.
    public func docRequestSpec(intentToRetain: Bool = false) -> DocRequestSpec {
        var elements = OrderedMap<String, Bool>()
        for identifier in elementIdentifiers {
            elements[identifier] = intentToRetain
        }
        return DocRequestSpec(docType: docType, nameSpaces: [nameSpace: elements])
    }
}
