import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Issues mdocs: the issuer data of ISO/IEC 18013-5 9.1.2, signed by a document signer.
///
/// For every data element an IssuerSignedItem is made with a fresh random salt of
/// ``randomByteCount`` bytes (9.1.2.5 requires at least 16) and a digest ID; the digest IDs of a
/// name space are a random permutation of `0..<n`, so they are unique and say nothing about the
/// elements or their order (9.1.2.5). The MobileSecurityObject (9.1.2.4) holds version "1.0",
/// the digest algorithm, the digest of each IssuerSignedItemBytes exactly as encoded here, the
/// device key as a COSE_Key with optional KeyAuthorizations, the doc type and the ValidityInfo.
/// IssuerAuth is a COSE_Sign1 over MobileSecurityObjectBytes with `alg` protected and the
/// document signer chain in the unprotected `x5chain` (label 33); the algorithm follows the
/// document signer key's curve (ES256, ES384, ES512 or EdDSA, see `COSEAlgorithm`).
///
/// Everything is written in deterministic encoding (RFC 8949 section 4.2.1, docs/architecture.md rule 2),
/// and each IssuerSignedItemBytes and the MSO are read back within `CBORLimits.default` so
/// that no reader using those limits would reject what was issued.
public struct DocumentIssuer: Sendable {
    /// The length of each element's random salt: 32 bytes, twice the minimum of 9.1.2.5
    /// (`IssuerSignedItem.minimumRandomByteCount`), as many as a SHA-256 digest.
    public static let randomByteCount = 32

    /// The document signer's private key.
    public let documentSignerKey: PrivateKey
    /// The document signer certificate first, then any intermediates up to (not including) the
    /// IACA, as the `x5chain` carries them.
    public let documentSignerChain: [Certificate]
    /// The MSO digest algorithm.
    public let digestAlgorithm: DigestAlgorithm
    /// Where the documents' status is published, when it is: the entry of an IETF Token Status
    /// List each MSO names in its `status` (ISO/IEC 18013-5 second edition,
    /// `{"status_list": {"idx": uint, "uri": tstr}}`). `nil` (the default) writes no `status`.
    public var statusListReference: RevocationQuery.StatusListReference?
    /// The identifier list the MSO names as the document's status (its `status` entry's
    /// `identifier_list`), or none.
    public var identifierListReference: RevocationQuery.IdentifierListReference?

    /// An issuer signing with `documentSignerKey`, whose certificate is the first of
    /// `documentSignerChain`. Mismatches are reported by ``issue(docType:nameSpaces:deviceKey:validityInfo:keyAuthorizations:)``.
    public init(documentSignerKey: PrivateKey, documentSignerChain: [Certificate], digestAlgorithm: DigestAlgorithm = .sha256) {
        self.documentSignerKey = documentSignerKey
        self.documentSignerChain = documentSignerChain
        self.digestAlgorithm = digestAlgorithm
    }

    /// Issues a document of `docType` holding `nameSpaces` (name space → elements, in order) for
    /// the device key `deviceKey`, valid as `validityInfo` says.
    ///
    /// Throws when the chain is empty or does not start with the signer key's certificate, when
    /// the signer key cannot sign, when the doc type, a name space or an identifier is empty or
    /// repeated, when the validity is inconsistent (`signed` ≤ `validFrom` < `validUntil` is
    /// required, 9.1.2.4) or `signed` lies outside the document signer certificate's validity,
    /// or when an element is too large or too deep to be read back within `CBORLimits.default`.
    public func issue(
        docType: String,
        nameSpaces: [(String, [(identifier: String, value: CBOR)])],
        deviceKey: PublicKey,
        validityInfo: ValidityInfo,
        keyAuthorizations: KeyAuthorizations? = nil
    ) throws(IssuanceError) -> IssuerSigned {
        try issueDocument(
            docType: docType, nameSpaces: nameSpaces, deviceKey: deviceKey, validityInfo: validityInfo,
            keyAuthorizations: keyAuthorizations, checkingValidity: true
        ).issuerSigned
    }

    /// Issues a document as ``issue(docType:nameSpaces:deviceKey:validityInfo:keyAuthorizations:)``
    /// does, for the public half of `deviceKey`, and returns it with `deviceKey` as the
    /// MdocSession `Credential` the holder loads.
    public func issueCredential(
        docType: String,
        nameSpaces: [(String, [(identifier: String, value: CBOR)])],
        deviceKey: PrivateKey,
        validityInfo: ValidityInfo,
        keyAuthorizations: KeyAuthorizations? = nil
    ) throws(IssuanceError) -> Credential {
        let issued = try issueDocument(
            docType: docType, nameSpaces: nameSpaces, deviceKey: deviceKey.publicKey, validityInfo: validityInfo,
            keyAuthorizations: keyAuthorizations, checkingValidity: true)
        return Credential(
            docType: docType, issuerSigned: issued.issuerSigned, deviceKey: deviceKey,
            mobileSecurityObject: issued.mobileSecurityObject, testMaterial: [])
    }

    /// Issues negative test material: a credential made to fail verification, marked with
    /// `testMaterial` (at least one note, each saying why) in the credential's `testMaterial`.
    ///
    /// As ``issueCredential(docType:nameSpaces:deviceKey:validityInfo:keyAuthorizations:)``, but
    /// `validityInfo` is taken as it is: `signed` may come after `validFrom` or lie outside the
    /// document signer certificate's validity, and `validUntil` may come before `validFrom`
    /// (9.1.2.4 rules these out; readers check the signing time against the certificate, 9.3.1).
    /// The document signer certificate may be one made to break its profile
    /// (`CertificateBuilder.deviations`). Everything else is checked as for any credential.
    public func issueTestCredential(
        docType: String,
        nameSpaces: [(String, [(identifier: String, value: CBOR)])],
        deviceKey: PrivateKey,
        validityInfo: ValidityInfo,
        keyAuthorizations: KeyAuthorizations? = nil,
        testMaterial notes: [String]
    ) throws(IssuanceError) -> Credential {
        guard !notes.isEmpty, !notes.contains(where: \.isEmpty) else {
            throw IssuanceError(.invalidTestMaterial, "test material needs at least one note saying why it fails, and no empty note")
        }
        let issued = try issueDocument(
            docType: docType, nameSpaces: nameSpaces, deviceKey: deviceKey.publicKey, validityInfo: validityInfo,
            keyAuthorizations: keyAuthorizations, checkingValidity: false)
        return Credential(
            docType: docType, issuerSigned: issued.issuerSigned, deviceKey: deviceKey,
            mobileSecurityObject: issued.mobileSecurityObject, testMaterial: notes)
    }

    // MARK: Steps

    private func issueDocument(
        docType: String,
        nameSpaces: [(String, [(identifier: String, value: CBOR)])],
        deviceKey: PublicKey,
        validityInfo: ValidityInfo,
        keyAuthorizations: KeyAuthorizations?,
        checkingValidity: Bool
    ) throws(IssuanceError) -> (issuerSigned: IssuerSigned, mobileSecurityObject: EmbeddedCBOR<MobileSecurityObject>) {
        let (documentSigner, algorithm) = try checkSigner()
        try Self.checkNameSpaces(docType: docType, nameSpaces)
        if checkingValidity {
            try Self.checkValidity(validityInfo, documentSigner: documentSigner)
        }

        var generator = SystemRandomNumberGenerator()
        var issuerNameSpaces = OrderedMap<String, [EmbeddedCBOR<IssuerSignedItem>]>()
        var valueDigests = OrderedMap<String, OrderedMap<UInt64, CBORBytes>>()
        for (nameSpace, elements) in nameSpaces {
            let digestIDs = (0..<UInt64(elements.count)).shuffled(using: &generator)
            var items: [EmbeddedCBOR<IssuerSignedItem>] = []
            var digests = OrderedMap<UInt64, CBORBytes>()
            for (element, digestID) in zip(elements, digestIDs) {
                let random = CBORBytes((0..<Self.randomByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
                let item = IssuerSignedItem(
                    digestID: digestID, random: random, elementIdentifier: element.identifier, elementValue: element.value)
                let itemBytes: EmbeddedCBOR<IssuerSignedItem> = try Self.readBack(item, "\(nameSpace)/\(element.identifier)")
                items.append(itemBytes)
                // 9.1.2.5: the digest of IssuerSignedItemBytes, #6.24(bstr), as it is sent.
                digests[digestID] = CBORBytes(digestAlgorithm.hash(itemBytes.cbor.encoded()))
            }
            issuerNameSpaces[nameSpace] = items
            valueDigests[nameSpace] = digests
        }

        let mso = MobileSecurityObject(
            digestAlgorithm: digestAlgorithm.rawValue, valueDigests: valueDigests,
            deviceKeyInfo: DeviceKeyInfo(deviceKey: COSEKey(publicKey: deviceKey), keyAuthorizations: keyAuthorizations),
            docType: docType, validityInfo: validityInfo, additionalEntries: statusEntry)
        let msoBytes: EmbeddedCBOR<MobileSecurityObject> = try Self.readBack(mso, "the MobileSecurityObject")
        var unprotected = CBORMap()
        unprotected.append(CBOR(COSEHeaders.Label.x5chain), COSEHeaders.x5chainValue(documentSignerChain.map(\.derRepresentation)))
        let issuerAuth: COSESign1
        do {
            issuerAuth = try COSESign1.sign(
                payload: msoBytes.cbor.encoded(), detached: false, algorithm: algorithm, key: documentSignerKey,
                unprotectedHeaders: unprotected)
        } catch {
            throw IssuanceError(.signingFailed, "signing the MSO with \(algorithm) failed: \(error)")
        }
        return (IssuerSigned(nameSpaces: issuerNameSpaces, issuerAuth: issuerAuth), msoBytes)
    }

    /// The MSO's `status` entry for ``statusListReference`` and ``identifierListReference``, or
    /// none (ISO/IEC 18013-5 second edition, the MobileSecurityObject `status`).
    private var statusEntry: CBORMap {
        var entries = CBORMap()
        var status = CBORMap()
        if let statusListReference { status.append("status_list", statusListReference.cbor) }
        if let identifierListReference { status.append("identifier_list", identifierListReference.cbor) }
        if !status.entries.isEmpty { entries.append("status", .map(status)) }
        return entries
    }

    /// The document signer certificate and the algorithm its key signs with.
    private func checkSigner() throws(IssuanceError) -> (Certificate, COSEAlgorithm) {
        guard let documentSigner = documentSignerChain.first else {
            throw IssuanceError(.missingCertificate, "no document signer certificate was given for the IssuerAuth x5chain")
        }
        guard documentSigner.publicKey == documentSignerKey.publicKey else {
            throw IssuanceError(
                .keyMismatch, "the document signer key is not the key of the first certificate, \"\(documentSigner.subject)\"")
        }
        guard let algorithm = COSEAlgorithm.signatureAlgorithm(forKeyOn: documentSignerKey.curve) else {
            throw IssuanceError(.unsupportedCurve, "a \(documentSignerKey.curve) key cannot sign an MSO")
        }
        return (documentSigner, algorithm)
    }

    /// A non-empty doc type; at least one name space; no empty or repeated name space; in each,
    /// at least one element and no empty or repeated identifier (9.1.2.4 ValueDigests).
    private static func checkNameSpaces(docType: String, _ nameSpaces: [(String, [(identifier: String, value: CBOR)])]) throws(IssuanceError) {
        guard !docType.isEmpty else { throw IssuanceError(.invalidNameSpaces, "the doc type is empty") }
        guard !nameSpaces.isEmpty else { throw IssuanceError(.invalidNameSpaces, "no name space was given; the MSO needs at least one") }
        var seenNameSpaces = Set<String>()
        for (nameSpace, elements) in nameSpaces {
            guard !nameSpace.isEmpty else { throw IssuanceError(.invalidNameSpaces, "a name space is empty") }
            guard seenNameSpaces.insert(nameSpace).inserted else {
                throw IssuanceError(.invalidNameSpaces, "name space \"\(nameSpace)\" is given twice")
            }
            guard !elements.isEmpty else {
                throw IssuanceError(.invalidNameSpaces, "name space \"\(nameSpace)\" has no data elements")
            }
            var seenIdentifiers = Set<String>()
            for element in elements {
                guard !element.identifier.isEmpty else {
                    throw IssuanceError(.invalidNameSpaces, "name space \"\(nameSpace)\" has an empty data element identifier")
                }
                guard seenIdentifiers.insert(element.identifier).inserted else {
                    throw IssuanceError(.invalidNameSpaces, "data element \"\(nameSpace)/\(element.identifier)\" is given twice")
                }
            }
        }
    }

    /// `signed` ≤ `validFrom` < `validUntil` (9.1.2.4), and `signed` within the document signer
    /// certificate's validity, as readers check (9.3.1).
    private static func checkValidity(_ info: ValidityInfo, documentSigner: Certificate) throws(IssuanceError) {
        guard info.signed.date <= info.validFrom.date else {
            throw IssuanceError(.invalidValidity, "validFrom \(info.validFrom) is before the signing time \(info.signed)")
        }
        guard info.validFrom.date < info.validUntil.date else {
            throw IssuanceError(.invalidValidity, "validUntil \(info.validUntil) is not after validFrom \(info.validFrom)")
        }
        guard info.signed.date >= documentSigner.notValidBefore, info.signed.date <= documentSigner.notValidAfter else {
            throw IssuanceError(
                .invalidValidity,
                "the signing time \(info.signed) is outside the validity of \"\(documentSigner.subject)\" "
                    + "(\(TDate(documentSigner.notValidBefore)) to \(TDate(documentSigner.notValidAfter)))")
        }
    }

    /// `value` in deterministic encoding, read back within `CBORLimits.default` and kept with
    /// those bytes.
    private static func readBack<Value: CBORRepresentable>(_ value: Value, _ name: String) throws(IssuanceError) -> EmbeddedCBOR<Value> {
        do {
            return try EmbeddedCBOR(bytes: value.cbor.sortedDeterministically().encoded())
        } catch {
            throw IssuanceError(.exceedsDecodingLimits, "\(name) cannot be read back within the CBOR decoding limits: \(error)")
        }
    }
}
