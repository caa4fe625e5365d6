import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocText

/// The request of ISO/IEC TS 18013-7 Annex C, protocol `org-iso-mdoc` of the W3C Digital
/// Credentials API: a DeviceRequest and the EncryptionInfo of the response, each as base64url
/// text.
///
/// ```
/// {"deviceRequest": base64url(DeviceRequest), "encryptionInfo": base64url(EncryptionInfo)}
/// ```
/// Both texts are kept as sent: the wallet hashes `encryptionInfo` as it is into the
/// ``DCAPIHandover``, and each DocRequest's reader authentication signs the SessionTranscript
/// that Handover makes with the request's origin. ``DCAPIRequestState/make(_:origin:readerAuthentication:now:validity:)``
/// makes one; the wallet reads one with ``init(json:)`` and answers it with
/// ``seal(_:origin:)``.
public struct DCAPIRequest: Sendable {
    /// The protocol identifier of the Digital Credentials API request.
    public static let protocolIdentifier = "org-iso-mdoc"

    /// The DeviceRequest as sent.
    public let deviceRequestBytes: [UInt8]
    /// The DeviceRequest, decoded (its ItemsRequestBytes as sent).
    public let deviceRequest: DeviceRequest
    /// `encryptionInfo`: the base64url text as sent.
    public let encryptionInfoText: String
    /// The EncryptionInfo, decoded.
    public let encryptionInfo: EncryptionInfo

    /// The request of `deviceRequestBytes` and the EncryptionInfo text `encryptionInfoText`.
    init(deviceRequestBytes: [UInt8], encryptionInfoText: String) throws(OnlineError) {
        do {
            deviceRequest = try DeviceRequest(encoded: deviceRequestBytes)
        } catch {
            throw OnlineError(.malformedRequest, "the request's deviceRequest is not a DeviceRequest: \(error)")
        }
        self.deviceRequestBytes = deviceRequestBytes
        self.encryptionInfoText = encryptionInfoText
        encryptionInfo = try EncryptionInfo(base64URL: encryptionInfoText)
    }

    /// Reads the request object, at most ``DCAPILimits/maximumRequestByteCount`` bytes of JSON.
    ///
    /// Throws `.inputTooLarge` for a longer text, `.malformedRequest` for one that is not the
    /// object or whose `deviceRequest` is not a DeviceRequest, `.malformedEncryptionInfo` for an
    /// `encryptionInfo` that does not read.
    public init(json bytes: [UInt8]) throws(OnlineError) {
        let object = try DCAPIObject(bytes, name: "request", limit: DCAPILimits.maximumRequestByteCount, code: .malformedRequest)
        try self.init(deviceRequestBytes: try object.bytes("deviceRequest"), encryptionInfoText: try object.string("encryptionInfo"))
    }

    /// The request object `{"deviceRequest": ..., "encryptionInfo": ...}`.
    public var json: JSONValue {
        .object([("deviceRequest", .string(Base64URL.encode(deviceRequestBytes))), ("encryptionInfo", .string(encryptionInfoText))])
    }

    /// The Handover of this request from `origin`.
    public func handover(origin: String) -> DCAPIHandover {
        DCAPIHandover(encryptionInfo: encryptionInfoText, origin: origin)
    }

    /// The SessionTranscript `[null, null, ["dcapi", dcapiInfoHash]]` of this request from
    /// `origin`: what reader authentication signs and device authentication is bound to.
    public func sessionTranscript(origin: String) -> SessionTranscriptBinding {
        SessionTranscriptBinding(handover(origin: origin).sessionTranscript)
    }

    /// The wallet's answer: `deviceResponse` (encoded, bound to ``sessionTranscript(origin:)``)
    /// sealed with HPKE (RFC 9180 base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256,
    /// AES-128-GCM) to the `recipientPublicKey`, with the encoded SessionTranscript as `info`
    /// and an empty `aad`.
    ///
    /// Throws `.invalidOrigin` for an origin that is not a serialised origin,
    /// `.responseEncryptionFailed` for a response over the HPKE limit or a crypto failure.
    public func seal(_ deviceResponse: [UInt8], origin: String) throws(OnlineError) -> EncryptedResponse {
        try Self.checkOrigin(origin)
        do {
            return EncryptedResponse(sealed: try HPKE.seal(
                deviceResponse, to: encryptionInfo.recipientPublicKey, info: sessionTranscript(origin: origin).itemBytes,
                suite: .p256SHA256AES128GCM))
        } catch {
            throw OnlineError(.responseEncryptionFailed, "the response cannot be sealed to the request's key: \(error.reason)")
        }
    }

    /// Throws `.invalidOrigin` unless `origin` is the ASCII serialisation of a tuple origin
    /// (HTML Standard 7.1.1): a scheme, `://`, a host and maybe a port, with no path (not even
    /// `/`), query, fragment or user information: what the platform hashes into the Handover.
    public static func checkOrigin(_ origin: String) throws(OnlineError) {
        let shown = UntrustedText.escaped(origin)
        guard let separator = origin.firstRange(of: "://") else {
            throw OnlineError(.invalidOrigin, "\"\(shown)\" is not an origin: it has no scheme:// (https://verifier.example)")
        }
        let scheme = origin[..<separator.lowerBound]
        let authority = origin[separator.upperBound...]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
              scheme.first?.isLetter == true
        else {
            throw OnlineError(.invalidOrigin, "\"\(shown)\" is not an origin: its scheme is not one")
        }
        guard !authority.isEmpty else {
            throw OnlineError(.invalidOrigin, "\"\(shown)\" is not an origin: it has no host")
        }
        if let refused = authority.first(where: { !$0.isASCII || "/?#@ \\".contains($0) || $0.isWhitespace }) {
            let what = refused == "/" ? "a path (an origin has none, not even a final /)" : "\"\(UntrustedText.escaped(String(refused)))\""
            throw OnlineError(.invalidOrigin, "\"\(shown)\" is not an origin: after the host it has \(what)")
        }
    }
}
