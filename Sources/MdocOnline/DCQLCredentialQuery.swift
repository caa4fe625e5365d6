import MdocCBOR
import MdocModel
import MdocSession
import MdocText

/// A Credential Query of DCQL (OpenID4VP 1.0 section 6.1) for an mdoc: its `id`, the format
/// `mso_mdoc`, `meta.doctype_value` (Appendix B.2.3) and the data elements asked for.
public struct DCQLCredentialQuery: Sendable, Hashable {
    /// The Credential Format Identifier of mdocs (Appendix B.2).
    public static let format = "mso_mdoc"

    /// `id`: names the presentation in the `vp_token`.
    public let id: String
    /// `meta.doctype_value`: the document type asked for.
    public let docType: String
    /// `claims`: the data elements asked for, in request order.
    public let claims: [DCQLClaimQuery]

    /// The query `id` for `claims` of `docType`. Throws `.malformedRequest` for an `id` that is
    /// empty, longer than ``OpenID4VPLimits/maximumCredentialIDLength`` or holds other than
    /// ASCII letters, digits, `_` and `-`, and for no claims.
    public init(id: String, docType: String, claims: [DCQLClaimQuery]) throws(OnlineError) {
        try Self.checkID(id)
        guard !claims.isEmpty, claims.count <= OpenID4VPLimits.maximumClaimQueryCount else {
            throw OnlineError(
                .malformedRequest,
                "the Credential Query \"\(id)\" has \(claims.count) claims; 1 to \(OpenID4VPLimits.maximumClaimQueryCount) are read here")
        }
        self.id = id
        self.docType = docType
        self.claims = claims
    }

    /// The query `id` for the elements of `spec`, each with its IntentToRetain.
    public init(id: String, spec: DocRequestSpec) throws(OnlineError) {
        var claims: [DCQLClaimQuery] = []
        for (nameSpace, elements) in spec.nameSpaces {
            for (element, retain) in elements {
                claims.append(DCQLClaimQuery(nameSpace: nameSpace, elementIdentifier: element, intentToRetain: retain))
            }
        }
        try self.init(id: id, docType: spec.docType, claims: claims)
    }

    /// Reads a Credential Query. Throws `.malformedRequest` for one that is not as section 6.1
    /// and Appendix B.2.3 say, `.unsupportedRequest` for another format or `claim_sets`.
    init(json value: JSONValue, at position: String) throws(OnlineError) {
        let object = try DCAPIObject(value, name: position, code: .malformedRequest)
        let format = try object.string("format")
        guard format == Self.format else {
            throw OnlineError(
                .unsupportedRequest, "the \(position) asks for the format \"\(UntrustedText.escaped(format))\"; only \(Self.format) is answered here")
        }
        guard object.value("claim_sets") == nil else {
            throw OnlineError(.unsupportedRequest, "the \(position) has \"claim_sets\", which are not evaluated here")
        }
        guard let meta = try object.object("meta") else {
            throw OnlineError(.malformedRequest, "the \(position) has no \"meta\"")
        }
        guard let elements = try object.array("claims", limit: OpenID4VPLimits.maximumClaimQueryCount) else {
            throw OnlineError(.unsupportedRequest, "the \(position) names no claims; only the claims asked for are answered here")
        }
        var claims: [DCQLClaimQuery] = []
        for (index, element) in elements.enumerated() {
            claims.append(try DCQLClaimQuery(json: element, at: "\(position) claim \(index)"))
        }
        try self.init(id: try object.string("id"), docType: try meta.string("doctype_value"), claims: claims)
    }

    /// `{"id", "format": "mso_mdoc", "meta": {"doctype_value"}, "claims": [...]}`.
    public var json: JSONValue {
        .object([
            ("id", .string(id)), ("format", .string(Self.format)), ("meta", .object([("doctype_value", .string(docType))])),
            ("claims", .array(claims.map(\.json))),
        ])
    }

    /// The request of this query as ISO/IEC 18013-5 asks it: the doc type and, per name space,
    /// each element with its IntentToRetain (`false` when the query makes no statement).
    public var docRequestSpec: DocRequestSpec {
        var nameSpaces = OrderedMap<String, OrderedMap<String, Bool>>()
        for claim in claims {
            nameSpaces[claim.nameSpace, default: OrderedMap()][claim.elementIdentifier] = claim.intentToRetain ?? false
        }
        return DocRequestSpec(docType: docType, nameSpaces: nameSpaces)
    }

    /// The query as an unsigned ISO/IEC 18013-5 DeviceRequest of one DocRequest: what a wallet
    /// shows for consent and answers with `ResponseBuilder` (MdocSession), as in proximity.
    public var deviceRequest: DeviceRequest {
        DeviceRequest(docRequests: [DocRequest(itemsRequest: EmbeddedCBOR(docRequestSpec.itemsRequest))])
    }

    /// Throws `.malformedRequest` unless `id` is 1 to ``OpenID4VPLimits/maximumCredentialIDLength``
    /// ASCII letters, digits, `_` and `-` (section 6.1).
    static func checkID(_ id: String) throws(OnlineError) {
        guard !id.isEmpty, id.utf8.count <= OpenID4VPLimits.maximumCredentialIDLength,
              id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else {
            throw OnlineError(
                .malformedRequest,
                "the Credential Query id \"\(UntrustedText.escaped(id))\" is not 1 to \(OpenID4VPLimits.maximumCredentialIDLength) letters, digits, _ and -")
        }
    }
}
