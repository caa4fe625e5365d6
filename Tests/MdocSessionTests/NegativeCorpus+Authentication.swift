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

/// mdoc authentication (ISO/IEC 18013-5 9.1.3: DeviceSignature, DeviceMac, KeyAuthorizations)
/// and mdoc reader authentication (9.1.4, Annex B.1.7 and B.1.8).
extension NegativeCorpus {
    /// A COSE_Key on `curve` whose point is not on the curve: a real public key with the last
    /// byte of its y-coordinate changed.
    static func offCurveKey(_ curve: Curve = .p256) throws -> EmbeddedCBOR<COSEKey> {
        let valid = COSEKey(publicKey: try PrivateKey(generating: curve).publicKey)
        var y = valid.y ?? []
        y[y.count - 1] ^= 0x01
        var map = CBORMap()
        for (key, value) in valid.cbor.mapValue?.entries.map({ ($0.key, $0.value) }) ?? [] {
            map.append(key, key == CBOR(COSEKey.Label.y) ? .byteString(y) : value)
        }
        return try EmbeddedCBOR(bytes: CBOR.map(map).encoded())
    }

    static var deviceAuthentication: [NegativeCase] {
        [
            NegativeCase("DeviceSignature by a key other than the MSO deviceKey", .check(.deviceAuthentication, .invalidSignature)) {
                try verified { $0.deviceSigningKey = try PrivateKey(generating: .p256) }
            },
            NegativeCase("DeviceSignature with a shorter payload attached than DeviceAuthenticationBytes", .check(.deviceAuthentication, .payloadMismatch)) {
                try verified { $0.payload = .attachedOther([0xd8, 0x18, 0x40]) }
            },
            NegativeCase("DeviceSignature replayed from another session (transcript binding)", .check(.deviceAuthentication, .invalidSignature)) {
                let mdoc = try TestMdoc(pki: TestPKI())
                let verifier = DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: try TestMdoc.sessionTranscript())
                return Rejection(try verifier.verify(mdoc.responseBytes(), at: TestPKI.referenceTime))
            },
            NegativeCase("Annex D: DeviceMac checked with a wrong key (EDeviceKey for EReaderKey)", .check(.deviceAuthentication, .invalidMAC)) {
                Rejection(try AnnexDVerificationFailureTests.verifier(readerKey: "eDeviceKey")
                    .verify(Vectors.annexD("device_response"), at: AnnexDVerificationFailureTests.time))
            },
            NegativeCase("Annex D: DeviceMac replayed in another session (transcript binding)", .check(.deviceAuthentication, .invalidMAC)) {
                let annexD = try AnnexDVerificationFailureTests.transcript().transcript
                let other = SessionTranscriptBinding(SessionTranscript(
                    deviceEngagementBytes: try EmbeddedCBOR(bytes: Vectors.annexD("device_engagement")),
                    eReaderKeyBytes: EmbeddedCBOR(COSEKey(publicKey: try PrivateKey(generating: .p256).publicKey)),
                    handover: annexD.handover))
                return Rejection(try AnnexDVerificationFailureTests.verifier(transcript: other)
                    .verify(Vectors.annexD("device_response"), at: AnnexDVerificationFailureTests.time))
            },
            NegativeCase("Annex D: DeviceMac with a reader key on another curve (P-384)", .check(.deviceAuthentication, .macKeyDerivationFailed)) {
                let verifier = DeviceResponseVerifier(
                    trustAnchors: [try AnnexDVerificationFailureTests.certificate("iaca_cert")],
                    sessionTranscript: try AnnexDVerificationFailureTests.transcript(),
                    readerKey: try PrivateKey(generating: .p384))
                return Rejection(try verifier.verify(Vectors.annexD("device_response"), at: AnnexDVerificationFailureTests.time))
            },
            NegativeCase("MSO deviceKey whose point is not on P-256", .check(.deviceAuthentication, .unusableDeviceKey)) {
                try verified { $0.msoDeviceKey = try offCurveKey().value }
            },
            NegativeCase("device-signed element without KeyAuthorizations", .check(.keyAuthorization, .notAuthorized)) {
                try verified { $0.deviceNameSpaces = IssuedDocumentVerificationTests.deviceSignedAddress }
            },
            NegativeCase("device-signed element authorised for another name space only", .check(.keyAuthorization, .notAuthorized)) {
                try verified { mdoc in
                    mdoc.deviceNameSpaces = IssuedDocumentVerificationTests.deviceSignedAddress
                    mdoc.keyAuthorizations = KeyAuthorizations(nameSpaces: ["org.iso.18013.5.1.aamva"])
                }
            },
        ]
    }

    // MARK: Reader authentication

    typealias Reader = ReaderAuthenticationVerifierTests.Reader

    /// Verifies the Annex D DocRequest (optionally changed) at 2021-01-01 against the Annex D
    /// reader root and transcript.
    static func annexDReaderAuthentication(_ change: ([UInt8]) throws -> [UInt8] = { $0 }) throws -> Rejection {
        let request = try DeviceRequest(encoded: try change(Vectors.annexD("device_request")))
        let verifier = ReaderAuthenticationVerifier(trustAnchors: [try AnnexDVerificationFailureTests.certificate("reader_root_cert")])
        return Rejection(verifier.verify(
            request.docRequests[0], sessionTranscript: try AnnexDVerificationFailureTests.transcript(),
            at: AnnexDVerificationFailureTests.time))
    }

    static var readerAuthentication: [NegativeCase] {
        [
            NegativeCase("reader certificate without the reader authentication EKU (document signer EKU)",
                         .check(.readerCertificate, .certificate(.extendedKeyUsage))) {
                let reader = try Reader(extendedKeyUsage: CertificateProfile.documentSignerOID)
                return Rejection(reader.verify(try reader.docRequest()))
            },
            NegativeCase("reader certificate with keyAgreement instead of digitalSignature (B.1.7)",
                         .check(.readerCertificate, .certificate(.keyUsage))) {
                let reader = try Reader(keyUsage: "critical,keyAgreement")
                return Rejection(reader.verify(try reader.docRequest()))
            },
            NegativeCase("reader certificate from an untrusted reader root", .check(.readerCertificate, .certificate(.issuerNotTrusted))) {
                let reader = try Reader()
                return Rejection(reader.verify(try reader.docRequest(), trusting: [try Reader().root]))
            },
            NegativeCase("readerAuth without x5chain", .check(.readerCertificate, .missingCertificateChain)) {
                let reader = try Reader()
                return Rejection(reader.verify(try reader.docRequest(x5chain: false)))
            },
            NegativeCase("ReaderAuth over another ItemsRequest", .check(.readerSignature, .invalidSignature)) {
                let reader = try Reader()
                let signed = try reader.docRequest()
                let other = EmbeddedCBOR(ItemsRequest(docType: TestMdoc.docType, nameSpaces: [TestMdoc.nameSpace: ["portrait": false]]))
                return Rejection(reader.verify(DocRequest(itemsRequest: other, readerAuth: signed.readerAuth)))
            },
            NegativeCase("Annex D: ReaderAuth over an ItemsRequest with one IntentToRetain changed", .check(.readerSignature, .invalidSignature)) {
                try annexDReaderAuthentication { bytes in
                    // "family_name": true becomes false inside ItemsRequestBytes.
                    let retained: [UInt8] = [0x6b] + Array("family_name".utf8) + [0xf5]
                    return try bytes.replacingOnly(retained, with: [0x6b] + Array("family_name".utf8) + [0xf4])
                }
            },
            NegativeCase("ReaderAuth signed for another session (transcript binding)", .check(.readerSignature, .invalidSignature)) {
                let reader = try Reader()
                return Rejection(reader.verify(try reader.docRequest(transcript: TestMdoc.sessionTranscript())))
            },
            NegativeCase("ReaderAuth signed by a key other than the reader certificate's", .check(.readerSignature, .invalidSignature)) {
                let reader = try Reader()
                return Rejection(reader.verify(try reader.docRequest(signingKey: PrivateKey(generating: .p256))))
            },
        ]
    }
}
