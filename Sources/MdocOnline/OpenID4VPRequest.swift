import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocText

/// An unsigned OpenID4VP 1.0 request for mdocs (section 5): `response_type` `vp_token`, the
/// `response_mode`, the `nonce`, a DCQL query, and `client_metadata`; for the redirect-based
/// `direct_post` modes also `client_id` (with its Client Identifier Prefix) and `response_uri`.
/// An encrypted mode (`dc_api.jwt`, `direct_post.jwt`) carries in `client_metadata.jwks` the
/// P-256 key the response is encrypted to (ECDH-ES, with `use` `enc`, `alg` `ECDH-ES` and a
/// `kid`) and in `encrypted_response_enc_values_supported` the content encryptions accepted.
///
/// Through the Digital Credentials API the object is the request data of the protocol
/// ``protocolIdentifier`` (Appendix A.2), and an unsigned request has no `client_id`: the
/// response is bound to the origin the platform reports. A Request Object signed with JAR
/// (`request`) is not made or read here.
///
/// ``OpenID4VPRequestState/make(_:responseMode:verifier:now:validity:encryptions:)`` makes one;
/// a wallet reads one with ``init(json:)``, asks for consent over ``dcqlQuery``, and answers with
/// ``respond(_:)``.
public struct OpenID4VPRequest: Sendable {
    /// The exchange protocol of an unsigned OpenID4VP 1.0 request through the Digital
    /// Credentials API (Appendix A.1).
    public static let protocolIdentifier = "openid4vp-v1-unsigned"
    /// The `response_type` of a request for a VP Token (section 5.6).
    public static let responseType = "vp_token"
    /// The JWE `alg` of an encrypted response: ECDH-ES in direct key agreement.
    public static let keyAgreementAlgorithm = CompactJWE.keyAgreementAlgorithm
    /// The Client Identifier Prefix of a Verifier identified by its Response URI (section
    /// 5.9.3): `redirect_uri:` followed by the `response_uri`, in a request that is not signed.
    public static let redirectURIPrefix = "redirect_uri:"
    /// The Client Identifier Prefixes whose requests must be signed (section 5.9.3), which an
    /// unsigned request cannot carry.
    static let signedRequestPrefixes: Set<Substring> = ["x509_san_dns", "x509_hash", "decentralized_identifier", "verifier_attestation", "openid_federation"]

    /// `response_mode`.
    public let responseMode: OpenID4VPResponseMode
    /// `nonce`.
    public let nonce: String
    /// `client_id`, with its prefix, for the `direct_post` modes; `nil` through the Digital
    /// Credentials API (unsigned requests have none, Appendix A.2).
    public let clientID: String?
    /// `response_uri`, for the `direct_post` modes.
    public let responseURI: String?
    /// `dcql_query`.
    public let dcqlQuery: DCQLQuery
    /// The key of `client_metadata.jwks` the response is encrypted to and its `kid`, for the
    /// encrypted modes.
    public let encryptionKey: (key: PublicKey, keyID: String)?
    /// `encrypted_response_enc_values_supported` as far as it is understood here, in the
    /// verifier's order (`A128GCM` alone when absent, section 5.1); empty when not encrypted.
    public let encryptions: [JWEContentEncryption]

    init(
        responseMode: OpenID4VPResponseMode, nonce: String, clientID: String?, responseURI: String?, dcqlQuery: DCQLQuery,
        encryptionKey: (key: PublicKey, keyID: String)?, encryptions: [JWEContentEncryption]
    ) {
        self.responseMode = responseMode
        self.nonce = nonce
        self.clientID = clientID
        self.responseURI = responseURI
        self.dcqlQuery = dcqlQuery
        self.encryptionKey = encryptionKey
        self.encryptions = encryptions
    }

    /// Reads a request object, at most ``OpenID4VPLimits/maximumRequestByteCount`` bytes of JSON
    /// nested at most ``OpenID4VPLimits/maximumRequestDepth`` deep.
    ///
    /// Throws `.inputTooLarge` for a longer text; `.malformedRequest` for one that is not a
    /// request for a `vp_token` of a known `response_mode` with a `nonce` of URL-safe characters
    /// (at most ``OpenID4VPLimits/maximumNonceLength``), a `client_id` and `response_uri` for
    /// the `direct_post` modes (and no `redirect_uri`; a `client_id` of the prefix
    /// ``redirectURIPrefix`` naming the `response_uri`, or of no prefix that needs a signed
    /// request), a `dcql_query`, and for the encrypted
    /// modes an EC P-256 `ECDH-ES` key with a `kid`; `.unsupportedRequest` for a signed request,
    /// `transaction_data`, a DCQL query not evaluated here, or no content encryption accepted here.
    public init(json bytes: [UInt8]) throws(OnlineError) {
        let object = try DCAPIObject(
            bytes, name: "request", limit: OpenID4VPLimits.maximumRequestByteCount, code: .malformedRequest,
            maximumDepth: OpenID4VPLimits.maximumRequestDepth)
        for refused in ["request", "request_uri", "transaction_data"] where object.value(refused) != nil {
            throw OnlineError(.unsupportedRequest, "the request has \"\(refused)\", which is not read here (unsigned requests only, no transaction data)")
        }
        let responseType = try object.string("response_type")
        guard responseType == Self.responseType else {
            throw OnlineError(.malformedRequest, "the request's response_type is \"\(UntrustedText.escaped(responseType))\", not \"\(Self.responseType)\"")
        }
        let modeName = try object.string("response_mode")
        guard let mode = OpenID4VPResponseMode(rawValue: modeName) else {
            throw OnlineError(
                .malformedRequest,
                "the request's response_mode \"\(UntrustedText.escaped(modeName))\" is not one of \(OpenID4VPResponseMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let nonce = try object.string("nonce")
        try Self.checkNonce(nonce)
        var clientID: String? = nil
        var responseURI: String? = nil
        if !mode.usesDigitalCredentialsAPI {
            clientID = try object.string("client_id")
            responseURI = try object.string("response_uri")
            guard object.value("redirect_uri") == nil else {
                throw OnlineError(.malformedRequest, "the request has a redirect_uri, which response_mode \(mode) forbids (section 8.2)")
            }
            try Self.checkUnsignedClientID(clientID ?? "", responseURI: responseURI ?? "", code: .malformedRequest)
        }
        guard let query = object.value("dcql_query") else {
            throw OnlineError(.malformedRequest, "the request has no \"dcql_query\"")
        }
        let dcqlQuery = try DCQLQuery(json: query)
        var encryptionKey: (key: PublicKey, keyID: String)? = nil
        var encryptions: [JWEContentEncryption] = []
        if mode.isEncrypted {
            guard let metadata = try object.object("client_metadata") else {
                throw OnlineError(.malformedRequest, "the request asks for an encrypted response (\(mode)) and has no client_metadata")
            }
            encryptionKey = try Self.encryptionKey(in: metadata)
            let names = try metadata.strings("encrypted_response_enc_values_supported", limit: OpenID4VPLimits.maximumListCount)
                ?? [JWEContentEncryption.a128gcm.rawValue]
            encryptions = names.compactMap(JWEContentEncryption.init(rawValue:))
            guard !encryptions.isEmpty else {
                throw OnlineError(
                    .unsupportedRequest,
                    "the request accepts the content encryptions \(names.map { UntrustedText.escaped($0) }.joined(separator: ", ")); "
                        + "only \(JWEContentEncryption.allCases.map(\.rawValue).joined(separator: ", ")) are made here")
            }
        }
        self.init(
            responseMode: mode, nonce: nonce, clientID: clientID, responseURI: responseURI, dcqlQuery: dcqlQuery,
            encryptionKey: encryptionKey, encryptions: encryptions)
    }

    /// Throws `code` unless `clientID` may identify the Verifier of an unsigned `direct_post`
    /// request posting to `responseURI` (section 5.9.3): `redirect_uri:` followed by
    /// `responseURI` itself, or a Client Identifier of no prefix known here (one registered
    /// with the wallet beforehand). A prefix whose requests must be signed (`x509_san_dns:`,
    /// `x509_hash:`...) and `origin:`, which only the Digital Credentials API platform gives,
    /// are refused.
    static func checkUnsignedClientID(_ clientID: String, responseURI: String, code: OnlineError.Code) throws(OnlineError) {
        if clientID.hasPrefix(redirectURIPrefix) {
            guard clientID.dropFirst(redirectURIPrefix.count) == responseURI else {
                throw OnlineError(
                    code,
                    "the client_id \"\(UntrustedText.escaped(clientID))\" names another URI than the response_uri \"\(UntrustedText.escaped(responseURI))\" (section 5.9.3)")
            }
            return
        }
        guard let colon = clientID.firstIndex(of: ":") else { return }
        let prefix = clientID[..<colon]
        if signedRequestPrefixes.contains(prefix) {
            throw OnlineError(
                code, "the client_id has the prefix \(UntrustedText.escaped(prefix)):, whose requests must be signed (section 5.9.3); this request is not")
        }
        if prefix == "origin" {
            throw OnlineError(code, "the client_id has the prefix origin:, which only the Digital Credentials API platform gives (section 5.9.3)")
        }
    }

    /// The request object.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("response_type", .string(Self.responseType)), ("response_mode", .string(responseMode.rawValue)),
        ]
        if let clientID { members.append(("client_id", .string(clientID))) }
        if let responseURI { members.append(("response_uri", .string(responseURI))) }
        members.append(("nonce", .string(nonce)))
        members.append(("dcql_query", dcqlQuery.json))
        var metadata: [(String, JSONValue)] = []
        if let encryptionKey, let (x, y) = encryptionKey.key.coordinates {
            metadata.append(("jwks", .object([("keys", .array([.object([
                ("kty", .string("EC")), ("crv", .string(Curve.p256.rawValue)),
                ("x", .string(Base64URL.encode(x))), ("y", .string(Base64URL.encode(y))),
                ("use", .string("enc")), ("alg", .string(Self.keyAgreementAlgorithm)), ("kid", .string(encryptionKey.keyID)),
            ])]))])))
            metadata.append(("encrypted_response_enc_values_supported", .array(encryptions.map { .string($0.rawValue) })))
        }
        metadata.append(("vp_formats_supported", .object([(DCQLCredentialQuery.format, .object([]))])))
        members.append(("client_metadata", .object(metadata)))
        return .object(members)
    }

    /// The Handover the response is bound to (Appendix B.2.6): ``OpenID4VPDCAPIHandover`` of
    /// `origin` through the Digital Credentials API, else ``OpenID4VPHandover`` of the
    /// `client_id` and `response_uri` (`origin` is not used); each with the `nonce` and, when
    /// the response is encrypted, the JWK SHA-256 Thumbprint of the key it is encrypted to.
    ///
    /// Throws `.invalidOrigin` for a Digital Credentials API request without a serialised origin,
    /// `.unsupportedKey` for a key with no thumbprint.
    public func handover(origin: String?) throws(OnlineError) -> any OnlineHandover {
        let thumbprint = try encryptionKey.map { (encryption) throws(OnlineError) in try JWKThumbprint(of: encryption.key) }
        if responseMode.usesDigitalCredentialsAPI {
            guard let origin else {
                throw OnlineError(.invalidOrigin, "a request through the Digital Credentials API is bound to its origin, and none was given")
            }
            try DCAPIRequest.checkOrigin(origin)
            return OpenID4VPDCAPIHandover(origin: origin, nonce: nonce, jwkThumbprint: thumbprint)
        }
        return OpenID4VPHandover(clientID: clientID ?? "", nonce: nonce, jwkThumbprint: thumbprint, responseURI: responseURI ?? "")
    }

    /// The SessionTranscript `[null, null, Handover]` of ``handover(origin:)``: what each
    /// DeviceResponse of the answer signs (DeviceAuthentication, ISO/IEC 18013-5 9.1.3.4).
    public func sessionTranscript(origin: String?) throws(OnlineError) -> SessionTranscriptBinding {
        SessionTranscriptBinding(try handover(origin: origin).sessionTranscript)
    }

    /// The wallet's answer: `deviceResponses` (each encoded, bound to
    /// ``sessionTranscript(origin:)``, under its Credential Query `id`) as the `vp_token`, and
    /// for the encrypted modes that `{"vp_token": ...}` encrypted to the request's key with its
    /// `kid`, in the first content encryption of ``encryptions``.
    ///
    /// Throws `.vpTokenMismatch` unless every Credential Query is answered once, `.jweTooLarge`
    /// or `.jweEncryptionFailed` when the JWE cannot be made.
    public func respond(_ deviceResponses: [(id: String, deviceResponse: [UInt8])]) throws(OnlineError) -> OpenID4VPResponse {
        let token = VPToken(deviceResponses: deviceResponses)
        _ = try token.deviceResponses(answering: dcqlQuery.ids)
        guard let encryptionKey, let encryption = encryptions.first else {
            return .vpToken(token)
        }
        let payload = Array(JSONValue.object([("vp_token", token.json)]).serialized().utf8)
        return .encrypted(try CompactJWE.encrypt(payload, to: encryptionKey.key, encryption: encryption, keyID: encryptionKey.keyID))
    }

    /// Throws `.malformedRequest` unless `nonce` is 1 to ``OpenID4VPLimits/maximumNonceLength``
    /// ASCII URL-safe characters: letters, digits, `-`, `.`, `_` and `~` (section 5.2).
    static func checkNonce(_ nonce: String) throws(OnlineError) {
        guard !nonce.isEmpty, nonce.utf8.count <= OpenID4VPLimits.maximumNonceLength,
              nonce.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) })
        else {
            throw OnlineError(
                .malformedRequest,
                "the nonce \"\(UntrustedText.escaped(String(nonce.prefix(OpenID4VPLimits.maximumNonceLength))))\" is not 1 to \(OpenID4VPLimits.maximumNonceLength) URL-safe characters")
        }
    }

    /// The first key of `metadata.jwks` a response may be encrypted to (section 8.3): `use`
    /// absent or `enc`, `kty` `EC` on P-256, `alg` `ECDH-ES`, with a `kid`.
    private static func encryptionKey(in metadata: DCAPIObject) throws(OnlineError) -> (key: PublicKey, keyID: String) {
        guard let jwks = try metadata.object("jwks"), let keys = try jwks.array("keys", limit: OpenID4VPLimits.maximumListCount) else {
            throw OnlineError(.malformedRequest, "the request's client_metadata has no jwks keys to encrypt the response to")
        }
        for (index, value) in keys.enumerated() {
            let jwk = try DCAPIObject(value, name: "client_metadata jwks key \(index)", code: .malformedRequest)
            guard try jwk.optionalString("use") ?? "enc" == "enc", try jwk.optionalString("kty") == "EC",
                  try jwk.optionalString("crv") == Curve.p256.rawValue, try jwk.optionalString("alg") == Self.keyAgreementAlgorithm
            else { continue }
            guard jwk.value("d") == nil else {
                throw OnlineError(.malformedRequest, "the client_metadata jwks key \(index) carries a private key (\"d\")")
            }
            let keyID = try jwk.string("kid")
            let x = try jwk.bytes("x")
            let y = try jwk.bytes("y")
            guard x.count == Curve.p256.coordinateByteCount, y.count == Curve.p256.coordinateByteCount else {
                throw OnlineError(.malformedRequest, "the client_metadata jwks key \(index) has coordinates that are not \(Curve.p256.coordinateByteCount) bytes")
            }
            do {
                return (try PublicKey(x: x, y: y, curve: .p256), keyID)
            } catch {
                throw OnlineError(.malformedRequest, "the client_metadata jwks key \(index) is not a P-256 public key: \(error.reason)")
            }
        }
        throw OnlineError(
            .unsupportedRequest, "the request's client_metadata jwks has no EC P-256 key with alg \(Self.keyAgreementAlgorithm) for encryption")
    }
}
