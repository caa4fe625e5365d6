import MdocCBOR
import MdocText

/// The `vp_token` of an OpenID4VP 1.0 response (section 8.1): a JSON object whose keys are the
/// `id`s of the DCQL Credential Queries answered and whose values are arrays of presentations;
/// an mdoc presentation is the base64url (without padding) of a DeviceResponse (Appendix B.2.5).
public struct VPToken: Sendable, Equatable {
    /// Each answered `id` with its presentations, as received.
    public let presentations: [Entry]

    /// One member of the `vp_token`.
    public struct Entry: Sendable, Equatable {
        /// The Credential Query `id`.
        public let id: String
        /// The presentations, each a string.
        public let values: [String]

        /// The member `id` with `values`.
        public init(id: String, values: [String]) {
            self.id = id
            self.values = values
        }
    }

    /// The `vp_token` of one DeviceResponse for each Credential Query `id`.
    public init(deviceResponses: [(id: String, deviceResponse: [UInt8])]) {
        presentations = deviceResponses.map { Entry(id: $0.id, values: [Base64URL.encode($0.deviceResponse)]) }
    }

    /// Reads a `vp_token` object. Throws `.malformedResponse` for one that is not an object of
    /// arrays of strings, has more than ``OpenID4VPLimits/maximumCredentialQueryCount`` members
    /// or more than ``OpenID4VPLimits/maximumPresentationCount`` presentations for one.
    init(json value: JSONValue) throws(OnlineError) {
        let object = try DCAPIObject(value, name: "vp_token", code: .malformedResponse)
        guard object.names.count <= OpenID4VPLimits.maximumCredentialQueryCount else {
            throw OnlineError(
                .malformedResponse,
                "the vp_token has \(object.names.count) members, more than the limit of \(OpenID4VPLimits.maximumCredentialQueryCount)")
        }
        var entries: [Entry] = []
        for id in object.names {
            entries.append(Entry(id: id, values: try object.strings(id, limit: OpenID4VPLimits.maximumPresentationCount) ?? []))
        }
        presentations = entries
    }

    /// `{"id": ["presentation"], ...}`.
    public var json: JSONValue {
        .object(presentations.map { ($0.id, .array($0.values.map(JSONValue.string))) })
    }

    /// The DeviceResponse bytes answering each of `ids` (the DCQL query's, none optional), in
    /// that order.
    ///
    /// Throws `.vpTokenMismatch` for an `id` missing, an `id` not in `ids`, or other than one
    /// presentation for an `id`; `.malformedResponse` for a presentation that is not base64url
    /// without padding.
    public func deviceResponses(answering ids: [String]) throws(OnlineError) -> [(id: String, deviceResponse: [UInt8])] {
        if let extra = presentations.first(where: { !ids.contains($0.id) }) {
            throw OnlineError(.vpTokenMismatch, "the vp_token answers \"\(UntrustedText.escaped(extra.id))\", which the request did not ask for")
        }
        var answers: [(id: String, deviceResponse: [UInt8])] = []
        for id in ids {
            guard let entry = presentations.first(where: { $0.id == id }) else {
                throw OnlineError(.vpTokenMismatch, "the vp_token has no presentation for the Credential Query \"\(UntrustedText.escaped(id))\"")
            }
            guard entry.values.count == 1 else {
                throw OnlineError(
                    .vpTokenMismatch, "the vp_token has \(entry.values.count) presentations for \"\(UntrustedText.escaped(id))\"; one was asked for")
            }
            guard !entry.values[0].contains("="), let bytes = Base64URL.decode(entry.values[0]) else {
                throw OnlineError(
                    .malformedResponse, "the vp_token presentation for \"\(UntrustedText.escaped(id))\" is not base64url without padding")
            }
            answers.append((id, bytes))
        }
        return answers
    }
}
