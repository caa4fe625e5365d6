import MdocCBOR
import MdocSession
import MdocText

/// A query of the Digital Credentials Query Language (OpenID4VP 1.0 section 6) asking for mdocs:
/// its Credential Queries, each answered in the `vp_token` under its `id` by one DeviceResponse.
///
/// Read here are the members an mdoc request needs: `credentials` with `id`, `format`
/// (`mso_mdoc` only), `meta.doctype_value` and `claims` (`path`, `intent_to_retain`); unknown
/// members are ignored, as section 6 asks. What would change which credentials or claims are
/// returned and is not evaluated here, `credential_sets`, `claim_sets` and `values`, is refused
/// (`.unsupportedRequest`) rather than ignored.
public struct DCQLQuery: Sendable, Hashable {
    /// `credentials`, in request order, with distinct `id`s.
    public let credentials: [DCQLCredentialQuery]

    /// The query of `credentials`. Throws `.malformedRequest` for none, more than
    /// ``OpenID4VPLimits/maximumCredentialQueryCount``, or an `id` given twice.
    public init(credentials: [DCQLCredentialQuery]) throws(OnlineError) {
        guard !credentials.isEmpty, credentials.count <= OpenID4VPLimits.maximumCredentialQueryCount else {
            throw OnlineError(
                .malformedRequest,
                "the DCQL query has \(credentials.count) Credential Queries; 1 to \(OpenID4VPLimits.maximumCredentialQueryCount) are read here")
        }
        var seen = Set<String>()
        for query in credentials where !seen.insert(query.id).inserted {
            throw OnlineError(.malformedRequest, "the DCQL query has the Credential Query id \"\(UntrustedText.escaped(query.id))\" twice")
        }
        self.credentials = credentials
    }

    /// The query of `specs`, one Credential Query each, whose `id` is the doc type with every
    /// character other than a letter, a digit, `_` or `-` made `_` (`org_iso_18013_5_1_mDL`),
    /// followed by `-2`, `-3`... for a doc type asked for again.
    public init(specs: [DocRequestSpec]) throws(OnlineError) {
        var queries: [DCQLCredentialQuery] = []
        var used = Set<String>()
        for spec in specs {
            let base = String(spec.docType.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" }
                .prefix(OpenID4VPLimits.maximumCredentialIDLength - 4))
            var id = base
            var repeats = 1
            while used.contains(id) {
                repeats += 1
                id = "\(base)-\(repeats)"
            }
            used.insert(id)
            queries.append(try DCQLCredentialQuery(id: id, spec: spec))
        }
        try self.init(credentials: queries)
    }

    /// Reads the `dcql_query` of a request. Throws `.malformedRequest` for a query that is not
    /// as section 6 says, `.unsupportedRequest` for what is not evaluated here.
    init(json value: JSONValue) throws(OnlineError) {
        let object = try DCAPIObject(value, name: "dcql_query", code: .malformedRequest)
        guard object.value("credential_sets") == nil else {
            throw OnlineError(.unsupportedRequest, "the dcql_query has \"credential_sets\", which are not evaluated here")
        }
        guard let elements = try object.array("credentials", limit: OpenID4VPLimits.maximumCredentialQueryCount) else {
            throw OnlineError(.malformedRequest, "the dcql_query has no \"credentials\"")
        }
        var queries: [DCQLCredentialQuery] = []
        for (index, element) in elements.enumerated() {
            queries.append(try DCQLCredentialQuery(json: element, at: "dcql_query Credential Query \(index)"))
        }
        try self.init(credentials: queries)
    }

    /// `{"credentials": [...]}`.
    public var json: JSONValue {
        .object([("credentials", .array(credentials.map(\.json)))])
    }

    /// The `id`s of the Credential Queries, in request order.
    public var ids: [String] { credentials.map(\.id) }
}
