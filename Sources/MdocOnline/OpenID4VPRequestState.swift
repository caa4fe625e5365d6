import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a verifier keeps between an OpenID4VP 1.0 request for mdocs and its response: the
/// `response_mode`, the `nonce`, who the response is bound to (the origin through the Digital
/// Credentials API, else the `client_id` and `response_uri`), the DCQL Credential Query `id`s,
/// for an encrypted mode the private key of `client_metadata.jwks`, and when the request was made
/// and expires.
///
/// It is written as JSON (``json``) and read back (``init(json:)``). **For an encrypted mode the
/// JSON holds the private key in the clear**: whoever reads it decrypts the response. Keep it
/// private (the programs write it with mode 0600) and delete it once the response is verified.
///
/// Reading checks that the state is consistent: a key exactly when the mode is encrypted, an
/// origin exactly when the mode goes through the Digital Credentials API, and an expiry after
/// its creation within ``DCAPILimits/maximumValidity`` (`.stateTampered` otherwise).
/// ``open(_:at:)`` refuses a response after the expiry (`.requestExpired`). Nothing here
/// remembers a state that was used: a verifier that must refuse a second response to one request
/// deletes the state after the first.
public struct OpenID4VPRequestState: Sendable {
    /// The `format` member of the JSON, naming what the file is.
    public static let format = "swift-mdoc OpenID4VP 1.0 request state"

    /// Who the response is bound to (Appendix B.2.6).
    public enum Verifier: Sendable, Equatable {
        /// The serialised origin of the page, for `dc_api` and `dc_api.jwt`.
        case origin(String)
        /// The `client_id` (with its prefix) and the `response_uri`, for `direct_post` and
        /// `direct_post.jwt`.
        case client(id: String, responseURI: String)
    }

    /// `response_mode`.
    public let responseMode: OpenID4VPResponseMode
    /// `nonce`.
    public let nonce: String
    /// Who the response is bound to.
    public let verifier: Verifier
    /// The DCQL Credential Query `id`s, each of which the `vp_token` must answer once.
    public let credentialIDs: [String]
    /// The content encryptions the response may use, for an encrypted mode.
    public let encryptions: [JWEContentEncryption]
    /// When the request was made, to the second.
    public let created: Date
    /// When the request expires, to the second: a response is refused after it.
    public let expires: Date
    /// The private key of `client_metadata.jwks`, for an encrypted mode.
    private let recipientKey: PrivateKey?

    private init(
        responseMode: OpenID4VPResponseMode, nonce: String, verifier: Verifier, credentialIDs: [String],
        encryptions: [JWEContentEncryption], recipientKey: PrivateKey?, created: Date, expires: Date
    ) throws(OnlineError) {
        try OpenID4VPRequest.checkNonce(nonce)
        try Self.check(verifier, for: responseMode, code: .stateTampered)
        guard responseMode.isEncrypted == (recipientKey != nil), responseMode.isEncrypted == !encryptions.isEmpty else {
            throw OnlineError(.stateTampered, "the state's response_mode is \(responseMode), but it \(recipientKey == nil ? "holds no" : "holds a") key")
        }
        guard !credentialIDs.isEmpty, credentialIDs.count <= OpenID4VPLimits.maximumCredentialQueryCount,
              Set(credentialIDs).count == credentialIDs.count
        else {
            throw OnlineError(.stateTampered, "the state's credential ids are not 1 to \(OpenID4VPLimits.maximumCredentialQueryCount) distinct ids")
        }
        for id in credentialIDs {
            try DCQLCredentialQuery.checkID(id)
        }
        try DCAPIRequestState.checkLifetime(created: created, expires: expires)
        self.responseMode = responseMode
        self.nonce = nonce
        self.verifier = verifier
        self.credentialIDs = credentialIDs
        self.encryptions = encryptions
        self.recipientKey = recipientKey
        self.created = created
        self.expires = expires
    }

    /// A new request of `query` in `responseMode` for `verifier`, and the state that verifies its
    /// response: a fresh `nonce` of ``OpenID4VPLimits/nonceByteCount`` random bytes (base64url)
    /// and, for an encrypted mode, a fresh P-256 key whose `kid` is its JWK SHA-256 Thumbprint
    /// (base64url), with `encryptions` as `encrypted_response_enc_values_supported`. The request
    /// expires `validity` after `now` (whole seconds).
    ///
    /// Throws `.invalidOrigin` for an origin that is not a serialised origin,
    /// `.malformedRequest` for a `verifier` of the other kind than `responseMode` needs, an
    /// empty `client_id` or `response_uri`, or a `client_id` an unsigned request cannot carry
    /// (``OpenID4VPRequest/redirectURIPrefix`` and another URI than the `response_uri`, or a
    /// prefix whose requests must be signed, section 5.9.3), `.malformedState` for a validity outside
    /// ``DCAPILimits/minimumValidity`` to ``DCAPILimits/maximumValidity`` or no `encryptions`
    /// for an encrypted mode, `.requestConstructionFailed` when no key can be made.
    public static func make(
        _ query: DCQLQuery, responseMode: OpenID4VPResponseMode, verifier: Verifier, now: Date,
        validity: Duration = DCAPILimits.defaultValidity, encryptions: [JWEContentEncryption] = [.a128gcm]
    ) throws(OnlineError) -> (request: OpenID4VPRequest, state: OpenID4VPRequestState) {
        try check(verifier, for: responseMode, code: .malformedRequest)
        try DCAPIRequestState.checkValidity(validity)
        var recipientKey: PrivateKey? = nil
        if responseMode.isEncrypted {
            guard !encryptions.isEmpty else {
                throw OnlineError(.malformedState, "an encrypted response needs at least one content encryption")
            }
            do {
                recipientKey = try PrivateKey(generating: .p256)
            } catch {
                throw OnlineError(.requestConstructionFailed, "no P-256 key for the response: \(error.reason)")
            }
        }
        var generator = SystemRandomNumberGenerator()
        let nonce = Base64URL.encode((0..<OpenID4VPLimits.nonceByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let created = TDate(now).date
        let state = try OpenID4VPRequestState(
            responseMode: responseMode, nonce: nonce, verifier: verifier, credentialIDs: query.ids,
            encryptions: responseMode.isEncrypted ? encryptions : [], recipientKey: recipientKey, created: created,
            expires: created.addingTimeInterval(Double(validity.components.seconds)))
        let clientID: String?
        let responseURI: String?
        switch verifier {
        case .origin: (clientID, responseURI) = (nil, nil)
        case .client(let id, let uri): (clientID, responseURI) = (id, uri)
        }
        let request = OpenID4VPRequest(
            responseMode: responseMode, nonce: nonce, clientID: clientID, responseURI: responseURI, dcqlQuery: query,
            encryptionKey: try state.encryptionKey, encryptions: state.encryptions)
        return (request, state)
    }

    /// Reads a state written by ``json``, at most ``OpenID4VPLimits/maximumStateByteCount`` bytes.
    ///
    /// Throws `.inputTooLarge` for a longer text, `.malformedState` for text that is not such a
    /// state, `.stateTampered` for one that is not consistent, `.invalidOrigin` for an origin
    /// that is not one.
    public init(json bytes: [UInt8]) throws(OnlineError) {
        let object = try DCAPIObject(
            bytes, name: "request state", limit: OpenID4VPLimits.maximumStateByteCount, code: .malformedState,
            maximumDepth: OpenID4VPLimits.maximumResponseDepth)
        guard try object.string("format") == Self.format else {
            throw OnlineError(.malformedState, "the request state's \"format\" is not \"\(Self.format)\"")
        }
        let modeName = try object.string("responseMode")
        guard let mode = OpenID4VPResponseMode(rawValue: modeName) else {
            throw OnlineError(.malformedState, "the request state's responseMode \"\(UntrustedText.escaped(modeName))\" is not one")
        }
        let verifier: Verifier
        if let origin = try object.optionalString("origin") {
            verifier = .origin(origin)
        } else {
            verifier = .client(id: try object.string("clientId"), responseURI: try object.string("responseUri"))
        }
        let recipientKey = object.value("recipientPrivateKey") == nil ? nil : try object.privateKey("recipientPrivateKey")
        var encryptions: [JWEContentEncryption] = []
        for name in try object.strings("encryptions", limit: OpenID4VPLimits.maximumListCount) ?? [] {
            guard let encryption = JWEContentEncryption(rawValue: name) else {
                throw OnlineError(.malformedState, "the request state's encryption \"\(UntrustedText.escaped(name))\" is not one")
            }
            encryptions.append(encryption)
        }
        try self.init(
            responseMode: mode, nonce: try object.string("nonce"), verifier: verifier,
            credentialIDs: try object.strings("credentialIds", limit: OpenID4VPLimits.maximumCredentialQueryCount) ?? [],
            encryptions: encryptions, recipientKey: recipientKey,
            created: try object.date("created"), expires: try object.date("expires"))
    }

    /// The state as JSON, the private key included.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("format", .string(Self.format)), ("responseMode", .string(responseMode.rawValue))]
        switch verifier {
        case .origin(let origin): members.append(("origin", .string(origin)))
        case .client(let id, let uri): members += [("clientId", .string(id)), ("responseUri", .string(uri))]
        }
        members.append(("nonce", .string(nonce)))
        members.append(("credentialIds", .array(credentialIDs.map(JSONValue.string))))
        if let recipientKey {
            members.append(("encryptions", .array(encryptions.map { .string($0.rawValue) })))
            members.append(("recipientPrivateKey", .string(Base64URL.encode(recipientKey.rawRepresentation))))
        }
        members += [("created", .string(TDate(created).text)), ("expires", .string(TDate(expires).text))]
        return .object(members)
    }

    /// The public key of `client_metadata.jwks` and its `kid`, for an encrypted mode.
    public var encryptionKey: (key: PublicKey, keyID: String)? {
        get throws(OnlineError) {
            guard let recipientKey else { return nil }
            return (recipientKey.publicKey, Base64URL.encode(try JWKThumbprint(of: recipientKey.publicKey).bytes))
        }
    }

    /// The Handover of the request (Appendix B.2.6), with the thumbprint of its key when the
    /// response is encrypted.
    public var handover: any OnlineHandover {
        get throws(OnlineError) {
            let thumbprint = try recipientKey.map { (key) throws(OnlineError) in try JWKThumbprint(of: key.publicKey) }
            switch verifier {
            case .origin(let origin): return OpenID4VPDCAPIHandover(origin: origin, nonce: nonce, jwkThumbprint: thumbprint)
            case .client(let id, let uri): return OpenID4VPHandover(clientID: id, nonce: nonce, jwkThumbprint: thumbprint, responseURI: uri)
            }
        }
    }

    /// The SessionTranscript of the request, which each DeviceResponse must be bound to.
    public var sessionTranscript: SessionTranscriptBinding {
        get throws(OnlineError) { SessionTranscriptBinding(try handover.sessionTranscript) }
    }

    /// The DeviceResponse bytes of `response` for each Credential Query `id`, in request order,
    /// exactly as received (never re-encoded), if `time` is not after ``expires``. For an
    /// encrypted mode the JWE must be ECDH-ES with a content encryption of ``encryptions``, name
    /// this request's key in `kid`, and decrypt with it.
    ///
    /// Throws `.requestExpired` after the expiry; `.responseModeMismatch` for a response not of
    /// the mode; `.jweTooLarge`, `.malformedJWE`, `.unsupportedJWEAlgorithm` or
    /// `.invalidEphemeralKey` for a JWE refused; `.responseDecryptionFailed` for one encrypted to
    /// another key or altered; `.malformedResponse` for a payload that is not
    /// `{"vp_token": ...}`; `.vpTokenMismatch` or `.malformedResponse` from
    /// ``VPToken/deviceResponses(answering:)``.
    public func open(_ response: OpenID4VPResponse, at time: Date) throws(OnlineError) -> [(id: String, deviceResponse: [UInt8])] {
        guard time <= expires else {
            throw OnlineError(
                .requestExpired, "the request expired at \(TDate(expires).text), before the response was verified at \(TDate(time).text)")
        }
        switch (response, recipientKey) {
        case (.vpToken(let token), nil):
            return try token.deviceResponses(answering: credentialIDs)
        case (.encrypted(let compact), let key?):
            let jwe = try CompactJWE(compact: compact, accepting: Set(encryptions))
            let keyID = try encryptionKey?.keyID
            guard jwe.keyID == keyID else {
                throw OnlineError(
                    .responseDecryptionFailed,
                    "the response JWE names the key \(jwe.keyID.map { "\"\(UntrustedText.escaped($0))\"" } ?? "none") (kid), not this request's \"\(keyID ?? "")\": it answers another request")
            }
            let payload: [UInt8]
            do {
                payload = try jwe.decrypt(with: key)
            } catch where error.code == .jweDecryptionFailed {
                throw OnlineError(.responseDecryptionFailed, "the response does not decrypt with this request's key: it was altered (\(error.reason))")
            }
            let object = try DCAPIObject(
                payload, name: "decrypted response", limit: OpenID4VPLimits.maximumResponseByteCount, code: .malformedResponse,
                maximumDepth: OpenID4VPLimits.maximumResponseDepth)
            guard let token = object.value("vp_token") else {
                throw OnlineError(.malformedResponse, "the decrypted response has no \"vp_token\"")
            }
            return try VPToken(json: token).deviceResponses(answering: credentialIDs)
        case (.vpToken, _?):
            throw OnlineError(.responseModeMismatch, "the response is a vp_token in the clear; the request (\(responseMode)) asked for it encrypted")
        case (.encrypted, nil):
            throw OnlineError(.responseModeMismatch, "the response is a JWE; the request (\(responseMode)) asked for the vp_token in the clear")
        }
    }

    /// Throws `code` unless `verifier` is the kind `mode` needs, `.invalidOrigin` for an origin
    /// that is not one, `code` for an empty `client_id` or `response_uri` or a `client_id` an
    /// unsigned request cannot carry.
    private static func check(_ verifier: Verifier, for mode: OpenID4VPResponseMode, code: OnlineError.Code) throws(OnlineError) {
        switch verifier {
        case .origin(let origin):
            guard mode.usesDigitalCredentialsAPI else {
                throw OnlineError(code, "response_mode \(mode) binds the response to a client_id and response_uri, not an origin")
            }
            try DCAPIRequest.checkOrigin(origin)
        case .client(let id, let uri):
            guard !mode.usesDigitalCredentialsAPI else {
                throw OnlineError(code, "response_mode \(mode) goes through the Digital Credentials API and binds the response to an origin")
            }
            guard !id.isEmpty, !uri.isEmpty else {
                throw OnlineError(code, "a request for \(mode) needs a client_id and a response_uri")
            }
            try OpenID4VPRequest.checkUnsignedClientID(id, responseURI: uri, code: code)
        }
    }
}
