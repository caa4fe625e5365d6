import MdocCBOR
import MdocOnline

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request the verifier made and keeps until its answer arrives, tagged by the protocol it
/// was made in, so that a store holds the requests of every protocol the verifier speaks.
///
/// Its state holds the private key that opens the answer: a store keeps it only as long as the
/// request may be answered, and gives it out once (``RequestStateStore/take(_:)``).
public enum StoredRequest: Sendable {
    /// ISO/IEC TS 18013-7 Annex C, Digital Credentials API protocol `org-iso-mdoc`.
    case annexC(DCAPIRequestState)
    /// OpenID4VP 1.0, in any response mode.
    case openID4VP(OpenID4VPRequestState)

    /// The protocol tag a store keeps with the state: `org-iso-mdoc` for Annex C, `openid4vp`
    /// for OpenID4VP 1.0.
    public var protocolName: String {
        switch self {
        case .annexC: DCAPIRequest.protocolIdentifier
        case .openID4VP: RequestCreation.openID4VPProtocolName
        }
    }

    /// When the request expires: an answer after it is refused.
    public var expires: Date {
        switch self {
        case .annexC(let state): state.expires
        case .openID4VP(let state): state.expires
        }
    }

    /// The state as a store keeps it: the JSON of the protocol's state type, private key
    /// included.
    public var stateJSON: String {
        switch self {
        case .annexC(let state): state.json.serialized()
        case .openID4VP(let state): state.json.serialized()
        }
    }

    /// The request a store kept under `protocolName` as `stateJSON`. Throws `storeCorrupt`
    /// (500) for a protocol this verifier does not speak or a state that does not read: the
    /// store was written by something else.
    public init(protocolName: String, stateJSON: String) throws(ServiceError) {
        switch protocolName {
        case DCAPIRequest.protocolIdentifier:
            do {
                self = .annexC(try DCAPIRequestState(json: Array(stateJSON.utf8)))
            } catch {
                throw ServiceError(.internalServerError, "storeCorrupt", "a stored org-iso-mdoc state does not read: \(error)")
            }
        case RequestCreation.openID4VPProtocolName:
            do {
                self = .openID4VP(try OpenID4VPRequestState(json: Array(stateJSON.utf8)))
            } catch {
                throw ServiceError(.internalServerError, "storeCorrupt", "a stored OpenID4VP state does not read: \(error)")
            }
        default:
            throw ServiceError(.internalServerError, "storeCorrupt", "a stored request has the protocol \"\(UntrustedText.escaped(protocolName))\", which this verifier does not speak")
        }
    }
}
