import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocPresentation
import MdocSession
import MdocTestSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A reader root and a reader authentication certificate it issued, with the Annex B reader
/// profile extensions (ISO/IEC 18013-5 Annex B.1.7, B.1.8).
struct TestReaderPKI: Sendable {
    let root: Certificate
    let certificate: Certificate
    let key: PrivateKey

    init(name: String = "fsm reader") throws {
        let rootKey = try PrivateKey(generating: .p256)
        key = try PrivateKey(generating: .p256)
        root = try TestCertificateBuilder.issue(
            commonName: "\(name) root", key: rootKey, issuer: nil,
            extensions: [
                ("basicConstraints", "critical,CA:TRUE,pathlen:0"),
                ("keyUsage", "critical,keyCertSign,cRLSign"),
                ("subjectKeyIdentifier", "hash"),
            ])
        certificate = try TestCertificateBuilder.issue(
            commonName: name, key: key, issuer: (root, rootKey),
            extensions: [
                ("keyUsage", "critical,digitalSignature"),
                ("extendedKeyUsage", "critical,\(CertificateProfile.readerAuthenticationOID)"),
                ("subjectKeyIdentifier", "hash"),
                ("authorityKeyIdentifier", "keyid:always"),
            ])
    }

    /// The `readerAuthentication` argument of ``ReaderSession``.
    var signer: (key: PrivateKey, chain: [Certificate]) { (key, [certificate]) }
}

/// Credentials issued by a ``TestPKI`` with ``DocumentIssuer``, valid around
/// ``TestPKI/referenceTime``.
enum TestCredentials {
    /// A value that appears nowhere else, so a test can look for its bytes.
    static let secretBirthPlace = "Secret-Birthplace-7431"
    static let portrait: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("portrait-bytes-for-tests".utf8)

    static var validityInfo: ValidityInfo {
        let day: TimeInterval = 86_400
        return ValidityInfo(
            signed: TDate(TestPKI.referenceTime.addingTimeInterval(-31 * day)),
            validFrom: TDate(TestPKI.referenceTime.addingTimeInterval(-31 * day)),
            validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(334 * day)))
    }

    /// An mDL with family_name, given_name, document_number, age_over_18, birth_place and portrait.
    static func mDL(pki: TestPKI, deviceKey: PrivateKey? = nil) throws -> Credential {
        try DocumentIssuer(documentSignerKey: pki.documentSignerKey, documentSignerChain: [pki.documentSigner]).issueCredential(
            docType: DocType.mDL,
            nameSpaces: [(NameSpace.mDL, [
                ("family_name", "Doe"),
                ("given_name", "Jane"),
                ("document_number", "123456789"),
                ("age_over_18", .boolean(true)),
                ("birth_place", .textString(secretBirthPlace)),
                ("portrait", .byteString(portrait)),
            ])],
            deviceKey: deviceKey ?? PrivateKey(generating: .p256), validityInfo: validityInfo)
    }

    /// An EU PID with family_name and age_over_18.
    static func pid(pki: TestPKI) throws -> Credential {
        try DocumentIssuer(documentSignerKey: pki.documentSignerKey, documentSignerChain: [pki.documentSigner]).issueCredential(
            docType: DocType.eudiPID,
            nameSpaces: [(NameSpace.eudiPID, [("family_name", "Doe"), ("age_over_18", .boolean(true))])],
            deviceKey: PrivateKey(generating: .p256), validityInfo: validityInfo)
    }
}

/// A holder and a reader wired directly in memory: bytes one side sends are passed to the other,
/// and every byte string each side sent is recorded. Each request is shown to the holder as the
/// presentation drivers show it by default: reader authentication against the holder's reader
/// roots (``ReaderRootTrust``), DocRequests of one docType merged
/// (``PresentationRequest/init(merging:identities:credentials:)``).
struct SessionPair {
    var holder: HolderSession
    var reader: ReaderSession
    /// The holder's credentials, which the request shown says it holds or not.
    let credentials: [Credential]
    /// The holder's trust in readers.
    let holderTrust: ReaderRootTrust
    /// The reader's ephemeral key, so a test can decrypt what the holder sent.
    let eReaderKey: PrivateKey
    /// Every message the holder produced, in order.
    var holderSent: [[UInt8]] = []
    /// Every message the reader produced, in order.
    var readerSent: [[UInt8]] = []

    init(
        credentials: [Credential],
        request: [DocRequestSpec],
        readerPKI: TestReaderPKI? = nil,
        holderTrusts readerAnchors: [Certificate] = [],
        issuerAnchors: [Certificate],
        responseBuilder: ResponseBuilder = ResponseBuilder(),
        eDeviceKey: PrivateKey? = nil
    ) throws {
        holder = try HolderSession(
            credentials: credentials, eDeviceKey: eDeviceKey,
            bleOptions: .offering(peripheralServerMode: true, centralClientMode: true), responseBuilder: responseBuilder)
        self.credentials = credentials
        holderTrust = ReaderRootTrust(trustAnchors: readerAnchors, now: { TestPKI.referenceTime })
        // The reader scans the QR code: only the URI text crosses over.
        let uri = try MdocURI(holder.mdocURI.description)
        eReaderKey = try PrivateKey(generating: .p256)
        reader = try ReaderSession(
            uri: uri, request: request, readerAuthentication: readerPKI?.signer,
            trustAnchors: issuerAnchors, eReaderKey: eReaderKey, now: { TestPKI.referenceTime })
    }

    /// Starts the reader and hands SessionEstablishment to the holder.
    mutating func start() throws -> HolderAction {
        guard case .send(let establishment) = try reader.start() else {
            throw TestDataError("start() did not send SessionEstablishment")
        }
        readerSent.append(establishment)
        return holder.receive(establishment)
    }

    /// Hands `message` from the reader to the holder, recording it.
    mutating func toHolder(_ message: [UInt8]) -> HolderAction {
        readerSent.append(message)
        return holder.receive(message)
    }

    /// Hands `message` from the holder to the reader, recording it.
    mutating func toReader(_ message: [UInt8]) -> ReaderAction {
        holderSent.append(message)
        return reader.receive(message)
    }

    /// The request `action` hands over, as the holder is shown it; throws for any other action.
    func question(_ action: HolderAction) throws -> PresentationRequest {
        guard case .requestReceived(let request) = action else {
            throw TestDataError("expected a request for the holder to decide on, got \(action)")
        }
        let identities = request.deviceRequest.docRequests.map { holderTrust.identity(of: $0, in: request) }
        return PresentationRequest(merging: request, identities: identities, credentials: credentials)
    }

    /// Starts and returns the request the holder is asked about.
    mutating func ask() throws -> PresentationRequest {
        let action = try start()
        return try question(action)
    }

    /// Starts, expects a request, answers it with `decide(request)`, and passes the response to
    /// the reader.
    mutating func exchange(
        _ decide: (PresentationRequest) -> ElementSelection
    ) throws -> (request: PresentationRequest, report: VerificationReport, response: DeviceResponse) {
        let action = try start()
        return try answer(action, decide)
    }

    /// Answers the request `action` hands over with `decide(request)` and passes the response to
    /// the reader.
    mutating func answer(
        _ action: HolderAction, _ decide: (PresentationRequest) -> ElementSelection
    ) throws -> (request: PresentationRequest, report: VerificationReport, response: DeviceResponse) {
        try answer(question(action), decide)
    }

    /// Answers `request`, the pending one, with `decide(request)` and passes the response to the
    /// reader.
    mutating func answer(
        _ request: PresentationRequest, _ decide: (PresentationRequest) -> ElementSelection
    ) throws -> (request: PresentationRequest, report: VerificationReport, response: DeviceResponse) {
        guard case .send(let message) = holder.decide(decide(request)) else {
            throw TestDataError("decide did not send a response")
        }
        guard case .received(let report, let response) = toReader(message) else {
            throw TestDataError("the reader did not receive a response")
        }
        return (request, report, response)
    }

    /// The plaintexts of every SessionData the holder sent with data, decrypted with keys
    /// derived here from EReaderKey (9.1.1.5), independently of the reader session.
    func decryptedHolderMessages() throws -> [[UInt8]] {
        let eDeviceKey = try holder.deviceEngagement.value.security.eDeviceKeyBytes.value.publicKey()
        let keys = try SessionKeys(
            privateKey: eReaderKey, peerPublicKey: eDeviceKey, sessionTranscriptBytes: reader.sessionTranscript.taggedBytes)
        var decryption = SessionEncryption(role: .reader, keys: keys)
        var plaintexts: [[UInt8]] = []
        for message in holderSent {
            if let data = try SessionData(encoded: message).data {
                plaintexts.append(try decryption.decrypt(data))
            }
        }
        return plaintexts
    }
}

/// The status of an encoded status-only SessionData, or `nil`.
func sessionStatus(_ message: [UInt8]) -> SessionData.Status? {
    guard let sessionData = try? SessionData(encoded: message), sessionData.data == nil else { return nil }
    return sessionData.status
}

/// The disclosed element values of a verified document, by identifier.
func disclosedValues(_ report: VerificationReport, document index: Int = 0) -> [String: CBOR] {
    guard report.documents.indices.contains(index) else { return [:] }
    var values: [String: CBOR] = [:]
    for element in report.documents[index].elements {
        values[element.identifier] = element.value
    }
    return values
}
