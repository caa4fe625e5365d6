import MdocText

/// The response of OpenID4VP 1.0 to a request for a `vp_token`: the `vp_token` itself
/// (`dc_api`, `direct_post`, section 8.1) or the compact JWE `response` that encrypts it
/// (`dc_api.jwt`, `direct_post.jwt`, section 8.3).
///
/// Through the Digital Credentials API it is the JSON object of the credential's `data`
/// (``json``, Appendix A.4); posted to a `response_uri` it is an
/// `application/x-www-form-urlencoded` body (``formBody``, section 8.2). Reading takes either,
/// bounded by ``OpenID4VPLimits/maximumResponseByteCount``; members other than `vp_token` and
/// `response` (`state`...) are ignored.
public enum OpenID4VPResponse: Sendable, Equatable {
    /// The `vp_token`, not encrypted.
    case vpToken(VPToken)
    /// The compact JWE whose payload is `{"vp_token": ...}`, as received.
    case encrypted(String)

    /// Reads a response: a JSON object when its first non-blank character is `{`, else a form
    /// body (line breaks at its end ignored).
    ///
    /// Throws `.inputTooLarge` for a longer text, `.malformedResponse` for one that is neither,
    /// holds neither or both of `vp_token` and `response`, or whose `vp_token` is not an object
    /// of arrays of strings.
    public init(received bytes: [UInt8]) throws(OnlineError) {
        guard bytes.count <= OpenID4VPLimits.maximumResponseByteCount else {
            throw OnlineError(
                .inputTooLarge, "the response has \(bytes.count) bytes, more than the limit of \(OpenID4VPLimits.maximumResponseByteCount)")
        }
        let vpToken: JSONValue?
        let response: String?
        if bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") {
            let object = try DCAPIObject(
                bytes, name: "response", limit: OpenID4VPLimits.maximumResponseByteCount, code: .malformedResponse,
                maximumDepth: OpenID4VPLimits.maximumResponseDepth)
            vpToken = object.value("vp_token")
            response = try object.optionalString("response")
        } else {
            // A body kept in a file may end with a line break, which a form never holds.
            let pairs = try FormEncoding.decode(Array(bytes.reversed().drop { $0 == 0x0A || $0 == 0x0D }.reversed()))
            response = pairs.first(where: { $0.name == "response" })?.value
            if let text = pairs.first(where: { $0.name == "vp_token" })?.value {
                do {
                    vpToken = try JSONParser.parse(Array(text.utf8), maximumDepth: OpenID4VPLimits.maximumResponseDepth - 1)
                } catch {
                    throw OnlineError(.malformedResponse, "the response form's vp_token is not JSON this reads: \(error.reason) (column \(error.column))")
                }
            } else {
                vpToken = nil
            }
        }
        switch (vpToken, response) {
        case (let token?, nil): self = .vpToken(try VPToken(json: token))
        case (nil, let jwe?): self = .encrypted(jwe)
        case (nil, nil): throw OnlineError(.malformedResponse, "the response has neither \"vp_token\" nor \"response\"")
        case (.some, .some): throw OnlineError(.malformedResponse, "the response has both \"vp_token\" and \"response\"")
        }
    }

    /// `{"vp_token": {...}}` or `{"response": "JWE"}`.
    public var json: JSONValue {
        switch self {
        case .vpToken(let token): return .object([("vp_token", token.json)])
        case .encrypted(let jwe): return .object([("response", .string(jwe))])
        }
    }

    /// `vp_token=...` (the JSON text percent-encoded) or `response=JWE`.
    public var formBody: String {
        switch self {
        case .vpToken(let token): return FormEncoding.encode([("vp_token", token.json.serialized())])
        case .encrypted(let jwe): return FormEncoding.encode([("response", jwe)])
        }
    }

    /// The response as the `response_mode` returns it: ``json`` through the Digital Credentials
    /// API, ``formBody`` to a `response_uri`.
    public func serialized(for mode: OpenID4VPResponseMode) -> String {
        mode.usesDigitalCredentialsAPI ? json.serialized() : formBody
    }
}
