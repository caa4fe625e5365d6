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

/// What a verifier keeps between an ISO/IEC TS 18013-7 Annex C request and its response: the
/// origin the request is made for, the EncryptionInfo text as sent (with its nonce), the
/// recipient private key that opens the response, and when the request was made and expires.
///
/// It is written as JSON (``json``) and read back (``init(json:)``). **The JSON holds the
/// recipient private key in the clear**: whoever reads it opens the response. Keep it private
/// (the programs write it with mode 0600) and delete it once the response is verified.
///
/// Reading checks that the state is consistent: its nonce and key must be those of the
/// EncryptionInfo it holds, and it must expire after it was made, within
/// ``DCAPILimits/maximumValidity`` (`.stateTampered` otherwise). ``open(_:at:)`` refuses a response
/// after the expiry (`.requestExpired`). Nothing here remembers a state that was used: a
/// verifier that must refuse a second response to one request deletes the state after the first.
public struct DCAPIRequestState: Sendable {
    /// The `format` member of the JSON, naming what the file is.
    public static let format = "swift-mdoc ISO/IEC TS 18013-7 Annex C request state"

    /// The serialised origin the request is made for (`https://verifier.example`).
    public let origin: String
    /// The request's `encryptionInfo`, the base64url text as sent.
    public let encryptionInfoText: String
    /// The EncryptionInfo, decoded: the nonce and the recipient public key.
    public let encryptionInfo: EncryptionInfo
    /// When the request was made, to the second.
    public let created: Date
    /// When the request expires, to the second: a response is refused after it.
    public let expires: Date
    /// The recipient private key, whose public key is the EncryptionInfo's.
    private let recipientKey: PrivateKey

    private init(
        origin: String, encryptionInfoText: String, recipientKey: PrivateKey, created: Date, expires: Date
    ) throws(OnlineError) {
        try DCAPIRequest.checkOrigin(origin)
        let encryptionInfo = try EncryptionInfo(base64URL: encryptionInfoText)
        guard encryptionInfo.recipientPublicKey == recipientKey.publicKey else {
            throw OnlineError(.stateTampered, "the state's recipient key is not the key of its encryptionInfo")
        }
        try Self.checkLifetime(created: created, expires: expires)
        self.origin = origin
        self.encryptionInfoText = encryptionInfoText
        self.encryptionInfo = encryptionInfo
        self.recipientKey = recipientKey
        self.created = created
        self.expires = expires
    }

    /// A new request for `specs` from `origin`, and the state that verifies its response: a fresh
    /// P-256 recipient key and a fresh nonce of ``DCAPILimits/nonceByteCount`` bytes make the
    /// EncryptionInfo; each DocRequest is signed over the request's SessionTranscript when
    /// `readerAuthentication` is given (ISO/IEC 18013-5 9.1.4, as in proximity). The request
    /// expires `validity` after `now` (whole seconds).
    ///
    /// Throws `.invalidOrigin` for an origin that is not a serialised origin, `.malformedState`
    /// for a validity outside ``DCAPILimits/minimumValidity`` to ``DCAPILimits/maximumValidity``,
    /// `.requestConstructionFailed` when no key can be made or the DeviceRequest cannot be built or
    /// signed.
    public static func make(
        _ specs: [DocRequestSpec], origin: String, readerAuthentication: (key: PrivateKey, chain: [Certificate])?,
        now: Date, validity: Duration = DCAPILimits.defaultValidity
    ) throws(OnlineError) -> (request: DCAPIRequest, state: DCAPIRequestState) {
        try DCAPIRequest.checkOrigin(origin)
        try checkValidity(validity)
        let builder: DeviceRequestBuilder
        do {
            builder = try DeviceRequestBuilder(readerAuthentication: readerAuthentication)
        } catch {
            throw OnlineError(.requestConstructionFailed, "reader authentication: \(error.reason)")
        }
        let recipientKey: PrivateKey
        do {
            recipientKey = try PrivateKey(generating: .p256)
        } catch {
            throw OnlineError(.requestConstructionFailed, "no recipient key could be made: \(error.reason)")
        }
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<DCAPILimits.nonceByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let encryptionInfoText = try EncryptionInfo(nonce: nonce, recipientPublicKey: recipientKey.publicKey).base64URL
        let created = TDate(now).date
        let state = try DCAPIRequestState(
            origin: origin, encryptionInfoText: encryptionInfoText, recipientKey: recipientKey, created: created,
            expires: created.addingTimeInterval(Double(validity.components.seconds)))
        let deviceRequest: [UInt8]
        do {
            deviceRequest = try builder.deviceRequest(specs, sessionTranscript: state.sessionTranscript)
        } catch {
            throw OnlineError(.requestConstructionFailed, "the DeviceRequest: \(error.reason)")
        }
        return (try DCAPIRequest(deviceRequestBytes: deviceRequest, encryptionInfoText: encryptionInfoText), state)
    }

    /// Reads a state written by ``json``, at most ``DCAPILimits/maximumStateByteCount`` bytes.
    ///
    /// Throws `.inputTooLarge` for a longer text, `.malformedState` for text that is not such a
    /// state, `.stateTampered` for one that is not consistent, `.malformedEncryptionInfo` for an
    /// `encryptionInfo` that does not read, `.invalidOrigin` for an origin that is not one.
    public init(json bytes: [UInt8]) throws(OnlineError) {
        let object = try DCAPIObject(bytes, name: "request state", limit: DCAPILimits.maximumStateByteCount, code: .malformedState)
        guard try object.string("format") == Self.format else {
            throw OnlineError(.malformedState, "the request state's \"format\" is not \"\(Self.format)\"")
        }
        try self.init(
            origin: try object.string("origin"), encryptionInfoText: try object.string("encryptionInfo"),
            recipientKey: try object.privateKey("recipientPrivateKey"), created: try object.date("created"), expires: try object.date("expires"))
        guard try object.bytes("nonce") == encryptionInfo.nonce else {
            throw OnlineError(.stateTampered, "the request state's nonce is not the nonce of its encryptionInfo")
        }
    }

    /// The state as JSON, the recipient private key included.
    public var json: JSONValue {
        .object([
            ("format", .string(Self.format)),
            ("origin", .string(origin)),
            ("nonce", .string(Base64URL.encode(encryptionInfo.nonce))),
            ("encryptionInfo", .string(encryptionInfoText)),
            ("recipientPrivateKey", .string(Base64URL.encode(recipientKey.rawRepresentation))),
            ("created", .string(TDate(created).text)),
            ("expires", .string(TDate(expires).text)),
        ])
    }

    /// The Handover of the request: its EncryptionInfo text and origin.
    public var handover: DCAPIHandover {
        DCAPIHandover(encryptionInfo: encryptionInfoText, origin: origin)
    }

    /// The SessionTranscript of the request, which its DocRequests are signed over and its
    /// response must be bound to.
    public var sessionTranscript: SessionTranscriptBinding {
        SessionTranscriptBinding(handover.sessionTranscript)
    }

    /// The DeviceResponse bytes of `response`, exactly as sealed (never re-encoded): opened
    /// with HPKE with the recipient key, the encoded SessionTranscript as `info` and an empty
    /// `aad`, if `time` is not after ``expires``.
    ///
    /// Throws `.requestExpired` after the expiry, `.responseDecryptionFailed` when the response
    /// does not open (sealed to another request's key, for another origin, or altered).
    public func open(_ response: EncryptedResponse, at time: Date) throws(OnlineError) -> [UInt8] {
        guard time <= expires else {
            throw OnlineError(
                .requestExpired, "the request expired at \(TDate(expires).text), before the response was verified at \(TDate(time).text)")
        }
        do {
            return try HPKE.open(response.sealed, recipientKey: recipientKey, info: sessionTranscript.itemBytes, suite: .p256SHA256AES128GCM)
        } catch {
            throw OnlineError(
                .responseDecryptionFailed,
                "the response does not open with this request's key and SessionTranscript (origin \(UntrustedText.escaped(origin))): "
                    + "it answers another request or origin, or was altered (\(error.reason))")
        }
    }

    /// Throws `.malformedState` for a validity outside the limits.
    public static func checkValidity(_ validity: Duration) throws(OnlineError) {
        guard validity >= DCAPILimits.minimumValidity, validity <= DCAPILimits.maximumValidity else {
            throw OnlineError(
                .malformedState,
                "a request is valid for \(DCAPILimits.minimumValidity.components.seconds) to \(DCAPILimits.maximumValidity.components.seconds) seconds, not \(validity)")
        }
    }

    /// Throws `.stateTampered` unless a state made at `created` expires within
    /// ``DCAPILimits/minimumValidity`` to ``DCAPILimits/maximumValidity`` after it: a state
    /// read back is held to the bounds a request is made with.
    static func checkLifetime(created: Date, expires: Date) throws(OnlineError) {
        let validity = expires.timeIntervalSince(created)
        guard validity >= Double(DCAPILimits.minimumValidity.components.seconds),
              validity <= Double(DCAPILimits.maximumValidity.components.seconds)
        else {
            throw OnlineError(
                .stateTampered,
                "the state is valid for \(validity) seconds from its creation; a request is valid for \(DCAPILimits.minimumValidity.components.seconds) to \(DCAPILimits.maximumValidity.components.seconds)")
        }
    }
}
