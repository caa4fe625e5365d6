import MdocCBOR
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One document of a response that passed issuer data authentication and mdoc authentication
/// (ISO/IEC 18013-5 9.3.1), holding only its verified elements, with typed readers for the
/// elements most readers ask for.
///
/// Made only by ``DeviceResponseVerifier``, through ``VerificationReport/verifiedDocuments``:
/// a value of this type is the verifier's word that every element in it is authentic and came
/// from the device the document was issued to. Text in it is the issuer's and is typed
/// `UntrustedString`, escaped when shown.
///
/// The typed readers read the document type's own name space (``standardNameSpace``): the mDL
/// name space for an mDL (7.2.1), the EU PID's and the EU age verification's for theirs. For
/// another document type they return `nil`; ``value(_:in:)`` reads any element.
public struct VerifiedDocument: Sendable {
    /// The document type, as the mdoc sent it.
    public let docType: UntrustedString
    /// Every verified element, issuer signed then device signed, in the order received.
    public let elements: [VerifiedElement]
    /// The MSO validity information.
    public let validity: DocumentReport.Validity?
    /// The subject of the document signer certificate.
    public let documentSigner: UntrustedString?
    /// The subject of the trust anchor (IACA) the document signer's chain ended at.
    public let trustAnchor: UntrustedString?
    /// How the mdoc authenticated.
    public let deviceAuthenticationMethod: DocumentReport.DeviceAuthenticationMethod?

    init(_ report: DocumentReport) {
        docType = UntrustedString(report.docType)
        var elements: [VerifiedElement] = []
        report.elements.forEach { element in
            if element.verified { elements.append(VerifiedElement(element)) }
        }
        self.elements = elements
        validity = report.validity
        documentSigner = report.documentSigner.map(UntrustedString.init)
        trustAnchor = report.trustAnchor.map(UntrustedString.init)
        deviceAuthenticationMethod = report.deviceAuthenticationMethod
    }

    /// The name space the typed readers read: the mDL name space (`org.iso.18013.5.1`) for an
    /// mDL, the EU PID's and the EU age verification's for theirs, `nil` for another type.
    public var standardNameSpace: String? {
        switch docType.value {
        case DocType.mDL: return NameSpace.mDL
        case DocType.eudiPID: return NameSpace.eudiPID
        case DocType.euAgeVerification: return NameSpace.euAgeVerification
        default: return nil
        }
    }

    /// The value of element `identifier` of name space `nameSpace`, when it was returned and
    /// verified.
    public func value(_ identifier: String, in nameSpace: String) -> CBOR? {
        elements.first { $0.identifier.value == identifier && $0.nameSpace.value == nameSpace }?.value
    }

    /// `age_over_NN` for `years` NN (7.2.5): `true` or `false` as the issuer attested, `nil`
    /// when the element was not returned (the holder did not release it, or the issuer has no
    /// statement for NN) or `years` is not 0 to 99.
    public func ageOver(_ years: Int) -> Bool? {
        guard (0...99).contains(years) else { return nil }
        return standard(years < 10 ? "age_over_0\(years)" : "age_over_\(years)")?.boolValue
    }

    /// `family_name`.
    public var familyName: UntrustedString? { text("family_name") }
    /// `given_name`.
    public var givenName: UntrustedString? { text("given_name") }
    /// `birth_date`, a `full-date`.
    public var birthDate: FullDate? { date("birth_date") }
    /// `issue_date` (`issuance_date` in the EU PID), a `full-date`.
    public var issueDate: FullDate? { date("issue_date") ?? date("issuance_date") }
    /// `expiry_date`, a `full-date`.
    public var expiryDate: FullDate? { date("expiry_date") }
    /// `issuing_country`, an ISO 3166-1 alpha-2 code.
    public var issuingCountry: UntrustedString? { text("issuing_country") }
    /// `issuing_authority`.
    public var issuingAuthority: UntrustedString? { text("issuing_authority") }
    /// `document_number`.
    public var documentNumber: UntrustedString? { text("document_number") }
    /// `portrait`: the image bytes (JPEG or JPEG 2000, 7.2.2) as received.
    public var portrait: [UInt8]? { standard("portrait")?.bytesValue }
    /// `driving_privileges` (7.2.4); `nil` when not returned or an entry is malformed.
    public var drivingPrivileges: [DrivingPrivilege]? {
        guard let entries = standard("driving_privileges")?.arrayValue else { return nil }
        var privileges: [DrivingPrivilege] = []
        for entry in entries {
            guard let privilege = DrivingPrivilege(cbor: entry) else { return nil }
            privileges.append(privilege)
        }
        return privileges
    }

    /// An element of ``standardNameSpace``.
    private func standard(_ identifier: String) -> CBOR? {
        standardNameSpace.flatMap { value(identifier, in: $0) }
    }

    private func text(_ identifier: String) -> UntrustedString? {
        standard(identifier)?.textValue.map(UntrustedString.init)
    }

    /// A `full-date` (tag 1004), or the same text untagged as some issuers send it.
    private func date(_ identifier: String) -> FullDate? {
        guard let value = standard(identifier) else { return nil }
        if let text = value.textValue { return FullDate(text) }
        return try? FullDate(cbor: value, at: .root)
    }
}
