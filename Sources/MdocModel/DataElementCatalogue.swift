/// Readable names for data element identifiers, for showing requests and responses to people:
/// the mDL elements of ISO/IEC 18013-5 7.2.1 (Table 5), common elements of the AAMVA name space,
/// and the EUDI PID elements.
///
/// `age_over_NN` (7.2.5) is recognised for every two-digit NN in the mDL and PID name spaces, and
/// in the name space of the EU proof of age attestation, which holds nothing else the catalogue
/// names.
public enum DataElementCatalogue {
    /// The readable name of `identifier` in `nameSpace`, or `nil` when the catalogue does not
    /// know it.
    public static func name(of identifier: String, in nameSpace: String) -> String? {
        let table: [String: String]
        switch nameSpace {
        case NameSpace.mDL: table = mDL
        case NameSpace.aamva: table = aamva
        case NameSpace.eudiPID: table = eudiPID
        case NameSpace.euAgeVerification: table = [:]
        default: return nil
        }
        if let name = table[identifier] { return name }
        if nameSpace != NameSpace.aamva, let age = ageOverThreshold(identifier) {
            return "Age over \(age)"
        }
        return nil
    }

    /// The readable name, or the identifier itself when the catalogue does not know it.
    public static func displayName(of identifier: String, in nameSpace: String) -> String {
        name(of: identifier, in: nameSpace) ?? identifier
    }

    /// The identifiers the catalogue names in `nameSpace` (without the `age_over_NN` pattern),
    /// sorted.
    public static func identifiers(in nameSpace: String) -> [String] {
        switch nameSpace {
        case NameSpace.mDL: return mDL.keys.sorted()
        case NameSpace.aamva: return aamva.keys.sorted()
        case NameSpace.eudiPID: return eudiPID.keys.sorted()
        default: return []
        }
    }

    /// The data elements ISO/IEC 18013-5 7.2.1 Table 5 makes mandatory in an mDL (name space
    /// ``NameSpace/mDL``), in the table's order.
    public static let mandatoryMDLElements = [
        "family_name", "given_name", "birth_date", "issue_date", "expiry_date", "issuing_country", "issuing_authority",
        "document_number", "portrait", "driving_privileges", "un_distinguishing_sign",
    ]

    /// NN of `age_over_NN` when NN is exactly two digits (ISO/IEC 18013-5 7.2.5).
    static func ageOverThreshold(_ identifier: String) -> String? {
        let prefix = "age_over_"
        guard identifier.hasPrefix(prefix) else { return nil }
        let digits = identifier.dropFirst(prefix.count)
        guard digits.count == 2, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
        return String(digits)
    }

    /// ISO/IEC 18013-5 7.2.1, Table 5.
    static let mDL: [String: String] = [
        "family_name": "Family name",
        "given_name": "Given names",
        "birth_date": "Date of birth",
        "issue_date": "Date of issue",
        "expiry_date": "Date of expiry",
        "issuing_country": "Issuing country",
        "issuing_authority": "Issuing authority",
        "document_number": "Licence number",
        "portrait": "Portrait",
        "driving_privileges": "Driving privileges",
        "un_distinguishing_sign": "UN distinguishing sign",
        "administrative_number": "Administrative number",
        "sex": "Sex",
        "height": "Height (cm)",
        "weight": "Weight (kg)",
        "eye_colour": "Eye colour",
        "hair_colour": "Hair colour",
        "birth_place": "Place of birth",
        "resident_address": "Resident address",
        "portrait_capture_date": "Portrait capture date",
        "age_in_years": "Age in years",
        "age_birth_year": "Year of birth",
        "issuing_jurisdiction": "Issuing jurisdiction",
        "nationality": "Nationality",
        "resident_city": "Resident city",
        "resident_state": "Resident state",
        "resident_postal_code": "Resident postal code",
        "resident_country": "Resident country",
        "family_name_national_character": "Family name (national characters)",
        "given_name_national_character": "Given names (national characters)",
        "signature_usual_mark": "Signature / usual mark",
    ]

    /// AAMVA mDL Implementation Guidelines, name space `org.iso.18013.5.1.aamva` (common elements).
    static let aamva: [String: String] = [
        "domestic_driving_privileges": "Domestic driving privileges",
        "name_suffix": "Name suffix",
        "organ_donor": "Organ donor",
        "veteran": "Veteran",
        "family_name_truncation": "Family name truncation",
        "given_name_truncation": "Given name truncation",
        "aka_family_name": "Alias family name",
        "aka_given_name": "Alias given name",
        "aka_suffix": "Alias suffix",
        "weight_range": "Weight range",
        "race_ethnicity": "Race / ethnicity",
        "sex": "Sex",
        "DHS_compliance": "DHS compliance (REAL ID)",
        "DHS_compliance_text": "DHS compliance text",
        "DHS_temporary_lawful_status": "DHS temporary lawful status",
        "EDL_credential": "Enhanced driver licence",
        "resident_county": "Resident county",
        "hazmat_endorsement_expiration_date": "HAZMAT endorsement expiry date",
        "CDL_indicator": "Commercial driver licence",
        "audit_information": "Audit information",
        "aamva_version": "AAMVA version",
    ]

    /// EUDI PID Rulebook, name space `eu.europa.ec.eudi.pid.1`.
    static let eudiPID: [String: String] = [
        "family_name": "Family name",
        "given_name": "Given names",
        "birth_date": "Date of birth",
        "age_in_years": "Age in years",
        "age_birth_year": "Year of birth",
        "family_name_birth": "Family name at birth",
        "given_name_birth": "Given names at birth",
        "birth_place": "Place of birth",
        "birth_country": "Country of birth",
        "birth_state": "State of birth",
        "birth_city": "City of birth",
        "resident_address": "Resident address",
        "resident_country": "Resident country",
        "resident_state": "Resident state",
        "resident_city": "Resident city",
        "resident_postal_code": "Resident postal code",
        "resident_street": "Resident street",
        "resident_house_number": "Resident house number",
        "sex": "Sex",
        "nationality": "Nationality",
        "issuance_date": "Date of issuance",
        "expiry_date": "Date of expiry",
        "issuing_authority": "Issuing authority",
        "issuing_country": "Issuing country",
        "issuing_jurisdiction": "Issuing jurisdiction",
        "document_number": "Document number",
        "administrative_number": "Administrative number",
        "personal_administrative_number": "Personal administrative number",
        "portrait": "Portrait",
        "email_address": "Email address",
        "mobile_phone_number": "Mobile phone number",
    ]
}
