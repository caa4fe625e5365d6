import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Issuer data authentication (ISO/IEC 18013-5 9.3.1): the MSO, its validity, its digests, and
/// the IssuerAuth signature, on the Annex D response and on documents of a generated PKI.
extension NegativeCorpus {
    static let day: TimeInterval = 86_400

    /// Verifies a ``TestMdoc`` changed by `change`.
    static func verified(_ change: @Sendable (inout TestMdoc) throws -> Void) throws -> Rejection {
        var mdoc = try TestMdoc(pki: TestPKI())
        try change(&mdoc)
        return Rejection(try mdoc.verify())
    }

    /// Verifies the Annex D response after `change`, with the Annex D IACA, transcript and
    /// EReaderKey, at 2021-01-01.
    static func annexD(
        at time: Date = AnnexDVerificationFailureTests.time, _ change: ([UInt8]) throws -> [UInt8] = { $0 }
    ) throws -> Rejection {
        let response = try change(Vectors.annexD("device_response"))
        return Rejection(try AnnexDVerificationFailureTests.verifier().verify(response, at: time))
    }

    static var issuerData: [NegativeCase] {
        [
            NegativeCase("Annex D: tampered element value (family_name \"Doe\" -> \"Foe\")", .check(.valueDigest, .digestMismatch)) {
                try annexD { try $0.replacingOnly([0x63] + Array("Doe".utf8), with: [0x63] + Array("Foe".utf8)) }
            },
            NegativeCase("issued: tampered element value (document_number)", .check(.valueDigest, .digestMismatch)) {
                try verified { mdoc in
                    let original = mdoc.issuerItems[2].item.value
                    var tampered = original
                    tampered.elementValue = "987654321"
                    // The MSO keeps the digest of the original item; the response carries another value.
                    mdoc.digestOverrides[2] = DigestAlgorithm.sha256.hash(mdoc.issuerItems[2].item.cbor.encoded())
                    mdoc.issuerItems[2].item = EmbeddedCBOR(tampered)
                }
            },
            NegativeCase("issued: MSO value digest changed", .check(.valueDigest, .digestMismatch)) {
                try verified { $0.digestOverrides[1] = [UInt8](repeating: 0xA5, count: 32) }
            },
            NegativeCase("element absent from the MSO (digestID 7 not digested)", .check(.valueDigest, .digestIDNotInMSO)) {
                try verified { $0.undigestedItems = [(TestMdoc.nameSpace, TestMdoc.item(digestID: 7, "age_over_18", true))] }
            },
            NegativeCase("element in a name space the MSO has no digests for", .check(.valueDigest, .nameSpaceNotInMSO)) {
                try verified { $0.undigestedItems = [("org.example.other", TestMdoc.item(digestID: 0, "colour", "blue"))] }
            },
            NegativeCase("duplicate digest IDs among returned elements", .check(.valueDigest, .duplicateDigestID)) {
                try verified { $0.issuerItems.append($0.issuerItems[0]) }
            },
            NegativeCase("two elements sharing one digestID, each with its own value", .checks([
                FailedCheck(.valueDigest, .duplicateDigestID),
            ])) {
                try verified { mdoc in
                    mdoc.undigestedItems = [(TestMdoc.nameSpace, TestMdoc.item(digestID: 1, "given_name", "Mallory"))]
                }
            },
            NegativeCase("digest algorithm mismatch: MSO names SHA-384, digests are SHA-256", .check(.digestAlgorithm, .digestAlgorithmMismatch)) {
                try verified { mdoc in
                    mdoc.digestAlgorithm = "SHA-384"
                    mdoc.digestsComputedWith = .sha256
                }
            },
            NegativeCase("digest algorithm mismatch: MSO names SHA-256, digests are SHA-512", .check(.digestAlgorithm, .digestAlgorithmMismatch)) {
                try verified { $0.digestsComputedWith = .sha512 }
            },
            NegativeCase("unsupported digest algorithm SHA-1", .check(.digestAlgorithm, .unsupportedDigestAlgorithm)) {
                try verified { $0.digestAlgorithm = "SHA-1" }
            },
            NegativeCase("random salt of 15 bytes", .check(.valueDigest, .randomTooShort)) {
                try verified { $0.issuerItems[0].item = TestMdoc.item(digestID: 0, "family_name", "Doe", randomByteCount: 15) }
            },
            NegativeCase("MSO docType differs from the document's", .check(.docType, .docTypeMismatch)) {
                try verified { $0.msoDocType = "org.iso.23220.photoid.1" }
            },
            NegativeCase("MSO not yet valid (validFrom one second after the verification time)", .check(.validity, .notYetValid)) {
                try verified { mdoc in
                    mdoc.validityInfo = ValidityInfo(
                        signed: TDate(TestPKI.referenceTime.addingTimeInterval(-day)),
                        validFrom: TDate(TestPKI.referenceTime.addingTimeInterval(1)),
                        validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(365 * day)))
                }
            },
            NegativeCase("MSO expired (validUntil one second before the verification time)", .check(.validity, .expired)) {
                try verified { mdoc in
                    mdoc.validityInfo = ValidityInfo(
                        signed: TDate(TestPKI.referenceTime.addingTimeInterval(-30 * day)),
                        validFrom: TDate(TestPKI.referenceTime.addingTimeInterval(-30 * day)),
                        validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(-1)))
                }
            },
            NegativeCase("MSO signed before the document signer certificate was valid", .check(.validity, .signedOutsideCertificateValidity)) {
                try verified { mdoc in
                    mdoc.validityInfo = ValidityInfo(
                        signed: TDate(TestPKI.notBefore.addingTimeInterval(-day)),
                        validFrom: TDate(TestPKI.referenceTime.addingTimeInterval(-day)),
                        validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(day)))
                }
            },
            NegativeCase("Annex D: IssuerAuth signature with a flipped bit", .check(.issuerSignature, .invalidSignature)) {
                try annexD { bytes in
                    let signature = try DeviceResponse(encoded: bytes).documents?.first?.issuerSigned.issuerAuth.signature ?? []
                    var flipped = signature
                    flipped[flipped.count - 1] ^= 0x01
                    return try bytes.replacingOnly(signature, with: flipped)
                }
            },
            NegativeCase("IssuerAuth signed by a key other than the document signer's", .check(.issuerSignature, .invalidSignature)) {
                try verified { $0.issuerAuthKey = try PrivateKey(generating: .p256) }
            },
            NegativeCase("IssuerAuth payload that is not an MobileSecurityObject", .checks([
                FailedCheck(.structure, .malformedStructure),
            ])) {
                let mdoc = try TestMdoc(pki: TestPKI())
                let document = try mdoc.document()
                var headers = CBORMap()
                headers.append(CBOR(COSEHeaders.Label.x5chain), .byteString(mdoc.pki.documentSigner.derRepresentation))
                var version = CBORMap()
                version.append("version", "1.0")
                // #6.24(bstr .cbor {"version": "1.0"}): embedded CBOR, but no MSO.
                let notAnMSO = CBOR.tagged(24, .byteString(CBOR.map(version).encoded()))
                let issuerAuth = try COSESign1.sign(
                    payload: notAnMSO.encoded(), detached: false, algorithm: .es256, key: mdoc.pki.documentSignerKey,
                    unprotectedHeaders: headers)
                let broken = Document(
                    docType: document.docType,
                    issuerSigned: IssuerSigned(nameSpaces: document.issuerSigned.nameSpaces, issuerAuth: issuerAuth),
                    deviceSigned: document.deviceSigned)
                return Rejection(mdoc.verifier.verify(DeviceResponse(documents: [broken]), at: TestPKI.referenceTime))
            },
            NegativeCase("Annex D: response status 10 with documents (8.3.2.1.2.3)", .check(.structure, .errorStatus)) {
                try annexD { bytes in
                    var changed = bytes
                    changed[changed.count - 1] = 0x0a
                    return changed
                }
            },
        ]
    }
}
