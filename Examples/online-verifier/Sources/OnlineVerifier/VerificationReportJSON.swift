import MdocCBOR
import MdocModel
import MdocOnline
import MdocSession
import MdocText

/// The verification report the service answers with: the `verificationReport` object of
/// docs/json-report.md (`mdoc-reader verify --json`), with its `online` member, written here
/// from the library's public `VerificationReport` since the programs' renderer is not public.
///
/// One difference, so that nothing unverified can be read as data: `nameSpaces` holds only the
/// verified elements (ISO/IEC 18013-5 9.3.1: issuer data authentication vouches for them and
/// their document passed mdoc authentication), where the program's holds every returned one.
/// `elements` lists every returned element with its `issuerAuthenticated` and `verified`.
/// Trust store entries and status lists are not part of the service: `trustEntry` and `status`
/// are never present.
public enum VerificationReportJSON {
    /// The report of `report` with `online`, the binding of its request (``online(_:)``,
    /// ``online(_:credentialID:)``).
    public static func make(_ report: VerificationReport, online: JSONValue) -> JSONValue {
        .object([
            ("schemaVersion", .int(1)),
            ("type", .string("verificationReport")),
            ("outcome", .string(report.outcome.rawValue)),
            ("time", .string(TDate(report.time).text)),
            ("version", .string(report.version)),
            ("status", .int(Int64(clamping: report.status))),
            ("documents", .array(report.documents.map(document))),
            ("documentErrors", .array(report.documentErrors.map {
                .object([("docType", .string($0.docType)), ("errorCode", .int($0.code))])
            })),
            ("online", online),
        ])
    }

    /// `verificationReport.online` of an Annex C request.
    static func online(_ state: DCAPIRequestState) -> JSONValue {
        .object([
            ("protocol", .string(DCAPIRequest.protocolIdentifier)),
            ("origin", .string(state.origin)),
            ("nonce", .string(Base64URL.encode(state.encryptionInfo.nonce))),
            ("encryptionInfo", .string(state.encryptionInfoText)),
            ("created", .string(TDate(state.created).text)),
            ("expires", .string(TDate(state.expires).text)),
        ])
    }

    /// `verificationReport.online` of an OpenID4VP 1.0 request, for the presentation of
    /// `credentialID`: the protocol as `mdoc-reader verify` names it (`openid4vp-dcapi` through
    /// the Digital Credentials API, else `openid4vp`), the response mode, the origin or the
    /// client_id and response_uri, the nonce, the JWK thumbprint of the request's key for an
    /// encrypted mode, the Credential Query id, and when the request was made and expires.
    static func online(_ state: OpenID4VPRequestState, credentialID: String) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("protocol", .string(state.responseMode.usesDigitalCredentialsAPI ? "openid4vp-dcapi" : "openid4vp")),
            ("responseMode", .string(state.responseMode.rawValue)),
        ]
        switch state.verifier {
        case .origin(let origin): members.append(("origin", .string(origin)))
        case .client(let id, let uri): members += [("clientId", .string(id)), ("responseUri", .string(uri))]
        }
        members.append(("nonce", .string(state.nonce)))
        if let key = try? state.encryptionKey {
            members.append(("jwkThumbprint", .string(key.keyID)))
        }
        members += [
            ("credentialId", .string(credentialID)), ("created", .string(TDate(state.created).text)),
            ("expires", .string(TDate(state.expires).text)),
        ]
        return .object(members)
    }

    private static func document(_ document: DocumentReport) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("docType", .string(document.docType)),
            ("outcome", .string(document.outcome.rawValue)),
        ]
        if let signer = document.documentSigner { members.append(("documentSigner", .string(signer))) }
        if let anchor = document.trustAnchor { members.append(("trustAnchor", .string(anchor))) }
        if let rule = document.documentSignerRule {
            members.append(("documentSignerRule", .object([
                ("name", .string(rule.name)),
                ("acceptedExtendedKeyUsages", .array(rule.acceptedExtendedKeyUsages.map(JSONValue.string))),
                ("addedExtendedKeyUsages", .array(rule.addedExtendedKeyUsages.map(JSONValue.string))),
            ])))
        }
        if let validity = document.validity {
            var validityMembers: [(String, JSONValue)] = [
                ("signed", .string(TDate(validity.signed).text)),
                ("validFrom", .string(TDate(validity.validFrom).text)),
                ("validUntil", .string(TDate(validity.validUntil).text)),
            ]
            if let update = validity.expectedUpdate { validityMembers.append(("expectedUpdate", .string(TDate(update).text))) }
            members.append(("validity", .object(validityMembers)))
        }
        if let method = document.deviceAuthenticationMethod {
            members.append(("deviceAuthentication", .string(method.rawValue)))
        }
        members.append(("checks", .array(document.checks.map(check))))
        var nameSpaces: [(String, [(String, JSONValue)])] = []
        for element in document.elements where element.verified {
            let value = element.value.jsonValue(expandEmbedded: true)
            if let index = nameSpaces.firstIndex(where: { $0.0 == element.nameSpace }) {
                nameSpaces[index].1.append((element.identifier, value))
            } else {
                nameSpaces.append((element.nameSpace, [(element.identifier, value)]))
            }
        }
        members.append(("nameSpaces", .object(nameSpaces.map { ($0.0, .object($0.1)) })))
        members.append(("elements", .array(document.elements.map { element in
            var fields: [(String, JSONValue)] = [
                ("nameSpace", .string(element.nameSpace)),
                ("identifier", .string(element.identifier)),
                ("source", .string(element.source.rawValue)),
            ]
            if let digestID = element.digestID { fields.append(("digestID", .int(Int64(clamping: digestID)))) }
            fields.append(("issuerAuthenticated", .bool(element.issuerAuthenticated)))
            fields.append(("verified", .bool(element.verified)))
            return .object(fields)
        })))
        members.append(("errors", .array(document.elementErrors.map {
            .object([("nameSpace", .string($0.nameSpace)), ("identifier", .string($0.identifier)), ("errorCode", .int($0.code))])
        })))
        return .object(members)
    }

    /// One check: `check`, `subject`, `result`, and `detail` or `code` and `reason`.
    private static func check(_ check: VerificationCheck) -> JSONValue {
        var fields: [(String, JSONValue)] = [("check", .string(check.kind.name)), ("subject", .string(check.subject.description))]
        switch check.outcome {
        case .passed:
            fields.append(("result", .string("passed")))
            if !check.detail.isEmpty { fields.append(("detail", .string(check.detail))) }
        case .failed(let failure):
            fields += [("result", .string("failed")), ("code", .string(failure.code.description)), ("reason", .string(failure.reason))]
        case .skipped(let reason):
            fields += [("result", .string("skipped")), ("reason", .string(reason))]
        }
        return .object(fields)
    }
}
