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

/// An mdoc issued by a ``TestPKI`` and presented in a session, built step by step so that each
/// test can change one thing (ISO/IEC 18013-5 9.1.2 issuer data, 9.1.3 mdoc authentication).
///
/// The MSO value digests are computed over the exact IssuerSignedItemBytes in ``issuerItems``
/// (9.1.2.5), whatever their encoding; ``undigestedItems`` are returned without a digest.
struct TestMdoc {
    static let docType = "org.iso.18013.5.1.mDL"
    static let nameSpace = "org.iso.18013.5.1"

    /// How device authentication carries DeviceAuthenticationBytes: detached as 9.1.3 says, or
    /// attached as some mdocs do.
    enum Payload: Equatable {
        /// A null payload; the reader supplies the bytes (9.1.3.5, 9.1.3.6).
        case detached
        /// The DeviceAuthenticationBytes themselves, attached.
        case attached
        /// Other bytes attached, the signature or MAC still made over DeviceAuthenticationBytes.
        case attachedOther([UInt8])
    }

    var pki: TestPKI
    var docType = TestMdoc.docType
    /// The MSO docType; the document's when nil.
    var msoDocType: String?
    /// The MSO digestAlgorithm text; digests are computed with SHA-256 when it names no
    /// algorithm this toolkit knows.
    var digestAlgorithm = "SHA-256"
    /// The algorithm the value digests are computed with, when not the one the MSO names.
    var digestsComputedWith: DigestAlgorithm?
    var validityInfo: ValidityInfo
    /// Returned issuer-signed elements whose digests the MSO holds.
    var issuerItems: [(nameSpace: String, item: EmbeddedCBOR<IssuerSignedItem>)]
    /// MSO value digests to use instead of the computed ones, by digestID (every name space).
    var digestOverrides: [UInt64: [UInt8]] = [:]
    /// Returned issuer-signed elements the MSO has no digest for.
    var undigestedItems: [(nameSpace: String, item: EmbeddedCBOR<IssuerSignedItem>)] = []
    /// The MSO deviceKey's private key.
    var deviceKey: PrivateKey
    /// The COSE_Key the MSO holds as deviceKey, when not ``deviceKey``'s public key.
    var msoDeviceKey: COSEKey?
    /// The certificates (DER) of the IssuerAuth x5chain; the document signer's when nil, no
    /// x5chain header when empty.
    var x5chain: [[UInt8]]?
    /// The key that signs the IssuerAuth; the document signer's when nil.
    var issuerAuthKey: PrivateKey?
    /// The key that makes the DeviceSignature; ``deviceKey`` when nil.
    var deviceSigningKey: PrivateKey?
    var keyAuthorizations: KeyAuthorizations?
    /// MSO entries of later editions (such as `status`), after the modelled ones.
    var msoAdditionalEntries = CBORMap()
    var deviceNameSpaces = DeviceNameSpaces()
    /// How the DeviceSignature or DeviceMac carries its payload.
    var payload = Payload.detached
    /// When set, the document authenticates with a DeviceMac (9.1.3.5) keyed for this reader
    /// key, and ``verifier`` uses it; otherwise with a DeviceSignature.
    var macReaderKey: PrivateKey?
    /// The session the DeviceSignature is bound to.
    var transcript: SessionTranscriptBinding

    /// An mdoc with family_name "Doe" (digestID 0), given_name "Jane" (1) and document_number
    /// "123456789" (2), valid from 2020-12-01 to 2021-12-01.
    init(pki: TestPKI) throws {
        self.pki = pki
        let day: TimeInterval = 86_400
        validityInfo = ValidityInfo(
            signed: TDate(TestPKI.referenceTime.addingTimeInterval(-31 * day)),
            validFrom: TDate(TestPKI.referenceTime.addingTimeInterval(-31 * day)),
            validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(334 * day)))
        issuerItems = [
            (Self.nameSpace, Self.item(digestID: 0, "family_name", "Doe")),
            (Self.nameSpace, Self.item(digestID: 1, "given_name", "Jane")),
            (Self.nameSpace, Self.item(digestID: 2, "document_number", "123456789")),
        ]
        deviceKey = try PrivateKey(generating: .p256)
        transcript = try Self.sessionTranscript()
    }

    /// An IssuerSignedItem with a fixed random of `randomByteCount` bytes.
    static func item(
        digestID: UInt64, _ identifier: String, _ value: CBOR,
        randomByteCount: Int = IssuerSignedItem.minimumRandomByteCount
    ) -> EmbeddedCBOR<IssuerSignedItem> {
        EmbeddedCBOR(IssuerSignedItem(
            digestID: digestID, random: CBORBytes((0..<randomByteCount).map { UInt8(truncatingIfNeeded: $0) ^ UInt8(truncatingIfNeeded: digestID) }),
            elementIdentifier: identifier, elementValue: value))
    }

    /// A QR-handover SessionTranscript for fresh ephemeral keys (9.1.5.1).
    static func sessionTranscript() throws -> SessionTranscriptBinding {
        let eDeviceKey = try PrivateKey(generating: .p256)
        let eReaderKey = try PrivateKey(generating: .p256)
        let engagement = DeviceEngagement(security: Security(eDeviceKeyBytes: EmbeddedCBOR(COSEKey(publicKey: eDeviceKey.publicKey))))
        let transcript = SessionTranscript(
            deviceEngagementBytes: EmbeddedCBOR(engagement),
            eReaderKeyBytes: EmbeddedCBOR(COSEKey(publicKey: eReaderKey.publicKey)),
            handover: .qr)
        return try SessionTranscriptBinding(encoded: transcript.bytes.cbor.encoded())
    }

    /// The MSO over ``issuerItems``.
    func mobileSecurityObject() -> MobileSecurityObject {
        let algorithm = digestsComputedWith ?? DigestAlgorithm(rawValue: digestAlgorithm) ?? .sha256
        var valueDigests = OrderedMap<String, OrderedMap<UInt64, CBORBytes>>()
        for (nameSpace, item) in issuerItems {
            var digests = valueDigests[nameSpace] ?? OrderedMap()
            digests[item.value.digestID] = CBORBytes(digestOverrides[item.value.digestID] ?? algorithm.hash(item.cbor.encoded()))
            valueDigests[nameSpace] = digests
        }
        return MobileSecurityObject(
            digestAlgorithm: digestAlgorithm, valueDigests: valueDigests,
            deviceKeyInfo: DeviceKeyInfo(
                deviceKey: msoDeviceKey ?? COSEKey(publicKey: deviceKey.publicKey), keyAuthorizations: keyAuthorizations),
            docType: msoDocType ?? docType, validityInfo: validityInfo, additionalEntries: msoAdditionalEntries)
    }

    /// The document: IssuerAuth signed by the document signer with its certificate in x5chain,
    /// and a DeviceSignature over this session's DeviceAuthenticationBytes.
    func document() throws -> Document {
        let msoBytes = EmbeddedCBOR(mobileSecurityObject())
        let certificates = x5chain ?? [pki.documentSigner.derRepresentation]
        var headers = CBORMap()
        if !certificates.isEmpty {
            headers.append(CBOR(COSEHeaders.Label.x5chain), COSEHeaders.x5chainValue(certificates))
        }
        let issuerAuth = try COSESign1.sign(
            payload: msoBytes.cbor.encoded(), detached: false, algorithm: .es256, key: issuerAuthKey ?? pki.documentSignerKey,
            unprotectedHeaders: headers)

        var nameSpaces = OrderedMap<String, [EmbeddedCBOR<IssuerSignedItem>]>()
        for (nameSpace, item) in issuerItems + undigestedItems {
            nameSpaces[nameSpace] = (nameSpaces[nameSpace] ?? []) + [item]
        }

        let deviceNameSpacesBytes = EmbeddedCBOR(deviceNameSpaces)
        let authenticated = transcript.deviceAuthenticationBytes(docType: docType, deviceNameSpacesBytes: deviceNameSpacesBytes)
        var deviceAuth: DeviceAuth
        if let macReaderKey {
            let key = try EMacKey.derive(
                privateKey: deviceSigningKey ?? deviceKey, peerPublicKey: macReaderKey.publicKey,
                sessionTranscriptBytes: transcript.taggedBytes)
            var mac = COSEMac0.authenticate(payload: authenticated, detached: payload == .detached, key: key)
            if case .attachedOther(let other) = payload { mac.payload = CBORBytes(other) }
            deviceAuth = .deviceMac(mac)
        } else {
            var signature = try COSESign1.sign(
                payload: authenticated, detached: payload == .detached, algorithm: .es256, key: deviceSigningKey ?? deviceKey)
            if case .attachedOther(let other) = payload { signature.payload = CBORBytes(other) }
            deviceAuth = .deviceSignature(signature)
        }
        return Document(
            docType: docType,
            issuerSigned: IssuerSigned(nameSpaces: nameSpaces, issuerAuth: issuerAuth),
            deviceSigned: DeviceSigned(nameSpaces: deviceNameSpacesBytes, deviceAuth: deviceAuth))
    }

    /// The encoded DeviceResponse returning ``document()``.
    func responseBytes() throws -> [UInt8] {
        DeviceResponse(documents: [try document()]).encoded()
    }

    /// A verifier trusting this PKI's IACA, bound to ``transcript``.
    var verifier: DeviceResponseVerifier {
        DeviceResponseVerifier(trustAnchors: [pki.iaca], sessionTranscript: transcript, readerKey: macReaderKey)
    }

    /// Verifies ``responseBytes()`` at 2021-01-01T00:00:00Z.
    func verify() throws -> VerificationReport {
        try verifier.verify(responseBytes(), at: TestPKI.referenceTime)
    }
}
