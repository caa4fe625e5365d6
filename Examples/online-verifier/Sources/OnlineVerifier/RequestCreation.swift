import MdocCBOR
import MdocModel
import MdocOnline
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The body of `POST /requests`: what the page wants asked, in which protocol, for which
/// origin, for how long.
///
/// ```
/// {"origin": "https://verifier.example", "docType": "org.iso.18013.5.1.mDL",
///  "elements": {"org.iso.18013.5.1": ["age_over_18", "portrait"]},
///  "validity": 300, "intentToRetain": false}
/// ```
/// `protocol` is `org-iso-mdoc` (ISO/IEC TS 18013-7 Annex C, when absent) or `openid4vp`
/// (OpenID4VP 1.0), which takes a `responseMode` (`dc_api`, `dc_api.jwt` when absent,
/// `direct_post`, `direct_post.jwt`). `origin` is required through the Digital Credentials API
/// (Annex C, `dc_api`, `dc_api.jwt`) and refused for `direct_post` and `direct_post.jwt`,
/// whose responses are bound to the verifier's `client_id` and `response_uri` instead.
/// `validity` (seconds, `DCAPILimits.defaultValidity` when absent, within
/// `DCAPILimits.minimumValidity` to `DCAPILimits.maximumValidity`) and `intentToRetain`
/// (IntentToRetain of every element, ISO/IEC 18013-5 8.3.2.1.2.1; false when absent) are
/// optional.
public struct RequestCreation: Sendable {
    /// The protocol of a request, with what binds its response.
    public enum RequestProtocol: Sendable, Equatable {
        /// ISO/IEC TS 18013-7 Annex C (`org-iso-mdoc`), for the page at `origin`.
        case annexC(origin: String)
        /// OpenID4VP 1.0 in `responseMode`: for the page at `origin` through the Digital
        /// Credentials API, else (`origin` nil) posted to the verifier's `response_uri`.
        case openID4VP(OpenID4VPResponseMode, origin: String?)
    }

    /// The `protocol` member naming OpenID4VP 1.0.
    public static let openID4VPProtocolName = "openid4vp"

    /// The protocol, and the origin the response is bound to where it has one.
    public let requestProtocol: RequestProtocol
    /// The one document asked for: its type and elements.
    public let spec: DocRequestSpec
    /// How long the request may be answered.
    public let validity: Duration

    private struct Body: Decodable {
        let `protocol`: String?
        let responseMode: String?
        let origin: String?
        let docType: String
        let elements: [String: [String]]
        let validity: Int64?
        let intentToRetain: Bool?
    }

    /// Reads a body of at most ``ServiceLimits/maximumCreationByteCount`` bytes (the caller
    /// bounds it). Throws `malformedBody` (400) naming the member that is missing or of the
    /// wrong type, `invalidOrigin`, `invalidValidity` or `malformedBody` for a request with no
    /// element.
    public init(json bytes: [UInt8]) throws(ServiceError) {
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(bytes))
        } catch let DecodingError.keyNotFound(key, context) {
            throw ServiceError(.badRequest, "malformedBody", "the request has no \"\(Self.path(context.codingPath + [key]))\"")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw ServiceError(.badRequest, "malformedBody", "the request's \"\(Self.path(context.codingPath))\" is not of its type (protocol, responseMode, origin, docType: string; elements: object of arrays of strings; validity: integer; intentToRetain: boolean)")
        } catch {
            throw ServiceError(.badRequest, "malformedBody", "the request is not JSON")
        }
        requestProtocol = try Self.requestProtocol(of: body)
        switch requestProtocol {
        case .annexC(let origin), .openID4VP(_, let origin?):
            do {
                try DCAPIRequest.checkOrigin(origin)
            } catch {
                throw ServiceError(.badRequest, "invalidOrigin", "\"origin\": \(error.reason)")
            }
        case .openID4VP(_, nil):
            break
        }
        validity = .seconds(body.validity ?? DCAPILimits.defaultValidity.components.seconds)
        do {
            try DCAPIRequestState.checkValidity(validity)
        } catch {
            throw ServiceError(.badRequest, "invalidValidity", "\"validity\": \(error.reason)")
        }
        guard !body.docType.isEmpty else {
            throw ServiceError(.badRequest, "malformedBody", "the request's \"docType\" is empty")
        }
        guard !body.elements.isEmpty, body.elements.allSatisfy({ !$0.value.isEmpty }) else {
            throw ServiceError(.badRequest, "malformedBody", "the request's \"elements\" must name at least one element in each of at least one name space")
        }
        let retain = body.intentToRetain ?? false
        let nameSpaces = body.elements.sorted { $0.key < $1.key }.map { nameSpace, identifiers in
            (key: nameSpace, value: OrderedMap(identifiers.map { (key: $0, value: retain) }))
        }
        spec = DocRequestSpec(docType: body.docType, nameSpaces: OrderedMap(nameSpaces))
    }

    /// The protocol `body` names, with its origin: `malformedBody` (400) for an unknown
    /// protocol or response mode, a response mode for Annex C, and an origin missing where the
    /// response is bound to it or given where it is not.
    private static func requestProtocol(of body: Body) throws(ServiceError) -> RequestProtocol {
        switch body.protocol ?? DCAPIRequest.protocolIdentifier {
        case DCAPIRequest.protocolIdentifier:
            guard body.responseMode == nil else {
                throw ServiceError(.badRequest, "malformedBody", "\"responseMode\" belongs to OpenID4VP; an \(DCAPIRequest.protocolIdentifier) request has none")
            }
            guard let origin = body.origin else {
                throw ServiceError(.badRequest, "malformedBody", "the request has no \"origin\": an \(DCAPIRequest.protocolIdentifier) response is bound to the page's origin")
            }
            return .annexC(origin: origin)
        case openID4VPProtocolName:
            let modes = OpenID4VPResponseMode.allCases.map(\.rawValue).joined(separator: ", ")
            let name = body.responseMode ?? OpenID4VPResponseMode.digitalCredentialsAPIJWT.rawValue
            guard let mode = OpenID4VPResponseMode(rawValue: name) else {
                throw ServiceError(.badRequest, "malformedBody", "the request's \"responseMode\" \"\(UntrustedText.escaped(name))\" is not one of \(modes)")
            }
            switch (mode.usesDigitalCredentialsAPI, body.origin) {
            case (true, nil):
                throw ServiceError(.badRequest, "malformedBody", "the request has no \"origin\": a \(mode) response is bound to the page's origin")
            case (false, .some):
                throw ServiceError(
                    .badRequest, "malformedBody",
                    "the request has an \"origin\", but a \(mode) response is bound to the verifier's client_id and response_uri (OpenID4VP 1.0 Appendix B.2.6.1), not to an origin")
            default:
                return .openID4VP(mode, origin: body.origin)
            }
        case let other:
            throw ServiceError(
                .badRequest, "malformedBody",
                "the request's \"protocol\" \"\(UntrustedText.escaped(other))\" is not \(DCAPIRequest.protocolIdentifier) or \(openID4VPProtocolName)")
        }
    }

    /// A coding path as `elements.org.iso.18013.5.1[0]`, its keys (the peer's text) escaped.
    private static func path(_ keys: [any CodingKey]) -> String {
        let parts: [String] = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(UntrustedText.escaped(key.stringValue))" }
        return String(parts.joined().drop { (character: Character) in character == "." })
    }
}
