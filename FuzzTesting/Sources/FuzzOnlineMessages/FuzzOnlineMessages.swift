import FuzzSupport
import MdocCBOR
import MdocOnline

/// The verifier's states the responses are opened with: an OpenID4VP 1.0 `dc_api` request (a
/// `vp_token` in the clear) and a `direct_post.jwt` one (a JWE), for the Credential Query `id`
/// `mdl`, valid around ``AnnexD/time``.
private let openID4VPStates: [OpenID4VPRequestState] = {
    let query = try? DCQLQuery(credentials: [
        DCQLCredentialQuery(id: "mdl", docType: "org.iso.18013.5.1.mDL", claims: [
            DCQLClaimQuery(nameSpace: "org.iso.18013.5.1", elementIdentifier: "age_over_18", intentToRetain: false),
        ]),
    ])
    guard let query,
          let plain = try? OpenID4VPRequestState.make(query, responseMode: .digitalCredentialsAPI, verifier: .origin("https://verifier.example"), now: AnnexD.time),
          let encrypted = try? OpenID4VPRequestState.make(
              query, responseMode: .directPostJWT, verifier: .client(id: "redirect_uri:https://verifier.example/post", responseURI: "https://verifier.example/post"),
              now: AnnexD.time)
    else { fatalError("the OpenID4VP states cannot be made") }
    return [plain.state, encrypted.state]
}()

/// What an online verifier or wallet reads as text or CBOR (ISO/IEC TS 18013-7 Annex C,
/// OpenID4VP 1.0): the first byte chooses the reader, the rest is its input. Whatever reads
/// must write back to something that reads the same: EncryptionInfo, the Annex C response (CBOR
/// and JSON), request and state, the OpenID4VP request, response (JSON and form) and state. An
/// OpenID4VP response is also opened with a plain and an encrypted state: refused or answered,
/// never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOnlineMessages(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    guard let selector = bytes.first else { return 0 }
    let input = Array(bytes.dropFirst())
    switch selector % 8 {
    case 0:
        if let info = try? EncryptionInfo(encoded: input) {
            precondition((try? EncryptionInfo(base64URL: info.base64URL)) == info, "an EncryptionInfo does not read back")
        }
    case 1:
        if let response = try? EncryptedResponse(encoded: input) {
            precondition((try? EncryptedResponse(encoded: response.cbor.encoded())) == response, "an EncryptedResponse does not read back")
        }
    case 2:
        if let response = try? EncryptedResponse(json: input) {
            precondition((try? EncryptedResponse(json: Array(response.json.serialized().utf8))) == response, "a response object does not read back")
        }
    case 3:
        if let request = try? DCAPIRequest(json: input) {
            let again = try? DCAPIRequest(json: Array(request.json.serialized().utf8))
            precondition(again?.deviceRequestBytes == request.deviceRequestBytes && again?.encryptionInfoText == request.encryptionInfoText,
                         "an Annex C request does not read back")
        }
    case 4:
        if let state = try? DCAPIRequestState(json: input) {
            let again = try? DCAPIRequestState(json: Array(state.json.serialized().utf8))
            precondition(again?.origin == state.origin && again?.expires == state.expires, "an Annex C state does not read back")
        }
    case 5:
        if let request = try? OpenID4VPRequest(json: input) {
            let again = try? OpenID4VPRequest(json: Array(request.json.serialized().utf8))
            precondition(
                again?.dcqlQuery == request.dcqlQuery && again?.nonce == request.nonce && again?.responseMode == request.responseMode
                    && again?.clientID == request.clientID && again?.responseURI == request.responseURI
                    && again?.encryptions == request.encryptions && again?.encryptionKey?.keyID == request.encryptionKey?.keyID,
                "an OpenID4VP request does not read back")
        }
    case 6:
        if let response = try? OpenID4VPResponse(received: input) {
            precondition((try? OpenID4VPResponse(received: Array(response.json.serialized().utf8))) == response, "a response does not read back as JSON")
            precondition((try? OpenID4VPResponse(received: Array(response.formBody.utf8))) == response, "a response does not read back as a form")
            for state in openID4VPStates {
                if let answers = try? state.open(response, at: AnnexD.time) {
                    precondition(answers.map(\.id) == state.credentialIDs, "a vp_token opened to other ids than the request's")
                }
            }
        }
    default:
        if let state = try? OpenID4VPRequestState(json: input) {
            let again = try? OpenID4VPRequestState(json: Array(state.json.serialized().utf8))
            precondition(again?.nonce == state.nonce && again?.verifier == state.verifier && again?.credentialIDs == state.credentialIDs,
                         "an OpenID4VP state does not read back")
        }
    }
    return 0
}
