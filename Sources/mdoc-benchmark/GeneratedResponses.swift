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

/// DeviceResponses of a chosen size made by the toolkit's own issuance and presentation code:
/// a new IACA and document signer (CertificateBuilder, Annex B profiles), an mDL issued by
/// `DocumentIssuer`, and the holder's `ResponseBuilder` answering a request for every element
/// with a DeviceMac over a QR-engagement SessionTranscript (ISO/IEC 18013-5 9.1.3.5), as a
/// reader receives it.
struct GeneratedResponses {
    /// The verification time: the certificates and MSOs are valid around it.
    let time: Date
    let iaca: Certificate
    let issuer: DocumentIssuer
    private let deviceKey: PrivateKey
    private let eReaderKey: PrivateKey
    private let transcript: SessionTranscriptBinding

    /// A new PKI and session, all on P-256.
    init() throws {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        time = now
        let year: TimeInterval = 365 * 86_400
        func builder(_ profile: CertificateBuilder.Profile, _ name: String) -> CertificateBuilder {
            CertificateBuilder(
                profile: profile, subject: .init(commonName: "mdoc-benchmark \(name)", country: "US"),
                notValidBefore: now.addingTimeInterval(-year), notValidAfter: now.addingTimeInterval(year),
                issuerAlternativeName: .uri("https://benchmark.example"),
                crlDistributionPoint: "https://benchmark.example/crl/iaca.crl")
        }
        let iacaKey = try PrivateKey(generating: .p256)
        iaca = try builder(.iaca, "IACA").selfSigned(key: iacaKey)
        let documentSignerKey = try PrivateKey(generating: .p256)
        let documentSigner = try builder(.documentSigner, "Document Signer")
            .issued(for: documentSignerKey.publicKey, by: iaca, signingKey: iacaKey)
        issuer = DocumentIssuer(documentSignerKey: documentSignerKey, documentSignerChain: [documentSigner])
        deviceKey = try PrivateKey(generating: .p256)
        eReaderKey = try PrivateKey(generating: .p256)
        let eDeviceKey = try PrivateKey(generating: .p256)
        let engagement = DeviceEngagement(security: Security(eDeviceKeyBytes: EmbeddedCBOR(COSEKey(publicKey: eDeviceKey.publicKey))))
        transcript = SessionTranscriptBinding(SessionTranscript(
            deviceEngagementBytes: EmbeddedCBOR(engagement), eReaderKeyBytes: EmbeddedCBOR(COSEKey(publicKey: eReaderKey.publicKey)),
            handover: .qr))
    }

    /// The encoded DeviceResponse disclosing `elementCount` short text elements
    /// (`element_0001`: `"value 0001"`, ...) and, when `portraitByteCount` is positive, a
    /// `portrait` byte string of that many bytes.
    func response(elementCount: Int, portraitByteCount: Int = 0) throws -> [UInt8] {
        var elements: [(identifier: String, value: CBOR)] = (1...max(elementCount, 1)).map { index in
            let number = String(index)
            let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
            return (identifier: "element_\(padded)", value: .textString("value \(padded)"))
        }
        if portraitByteCount > 0 {
            elements.append((identifier: "portrait", value: .byteString((0..<portraitByteCount).map { UInt8(truncatingIfNeeded: $0 &* 131) })))
        }
        let day: TimeInterval = 86_400
        let validity = ValidityInfo(
            signed: TDate(time.addingTimeInterval(-day)), validFrom: TDate(time.addingTimeInterval(-day)),
            validUntil: TDate(time.addingTimeInterval(30 * day)))
        let credential = try issuer.issueCredential(
            docType: DocType.mDL, nameSpaces: [(NameSpace.mDL, elements)], deviceKey: deviceKey, validityInfo: validity)
        var requested = OrderedMap<String, Bool>()
        for element in elements { requested[element.identifier] = false }
        let itemsRequest = ItemsRequest(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: requested])
        let request = DeviceRequest(docRequests: [DocRequest(itemsRequest: EmbeddedCBOR(itemsRequest))])
        let response = try ResponseBuilder().deviceResponse(
            request: request, credentials: [credential], approved: .all(requestedIn: request),
            sessionTranscript: transcript, eReaderKey: eReaderKey.publicKey)
        return response.cbor.encoded()
    }

    /// The input of the encoded response `bytes`, its files written to `folder` (the response,
    /// the IACA, SessionTranscriptBytes and EReaderKey) so that `mdoc-reader verify` or a child
    /// process can read the same input.
    func input(_ bytes: [UInt8], name: String, writingTo folder: String) throws -> VerificationInput {
        try write(bytes, to: folder + "/response.cbor")
        try write(Array(iaca.pemRepresentation.utf8), to: folder + "/iaca.pem")
        try write(transcript.taggedBytes, to: folder + "/session_transcript_bytes.cbor")
        try write(Array(eReaderKey.pemRepresentation.utf8), to: folder + "/eReaderKey.pem")
        let files = VerificationInput.Files(
            response: folder + "/response.cbor", trust: [folder + "/iaca.pem"],
            transcript: folder + "/session_transcript_bytes.cbor", readerKey: folder + "/eReaderKey.pem")
        return VerificationInput(
            name: name, responseBytes: bytes, trustAnchors: [iaca], transcript: transcript, readerKey: eReaderKey,
            time: time, files: files)
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw BenchmarkError("cannot write \(path)")
        }
    }
}
