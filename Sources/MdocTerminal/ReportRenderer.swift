import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocText

/// Renders a ``VerificationReport`` as the readable text `mdoc-reader` prints, or as JSON.
///
/// Everything in a report but the toolkit's own words came from the peer (docTypes, name
/// spaces, identifiers, values, certificate subjects, the failure reasons that quote them), so
/// the text is ``TerminalText`` and escapes all of it. An element is marked "ok" only when it
/// is verified (``DisclosedElement/verified``).
package enum ReportRenderer {
    /// The readable report: the outcome first, then per document its issuer, validity, every
    /// check and every element with its readable name; the verdicts in `palette`'s colours. A
    /// trust anchor found in `trustEntries` is told with where it came from.
    package static func text(
        _ report: VerificationReport, palette: TerminalPalette = .plain, trustEntries: [Certificate: TrustEntry] = [:]
    ) -> TerminalText {
        var out: TerminalText = "DeviceResponse \(report.version), status \(DeviceResponse.Status(rawValue: report.status))\n"
        out += "Verified at \(TDate(report.time).text): \(outcomeText(report.outcome, palette))\n"
        for document in report.documents {
            out += "\nDocument \(document.index): \(document.docType): \(outcomeText(document.outcome, palette))\n"
            if let signer = document.documentSigner {
                out += "  Issuer:      \(signer)"
                if let anchor = document.trustAnchor {
                    out += " (trust anchor \(anchor)"
                    if let entry = anchorCertificate(document).flatMap({ trustEntries[$0] }) { out += ", from \(entry.summary)" }
                    out += ")"
                }
                out += "\n"
            }
            if let validity = document.validity {
                out += "  Valid:       \(TDate(validity.validFrom).text) to \(TDate(validity.validUntil).text), signed \(TDate(validity.signed).text)\n"
            }
            if let method = document.deviceAuthenticationMethod {
                out += "  Device auth: \(method.rawValue)\n"
            }
            if let status = document.status {
                out += "  Status:      \(statusText(status, palette)): \(status.reason)\n"
            }
            out += "  Checks:\n"
            for check in document.checks {
                out += "    " + line(check, palette) + "\n"
            }
            if !document.elements.isEmpty, document.outcome != .verified {
                out += "  Elements NOT verified: \(notVerifiedReason(document.outcome)). \"iss\" marks an element only issuer data authentication vouches for.\n"
            }
            var currentNameSpace: String? = nil
            for element in document.elements {
                if element.nameSpace != currentNameSpace {
                    out += "  Elements in \(element.nameSpace)\(element.source == .deviceSigned ? " (device signed)" : ""):\n"
                    currentNameSpace = element.nameSpace
                }
                let name = DataElementCatalogue.displayName(of: element.identifier, in: element.nameSpace)
                out += "    \(marker(element, palette)) \(TerminalText(escaping: element.identifier).padded(to: 22)) \(TerminalText(escaping: name).padded(to: 26)) \(ElementValueText.render(element.value))\n"
            }
            for error in document.elementErrors {
                out += "  Not returned: \(error.nameSpace)/\(error.identifier) (error code \(error.code))\n"
            }
        }
        for error in report.documentErrors {
            out += "\nNot returned: \(error.docType) (error code \(error.code))\n"
        }
        return out
    }

    /// The report as JSON, with the disclosed elements per name space (docs/json-report.md).
    package static func json(_ report: VerificationReport, trustEntries: [Certificate: TrustEntry] = [:]) -> JSONValue {
        JSONReport.object(.verificationReport, [
            ("outcome", .string(report.outcome.rawValue)),
            ("time", .string(TDate(report.time).text)),
            ("version", .string(report.version)),
            ("status", .int(Int64(clamping: report.status))),
            ("documents", .array(report.documents.map { json($0, trustEntries: trustEntries) })),
            ("documentErrors", .array(report.documentErrors.map {
                .object([("docType", .string($0.docType)), ("errorCode", .int($0.code))])
            })),
        ])
    }

    private static func json(_ document: DocumentReport, trustEntries: [Certificate: TrustEntry]) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("docType", .string(document.docType)),
            ("outcome", .string(document.outcome.rawValue)),
        ]
        if let signer = document.documentSigner { members.append(("documentSigner", .string(signer))) }
        if let anchor = document.trustAnchor { members.append(("trustAnchor", .string(anchor))) }
        if let entry = anchorCertificate(document).flatMap({ trustEntries[$0] }) { members.append(("trustEntry", entry.json)) }
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
        if let status = document.status { members.append(("status", json(status))) }
        members.append(("checks", .array(document.checks.map(json))))
        var nameSpaces: [(String, [(String, JSONValue)])] = []
        for element in document.elements {
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

    private static func json(_ status: DocumentStatus) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("value", .string(status.value.rawValue)),
            ("accepted", .bool(status.accepted)),
            ("reason", .string(status.reason)),
        ]
        if let list = status.statusList {
            members.append(("statusList", .object([("uri", .string(list.uri)), ("index", .int(Int64(clamping: list.index)))])))
        }
        if let list = status.identifierList {
            members.append(("identifierList", .object([("uri", .string(list.uri)), ("id", .string(Hex.encode(list.identifier)))])))
        }
        return .object(members)
    }

    private static func statusText(_ status: DocumentStatus, _ palette: TerminalPalette) -> TerminalText {
        switch status.value {
        case .valid: return palette.passed("VALID")
        case .invalid: return palette.failed("INVALID (revoked)")
        case .suspended: return palette.failed("SUSPENDED")
        case .notChecked where status.accepted: return palette.partial("NOT CHECKED (accepted)")
        case .notChecked: return palette.failed("NOT CHECKED")
        }
    }

    private static func outcomeText(_ outcome: VerificationReport.Outcome, _ palette: TerminalPalette) -> TerminalText {
        switch outcome {
        case .verified: return palette.passed("VERIFIED")
        case .issuerAuthenticationFailed: return palette.failed("FAILED (issuer data authentication)")
        case .deviceAuthenticationFailed: return palette.failed("FAILED (device authentication)")
        case .deviceAuthenticationNotChecked: return palette.partial("ISSUER DATA VERIFIED, device authentication not checked")
        case .noDocuments: return palette.partial("NO DOCUMENTS")
        }
    }

    private static func outcomeText(_ outcome: DocumentReport.Outcome, _ palette: TerminalPalette) -> TerminalText {
        // Every document outcome is also a response outcome, under the same name.
        outcomeText(VerificationReport.Outcome(rawValue: outcome.rawValue) ?? .issuerAuthenticationFailed, palette)
    }

    /// One check as a line of the report: marker, kind, subject and what was found.
    static func line(_ check: VerificationCheck, _ palette: TerminalPalette) -> TerminalText {
        var out: TerminalText = "\(marker(check.outcome, palette)) \(TerminalText(escaping: check.kind.name).padded(to: 21)) \(check.subject.description)"
        switch check.outcome {
        case .passed: out += check.detail.isEmpty ? "" : ": \(check.detail)"
        case .failed(let reason): out += ": \(reason)"
        case .skipped(let reason): out += ": not checked, \(reason)"
        }
        return out
    }

    /// One check in JSON: `check`, `subject`, `result`, and `detail` or `code` and `reason`.
    /// The trust anchor the document's signer chain validated to.
    private static func anchorCertificate(_ document: DocumentReport) -> Certificate? {
        document.chainValidation?.validatedPath?.last
    }

    static func json(_ check: VerificationCheck) -> JSONValue {
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

    /// The marker of a check: "ok", "FAIL" or "--" (not checked), four columns wide; the
    /// colour covers the word only.
    static func marker(_ outcome: VerificationCheck.Outcome, _ palette: TerminalPalette) -> TerminalText {
        switch outcome {
        case .passed: return palette.passed("ok") + "  "
        case .failed: return palette.failed("FAIL")
        case .skipped: return palette.partial("--") + "  "
        }
    }

    /// The marker of an element that issuer data authentication vouches for, in a document
    /// that is not verified.
    private static let issuerOnlyMarker: TerminalText = "iss"

    /// "ok" for a verified element; ``issuerOnlyMarker`` for one that only issuer data
    /// authentication vouches for; "FAIL" for one that nothing vouches for. Four columns wide.
    private static func marker(_ element: DisclosedElement, _ palette: TerminalPalette) -> TerminalText {
        if element.verified { return palette.passed("ok") + "  " }
        return element.issuerAuthenticated ? palette.partial(issuerOnlyMarker) + " " : palette.failed("FAIL")
    }

    /// Why the elements of a document with `outcome` are not verified.
    private static func notVerifiedReason(_ outcome: DocumentReport.Outcome) -> TerminalText {
        switch outcome {
        case .verified: return ""
        case .issuerAuthenticationFailed: return "issuer data authentication failed"
        case .deviceAuthenticationFailed: return "device authentication failed, so they may come from a copied credential"
        case .deviceAuthenticationNotChecked: return "device authentication, which rules out a copied credential, was not checked"
        }
    }
}
