import MdocCBOR
import MdocModel

/// Device-signed elements are authorised (ISO/IEC 18013-5 9.1.2.4): the MSO KeyAuthorizations
/// allow the device key to sign each element the mdoc returned in DeviceSigned, by its whole
/// name space or by the element listed in dataElements.
///
/// It records one ``VerificationCheck/Kind/keyAuthorization`` check per device-signed element
/// and sets ``DocumentVerification/deviceSignedElementsAuthorized``; without it no device-signed
/// element is authenticated.
public struct KeyAuthorizationPolicy: DocumentVerifierPolicy {
    /// The policy.
    public init() {}

    /// Records the checks, when the MSO decodes.
    public func evaluate(_ verification: inout DocumentVerification) {
        guard let decoded = verification.decodedMobileSecurityObject() else { return }
        let mso = decoded.value
        let authorizations = mso.deviceKeyInfo.keyAuthorizations
        var allAuthorized = true
        for (nameSpace, elements) in verification.document.deviceSigned.nameSpaces.value.nameSpaces {
            for (identifier, _) in elements {
                let authorized = authorizations?.nameSpaces?.contains(nameSpace) == true
                    || authorizations?.dataElements?[nameSpace]?.contains(identifier) == true
                verification.record(VerificationCheck(
                    .keyAuthorization, subject: .element(nameSpace: nameSpace, identifier: identifier),
                    outcome: authorized
                        ? .passed
                        : .failed(.notAuthorized, "the MSO KeyAuthorizations do not allow the device key to sign \(nameSpace)/\(identifier)")))
                allAuthorized = allAuthorized && authorized
            }
        }
        verification.deviceSignedElementsAuthorized = allAuthorized
    }
}
