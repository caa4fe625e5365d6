import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Documents issued by ``DocumentIssuer`` for a ``TestPKI``, and sessions to present them in.
package enum IssuanceFixture {
    package static let docType = DocType.mDL
    package static let nameSpace = NameSpace.mDL
    package static let day: TimeInterval = 86_400

    /// Five mDL elements; digest IDs are assigned by the issuer.
    package static let elements: [(identifier: String, value: CBOR)] = [
        ("family_name", "Doe"),
        ("given_name", "Jane"),
        ("birth_date", .tagged(CBOR.Tag.fullDateString, "1990-01-01")),
        ("age_over_18", true),
        ("document_number", "123456789"),
    ]

    /// Signed and valid from 31 days before ``TestPKI/referenceTime``, until 334 days after.
    package static let validityInfo = ValidityInfo(
        signed: TDate(TestPKI.referenceTime.addingTimeInterval(-31 * day)),
        validFrom: TDate(TestPKI.referenceTime.addingTimeInterval(-31 * day)),
        validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(334 * day)))

    /// An issuer with the PKI's P-256 document signer.
    package static func issuer(_ pki: TestPKI, digestAlgorithm: DigestAlgorithm = .sha256) -> DocumentIssuer {
        DocumentIssuer(documentSignerKey: pki.documentSignerKey, documentSignerChain: [pki.documentSigner], digestAlgorithm: digestAlgorithm)
    }

    /// An issuer whose document signer key is on `curve`, certified by the PKI's IACA.
    package static func issuer(_ pki: TestPKI, documentSignerCurve curve: Curve) throws -> DocumentIssuer {
        let key = try PrivateKey(generating: curve)
        let certificate = try TestCertificateBuilder.issue(
            commonName: "\(curve) ds", key: key, issuer: (pki.iaca, pki.iacaKey),
            extensions: [
                ("keyUsage", "critical,digitalSignature"),
                ("extendedKeyUsage", "critical,\(CertificateProfile.documentSignerOID)"),
                ("subjectKeyIdentifier", "hash"),
                ("authorityKeyIdentifier", "keyid:always"),
            ])
        return DocumentIssuer(documentSignerKey: key, documentSignerChain: [certificate])
    }

    /// A credential of ``elements`` with a device key on `deviceCurve`.
    package static func credential(_ pki: TestPKI, deviceCurve: Curve = .p256, issuer: DocumentIssuer? = nil) throws -> Credential {
        try (issuer ?? Self.issuer(pki)).issueCredential(
            docType: docType, nameSpaces: [(nameSpace, elements)], deviceKey: PrivateKey(generating: deviceCurve),
            validityInfo: validityInfo)
    }

    /// A QR-handover session transcript (9.1.5.1) with a fresh EReaderKey on `readerCurve`.
    package static func session(readerCurve: Curve = .p256) throws -> (transcript: SessionTranscriptBinding, eReaderKey: PrivateKey) {
        let eDeviceKey = try PrivateKey(generating: .p256)
        let eReaderKey = try PrivateKey(generating: readerCurve)
        let engagement = DeviceEngagement(security: Security(eDeviceKeyBytes: EmbeddedCBOR(COSEKey(publicKey: eDeviceKey.publicKey))))
        let transcript = SessionTranscript(
            deviceEngagementBytes: EmbeddedCBOR(engagement),
            eReaderKeyBytes: EmbeddedCBOR(COSEKey(publicKey: eReaderKey.publicKey)),
            handover: .qr)
        return (try SessionTranscriptBinding(encoded: transcript.bytes.cbor.encoded()), eReaderKey)
    }

    /// A DeviceRequest with one DocRequest per entry: doc type → name space → identifiers.
    package static func request(_ docRequests: [(docType: String, nameSpaces: [(String, [String])])]) -> DeviceRequest {
        DeviceRequest(docRequests: docRequests.map { docRequest in
            var nameSpaces = OrderedMap<String, OrderedMap<String, Bool>>()
            for (nameSpace, identifiers) in docRequest.nameSpaces {
                nameSpaces[nameSpace] = OrderedMap(identifiers.map { (key: $0, value: false) })
            }
            return DocRequest(itemsRequest: EmbeddedCBOR(ItemsRequest(docType: docRequest.docType, nameSpaces: nameSpaces)))
        })
    }

    /// A response with the credential's issuer-signed data and a DeviceSignature, the way
    /// ``TestMdoc`` assembles one, for checks of the issued data alone.
    package static func signedResponse(_ issuerSigned: IssuerSigned, deviceKey: PrivateKey, transcript: SessionTranscriptBinding) throws -> DeviceResponse {
        let deviceNameSpaces = EmbeddedCBOR(DeviceNameSpaces())
        let signature = try COSESign1.sign(
            payload: transcript.deviceAuthenticationBytes(docType: docType, deviceNameSpacesBytes: deviceNameSpaces),
            detached: true, algorithm: .es256, key: deviceKey)
        return DeviceResponse(documents: [Document(
            docType: docType, issuerSigned: issuerSigned,
            deviceSigned: DeviceSigned(nameSpaces: deviceNameSpaces, deviceAuth: .deviceSignature(signature)))])
    }

    /// The MSO of `issuerSigned`.
    package static func mso(_ issuerSigned: IssuerSigned) throws -> MobileSecurityObject {
        try issuerSigned.mobileSecurityObjectBytes().value
    }
}
