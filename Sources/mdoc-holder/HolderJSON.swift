import MdocErrors
import MdocFiles
import MdocPresentation
import MdocSession
import MdocTerminal
import MdocText

/// What `mdoc-holder present --json` prints, one object per line (docs/json-report.md): the
/// engagement of each session, then how it ended with every request and what was released.
enum HolderJSON {
    /// `{"schemaVersion", "type": "engagement", "uri"}`.
    static func engagement(_ uri: String) -> JSONValue {
        JSONReport.object(.engagement, [("uri", .string(uri))])
    }

    /// A session that ended with `outcome`.
    static func session(
        _ outcome: SessionOutcome, disclosures: [HolderSessionResult.Disclosure]
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [("outcome", .string(name(outcome))), ("description", .string(outcome.description))]
        if case .failed(let error) = outcome {
            members.append(("error", .object([("code", .string(error.code.description)), ("reason", .string(error.reason))])))
        }
        return JSONReport.object(.holderSession, members + requests(disclosures))
    }

    /// A session that did not complete: no reader came, the link was lost, the transport failed.
    static func session(
        failure: ProgramFailure, disclosures: [HolderSessionResult.Disclosure]
    ) -> JSONValue {
        JSONReport.object(.holderSession, [
            ("outcome", .string("failed")), ("description", .string(failure.message.description)),
            ("exitStatus", .int(Int64(failure.status.rawValue))),
        ] + requests(disclosures))
    }

    /// `requests` and the number of elements `released` in all of them.
    private static func requests(
        _ disclosures: [HolderSessionResult.Disclosure]
    ) -> [(String, JSONValue)] {
        let requests = disclosures.map { disclosure -> JSONValue in
            .object([("documents", .array(disclosure.request.documents.map { document in
                .object([
                    ("docType", .string(document.docType)),
                    ("held", .bool(document.isAvailable)),
                    ("reader", reader(document.readerAuthentication)),
                    ("elements", .array(document.elements.map { element in
                        .object([
                            ("nameSpace", .string(element.nameSpace)),
                            ("identifier", .string(element.identifier)),
                            ("intentToRetain", .bool(element.intentToRetain)),
                            ("held", .bool(element.isAvailable)),
                            ("released", .bool(disclosure.released.contains(
                                docType: document.docType, nameSpace: element.nameSpace, identifier: element.identifier))),
                        ])
                    })),
                ])
            }))])
        }
        let released = disclosures.reduce(0) { $0 + $1.released.count }
        return [("requests", .array(requests)), ("released", .int(Int64(released)))]
    }

    /// The reader's identity as reader authentication established it (ISO/IEC 18013-5 9.1.4).
    private static func reader(_ identity: ReaderIdentity) -> JSONValue {
        switch identity {
        case .anonymous:
            return .object([("authentication", .string("anonymous"))])
        case .trusted(let subject, let anchor):
            return .object([("authentication", .string("trusted")), ("subject", .string(subject)), ("trustAnchor", .string(anchor))])
        case .untrusted(let subject, let reason):
            return .object([("authentication", .string("untrusted")), ("subject", subject.map(JSONValue.string) ?? .null),
                            ("reason", .string(reason))])
        }
    }

    /// The outcome's name in JSON.
    private static func name(_ outcome: SessionOutcome) -> String {
        switch outcome {
        case .terminatedByReader: return "terminatedByReader"
        case .terminatedByHolder: return "terminatedByHolder"
        case .transportEnded: return "transportEnded"
        case .failed: return "failed"
        }
    }
}
