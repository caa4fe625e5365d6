import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

/// Builds the mdoc's DeviceResponse to a DeviceRequest under the holder's consent (ISO/IEC
/// 18013-5 8.3.2.1.2.2, with mdoc authentication of 9.1.3).
///
/// For each docType requested, in order (several DocRequests for one docType are answered
/// together, as one Document):
/// - when no credential has its docType, or none of its requested elements is both approved
///   and held, the docType goes to `documentErrors` with ErrorCode 0, "data not returned"
///   (8.3.2.1.2.3), which gives no reason and so does not tell the reader which it was;
/// - otherwise a Document returns exactly the elements that were requested, approved and held,
///   as the IssuerSignedItemBytes of the credential (copied, never re-encoded, so their MSO
///   digests hold), with the credential's IssuerAuth unchanged; requested elements that are not
///   returned are listed in the Document's `errors` with ErrorCode 0. DeviceSigned carries an
///   empty DeviceNameSpaces and a DeviceMac or DeviceSignature over DeviceAuthenticationBytes.
///
/// When several credentials have the requested docType, the first one is used. The response
/// status is 0: a declined or absent document is normal processing reported in
/// `documentErrors` (8.3.2.1.2.3, status 0 "shall be returned if no other status is returned";
/// status 10 means an error with no data and no reason). ``errorResponse(for:)`` makes the
/// responses with status 11 or 12 for a request that could not be decoded.
///
/// Device authentication (9.1.3): with ``DeviceAuthenticationPolicy/preferMAC`` a DeviceMac
/// (COSE_Mac0, HMAC 256/256 with EMacKey, 9.1.3.5) when the device key and EReaderKey are on the
/// same curve and that curve agrees keys (P-256/384/521, brainpool, X25519, X448); a
/// DeviceSignature (COSE_Sign1 with detached payload, 9.1.3.4) otherwise.
public struct ResponseBuilder: Sendable {
    /// How the mdoc authenticates a returned document (ISO/IEC 18013-5 9.1.3).
    public enum DeviceAuthenticationPolicy: Sendable, Hashable {
        /// A DeviceMac whenever the keys allow it (9.1.3.5), else a DeviceSignature. MAC
        /// authentication gives the reader no signature it could show to others.
        case preferMAC
        /// Always a DeviceSignature (9.1.3.4).
        case signature
    }

    /// The policy for mdoc authentication.
    public var deviceAuthentication: DeviceAuthenticationPolicy

    /// A builder using `deviceAuthentication` (``DeviceAuthenticationPolicy/preferMAC`` by default).
    public init(deviceAuthentication: DeviceAuthenticationPolicy = .preferMAC) {
        self.deviceAuthentication = deviceAuthentication
    }

    /// The DeviceResponse to `request` from `credentials`, returning only elements in `approved`,
    /// bound to `sessionTranscript` and, for DeviceMac, to `eReaderKey` (the reader's ephemeral
    /// public key of the session). Throws when a document to return cannot be authenticated.
    public func deviceResponse(
        request: DeviceRequest,
        credentials: [Credential],
        approved: ElementSelection,
        sessionTranscript: SessionTranscriptBinding,
        eReaderKey: PublicKey
    ) throws(PresentationError) -> DeviceResponse {
        try response(request: request, credentials: credentials, approved: approved, sessionTranscript: sessionTranscript, eReaderKey: eReaderKey)
    }

    /// The DeviceResponse to `request` of an online presentation (ISO/IEC TS 18013-7), bound to
    /// `sessionTranscript` (`[null, null, Handover]`), which has no EReaderKey: each returned
    /// document carries a DeviceSignature (9.1.3.4), whatever ``deviceAuthentication`` says.
    /// Throws when a document to return cannot be signed (a device key on a curve with no
    /// signature algorithm).
    public func deviceResponse(
        request: DeviceRequest,
        credentials: [Credential],
        approved: ElementSelection,
        sessionTranscript: SessionTranscriptBinding
    ) throws(PresentationError) -> DeviceResponse {
        try response(request: request, credentials: credentials, approved: approved, sessionTranscript: sessionTranscript, eReaderKey: nil)
    }

    /// The response of either public method: a DeviceMac is possible only with `eReaderKey`.
    private func response(
        request: DeviceRequest,
        credentials: [Credential],
        approved: ElementSelection,
        sessionTranscript: SessionTranscriptBinding,
        eReaderKey: PublicKey?
    ) throws(PresentationError) -> DeviceResponse {
        var documents: [Document] = []
        var documentErrors = OrderedMap<String, ErrorCode>()
        for itemsRequest in Self.itemsRequestsByDocType(request) {
            guard let credential = credentials.first(where: { $0.docType == itemsRequest.docType }),
                  let document = try document(
                    for: itemsRequest, from: credential, approved: approved,
                    sessionTranscript: sessionTranscript, eReaderKey: eReaderKey)
            else {
                documentErrors[itemsRequest.docType] = .dataNotReturned
                continue
            }
            documents.append(document)
        }
        return DeviceResponse(
            documents: documents.isEmpty ? nil : documents,
            documentErrors: documentErrors.isEmpty
                ? nil : documentErrors.map { DocumentError(errors: [$0.key: $0.value]) },
            status: .ok)
    }

    /// The ItemsRequests of `request` with those of one docType merged, in first-seen order:
    /// the mdoc returns one Document per docType (8.3.2.1.2.2), holding what any of them asks
    /// for, intent to retain when any of them retains.
    static func itemsRequestsByDocType(_ request: DeviceRequest) -> [ItemsRequest] {
        var merged: [ItemsRequest] = []
        var positions: [String: Int] = [:]
        for docRequest in request.docRequests {
            let itemsRequest = docRequest.itemsRequest.value
            guard let position = positions[itemsRequest.docType] else {
                positions[itemsRequest.docType] = merged.count
                merged.append(itemsRequest)
                continue
            }
            // In place: each element costs O(1), however many DocRequests there are.
            for (nameSpace, elements) in itemsRequest.nameSpaces {
                for (identifier, intentToRetain) in elements {
                    let retained = merged[position].nameSpaces[nameSpace]?[identifier] ?? false
                    merged[position].nameSpaces[nameSpace, default: OrderedMap()][identifier] = retained || intentToRetain
                }
            }
        }
        return merged
    }

    /// The response to a request that could not be read (8.3.2.1.2.3): status 11 "CBOR decoding
    /// error" when the bytes are not well-formed CBOR within the decoding limits, status 12 "CBOR
    /// validation error" when they are CBOR but not a valid DeviceRequest. Such a response
    /// carries no documents.
    public static func errorResponse(for error: CBORError) -> DeviceResponse {
        DeviceResponse(status: status(for: error))
    }

    /// The DeviceResponse status for a failure to read the DeviceRequest (8.3.2.1.2.3).
    public static func status(for error: CBORError) -> DeviceResponse.Status {
        validationCodes.contains(error.code) ? .cborValidationError : .cborDecodingError
    }

    /// CBORError codes of CBOR that decoded but does not fit the structure (status 12); every
    /// other code means the bytes are not acceptable CBOR (status 11).
    private static let validationCodes: Set<CBORError.Code> = [.unexpectedType, .missingValue, .invalidValue]

    // MARK: One document

    /// The Document for one ItemsRequest, or `nil` when no element is returnable.
    private func document(
        for itemsRequest: ItemsRequest,
        from credential: Credential,
        approved: ElementSelection,
        sessionTranscript: SessionTranscriptBinding,
        eReaderKey: PublicKey?
    ) throws(PresentationError) -> Document? {
        var returned = OrderedMap<String, [EmbeddedCBOR<IssuerSignedItem>]>()
        var notReturned = OrderedMap<String, OrderedMap<String, ErrorCode>>()
        for (nameSpace, elements) in itemsRequest.nameSpaces {
            var items: [EmbeddedCBOR<IssuerSignedItem>] = []
            var errors = OrderedMap<String, ErrorCode>()
            for identifier in elements.keys {
                if approved.contains(docType: itemsRequest.docType, nameSpace: nameSpace, identifier: identifier),
                   let item = credential.item(nameSpace: nameSpace, identifier: identifier) {
                    items.append(item)
                } else {
                    errors[identifier] = .dataNotReturned
                }
            }
            // The name spaces of an ItemsRequest are distinct, so each is set once.
            if !items.isEmpty { returned[nameSpace] = items }
            if !errors.isEmpty { notReturned[nameSpace] = errors }
        }
        guard !returned.isEmpty else { return nil }

        let deviceNameSpaces = EmbeddedCBOR(DeviceNameSpaces())
        let payload = sessionTranscript.deviceAuthenticationBytes(docType: credential.docType, deviceNameSpacesBytes: deviceNameSpaces)
        let deviceAuth = try authenticate(payload, deviceKey: credential.deviceKey, eReaderKey: eReaderKey, sessionTranscript: sessionTranscript)
        return Document(
            docType: credential.docType,
            // Only the IssuerAuth and the released items: other entries a credential file may
            // carry were not consented to.
            issuerSigned: IssuerSigned(nameSpaces: returned, issuerAuth: credential.issuerSigned.issuerAuth),
            deviceSigned: DeviceSigned(nameSpaces: deviceNameSpaces, deviceAuth: deviceAuth),
            errors: notReturned.isEmpty ? nil : Errors(nameSpaces: notReturned))
    }

    /// `true` when a DeviceMac can be made: both keys on one curve that agrees keys (9.1.3.5).
    static func canMAC(deviceKey: Curve, eReaderKey: Curve) -> Bool {
        deviceKey == eReaderKey && (deviceKey.isWeierstrass || deviceKey.isMontgomery)
    }

    /// DeviceMac or DeviceSignature over DeviceAuthenticationBytes (`payload`), detached.
    private func authenticate(
        _ payload: [UInt8],
        deviceKey: PrivateKey,
        eReaderKey: PublicKey?,
        sessionTranscript: SessionTranscriptBinding
    ) throws(PresentationError) -> DeviceAuth {
        if deviceAuthentication == .preferMAC, let eReaderKey, Self.canMAC(deviceKey: deviceKey.curve, eReaderKey: eReaderKey.curve) {
            let eMacKey: SymmetricKey
            do {
                eMacKey = try EMacKey.derive(
                    privateKey: deviceKey, peerPublicKey: eReaderKey, sessionTranscriptBytes: sessionTranscript.taggedBytes)
            } catch {
                throw PresentationError(
                    .deviceAuthenticationFailed, "EMacKey cannot be derived from the device key and EReaderKey (\(error.code)): \(error)")
            }
            return .deviceMac(COSEMac0.authenticate(payload: payload, detached: true, key: eMacKey))
        }
        guard let algorithm = COSEAlgorithm.signatureAlgorithm(forKeyOn: deviceKey.curve) else {
            throw PresentationError(
                .deviceAuthenticationUnavailable,
                "the \(deviceKey.curve) device key cannot sign, and a DeviceMac "
                    + (eReaderKey.map { eReaderKey in
                        deviceAuthentication == .signature
                            ? "is excluded by the signature policy"
                            : "needs EReaderKey on the same curve, not \(eReaderKey.curve)"
                    } ?? "needs EReaderKey, which an online presentation has none of"))
        }
        do {
            return .deviceSignature(try COSESign1.sign(payload: payload, detached: true, algorithm: algorithm, key: deviceKey))
        } catch {
            throw PresentationError(.deviceAuthenticationFailed, "the DeviceSignature (\(algorithm)) failed (\(error.code)): \(error)")
        }
    }
}
