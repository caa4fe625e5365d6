import MdocOnline

/// The body of `POST /requests/{id}/response`, read as an answer of each protocol the service
/// speaks before the request is taken from the store: a body that is an answer of neither is
/// refused without spending the request.
///
/// An Annex C `{"response": ...}` also reads as an OpenID4VP response (the two protocols share
/// the member), so both readings are kept, and the request's protocol chooses one.
struct ReceivedAnswer {
    /// The body as an ISO/IEC TS 18013-7 Annex C response, if it reads as one.
    let annexC: EncryptedResponse?
    /// The body as an OpenID4VP 1.0 response (JSON or form), if it reads as one; an encrypted
    /// one only when its `response` has the form of a compact JWE.
    let openID4VP: OpenID4VPResponse?

    /// Reads `body`; throws `malformedResponse` (400), with the reason of each reading, when it
    /// is neither.
    init(_ body: [UInt8]) throws(ServiceError) {
        var reasons: [String] = []
        do {
            annexC = try EncryptedResponse(json: body)
        } catch {
            annexC = nil
            reasons.append("not an org-iso-mdoc response: \(error.reason)")
        }
        do {
            let response = try OpenID4VPResponse(received: body)
            if case .encrypted(let compact) = response {
                // Any algorithm is read here: one the request refuses is its answer all the same.
                _ = try CompactJWE(compact: compact)
            }
            openID4VP = response
        } catch {
            openID4VP = nil
            reasons.append("not an OpenID4VP response: \(error.reason)")
        }
        guard annexC != nil || openID4VP != nil else {
            throw ServiceError(.badRequest, "malformedResponse", "the body is \(reasons.joined(separator: "; "))")
        }
    }
}
