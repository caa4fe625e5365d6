import MdocCBOR
import MdocModel
import MdocOnline
import MdocTerminal
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What bound an online response to its request (ISO/IEC TS 18013-7, OpenID4VP 1.0), shown
/// with the verification report of `verify --online-state` and `verify --handover`: the
/// protocol, and the request parameters its Handover binds (docs/json-report.md,
/// `verificationReport.online`).
struct OnlineBinding {
    /// The protocol's name: `org-iso-mdoc`, or the protocol of a `--handover` SPEC.
    let protocolName: String
    /// What the protocol is, for people.
    let title: String
    /// The bound parameters, each with its JSON member name, in the order shown.
    let parameters: [(member: String, value: String)]

    /// The binding of an Annex C request's state: its origin and nonce, the EncryptionInfo as
    /// sent, when it was made and when it expires.
    init(state: DCAPIRequestState) {
        protocolName = DCAPIRequest.protocolIdentifier
        title = "ISO/IEC TS 18013-7 Annex C, org-iso-mdoc (dcapi Handover)"
        parameters = [
            ("origin", state.origin), ("nonce", Base64URL.encode(state.encryptionInfo.nonce)),
            ("encryptionInfo", state.encryptionInfoText), ("created", TDate(state.created).text), ("expires", TDate(state.expires).text),
        ]
    }

    /// The binding of an OpenID4VP 1.0 request's state, for the presentation of `credentialID`:
    /// who the response is bound to (the origin, or the client_id and response_uri), the nonce,
    /// the JWK thumbprint of the key for an encrypted mode, when the request was made and when
    /// it expires.
    init(state: OpenID4VPRequestState, credentialID: String) {
        // The names of the --handover SPECs of the same Handovers.
        protocolName = state.responseMode.usesDigitalCredentialsAPI ? OnlineHandoverSpec.Kind.openID4VPDCAPI.rawValue : OnlineHandoverSpec.Kind.openID4VP.rawValue
        let handover = state.responseMode.usesDigitalCredentialsAPI ? OpenID4VPDCAPIHandover.identifier : OpenID4VPHandover.identifier
        title = "OpenID4VP 1.0, response_mode \(state.responseMode) (\(handover))"
        var parameters: [(member: String, value: String)] = [("responseMode", state.responseMode.rawValue)]
        switch state.verifier {
        case .origin(let origin): parameters.append(("origin", origin))
        case .client(let id, let uri): parameters += [("clientId", id), ("responseUri", uri)]
        }
        parameters.append(("nonce", state.nonce))
        if let key = try? state.encryptionKey {
            parameters.append(("jwkThumbprint", key.keyID))
        }
        parameters += [("credentialId", credentialID), ("created", TDate(state.created).text), ("expires", TDate(state.expires).text)]
        self.parameters = parameters
    }

    /// The binding of a `--handover` SPEC: its protocol and every parameter given.
    init(spec: OnlineHandoverSpec) {
        protocolName = spec.kind.rawValue
        title = spec.kind.title
        parameters = spec.parameters.map { (Self.memberName(of: $0.name), $0.value) }
    }

    /// The JSON member of a SPEC field: `client_id` is `clientId`.
    private static func memberName(of field: String) -> String {
        let words = field.split(separator: "_")
        return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }

    /// The lines shown before the report.
    var text: TerminalText {
        var out: TerminalText = "Online:      \(title)\n"
        for (member, value) in parameters {
            out += "  \(TerminalText(escaping: member).padded(to: 18)) \(value)\n"
        }
        return out
    }

    /// `verificationReport.online`.
    var json: JSONValue {
        .object([("protocol", .string(protocolName))] + parameters.map { ($0.member, .string($0.value)) })
    }
}
