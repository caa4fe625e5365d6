import MdocText

/// A Claims Query of DCQL (OpenID4VP 1.0 section 6.3) for an mdoc: one data element, its
/// claims path pointer `[namespace, data element identifier]` (section 7.2), and the mdoc
/// parameter `intent_to_retain` (Appendix B.2.4), the IntentToRetain of ISO/IEC 18013-5
/// 8.3.2.1.2.1.
public struct DCQLClaimQuery: Sendable, Hashable {
    /// The name space of the data element.
    public let nameSpace: String
    /// The data element identifier.
    public let elementIdentifier: String
    /// `intent_to_retain`, or `nil` when the verifier makes no statement.
    public let intentToRetain: Bool?

    /// 2: the length of an mdoc claims path pointer (section 7.2).
    public static let pathLength = 2

    /// The query for `elementIdentifier` of `nameSpace`.
    public init(nameSpace: String, elementIdentifier: String, intentToRetain: Bool?) {
        self.nameSpace = nameSpace
        self.elementIdentifier = elementIdentifier
        self.intentToRetain = intentToRetain
    }

    /// Reads a Claims Query. Throws `.malformedRequest` for a `path` that is not two strings,
    /// an `intent_to_retain` that is not a boolean; `.unsupportedRequest` for `values` (value
    /// matching is not done here).
    init(json value: JSONValue, at position: String) throws(OnlineError) {
        let object = try DCAPIObject(value, name: position, code: .malformedRequest)
        guard let path = try object.strings("path", limit: Self.pathLength), path.count == Self.pathLength else {
            throw OnlineError(.malformedRequest, "the \(position) has no \"path\" of two strings, [namespace, data element identifier]")
        }
        guard object.value("values") == nil else {
            throw OnlineError(.unsupportedRequest, "the \(position) has \"values\"; value matching is not done here")
        }
        self.init(nameSpace: path[0], elementIdentifier: path[1], intentToRetain: try object.bool("intent_to_retain"))
    }

    /// `{"path": [namespace, element], "intent_to_retain": ...}`.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("path", .array([.string(nameSpace), .string(elementIdentifier)]))]
        if let intentToRetain { members.append(("intent_to_retain", .bool(intentToRetain))) }
        return .object(members)
    }
}
