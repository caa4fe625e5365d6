import MdocCBOR
import MdocModel
import MdocOnline
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The body of `POST /requests`: what the page wants asked, for which origin, for how long.
///
/// ```
/// {"origin": "https://verifier.example", "docType": "org.iso.18013.5.1.mDL",
///  "elements": {"org.iso.18013.5.1": ["age_over_18", "portrait"]},
///  "validity": 300, "intentToRetain": false}
/// ```
/// `validity` (seconds, `DCAPILimits.defaultValidity` when absent, within
/// `DCAPILimits.minimumValidity` to `DCAPILimits.maximumValidity`) and `intentToRetain`
/// (IntentToRetain of every element, ISO/IEC 18013-5 8.3.2.1.2.1; false when absent) are
/// optional.
public struct RequestCreation: Sendable {
    /// The web origin the request is made from (`DCAPIRequest.checkOrigin`).
    public let origin: String
    /// The one document asked for: its type and elements.
    public let spec: DocRequestSpec
    /// How long the request may be answered.
    public let validity: Duration

    private struct Body: Decodable {
        let origin: String
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
            throw ServiceError(.badRequest, "malformedBody", "the request's \"\(Self.path(context.codingPath))\" is not of its type (origin, docType: string; elements: object of arrays of strings; validity: integer; intentToRetain: boolean)")
        } catch {
            throw ServiceError(.badRequest, "malformedBody", "the request is not JSON")
        }
        do {
            try DCAPIRequest.checkOrigin(body.origin)
        } catch {
            throw ServiceError(.badRequest, "invalidOrigin", "\"origin\": \(error.reason)")
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
        origin = body.origin
        spec = DocRequestSpec(docType: body.docType, nameSpaces: OrderedMap(nameSpaces))
    }

    /// A coding path as `elements.org.iso.18013.5.1[0]`, its keys (the peer's text) escaped.
    private static func path(_ keys: [any CodingKey]) -> String {
        let parts: [String] = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(UntrustedText.escaped(key.stringValue))" }
        return String(parts.joined().drop { (character: Character) in character == "." })
    }
}
