import MdocCrypto
import MdocModel
import MdocSession
import MdocText

/// Renders a ``RequestVerificationReport`` (`mdoc-reader verify-request`) as readable text or
/// as JSON: per DocRequest, the reader certificate chain and every check under the Annex B
/// reader authentication profile, the readerAuth signature, and the elements requested with
/// intent to retain, which is what a holder decides on.
///
/// Everything but the toolkit's own words came from the reader (doc types, name spaces,
/// identifiers, certificate names), so the text is ``TerminalText`` and escapes it.
package enum RequestReportRenderer {
    /// The readable report, the verdicts in `palette`'s colours.
    package static func text(_ report: RequestVerificationReport, palette: TerminalPalette = .plain) -> TerminalText {
        let count = report.docRequests.count
        var out: TerminalText = "DeviceRequest \(report.version), \(count) DocRequest\(count == 1 ? "" : "s")\n"
        out += "Checked at \(TDate(report.time).text): \(outcomeText(report.outcome, palette))\n"
        for document in report.docRequests {
            let authentication = document.readerAuthentication
            out += "\nDocRequest \(document.index): \(document.itemsRequest.docType): \(outcomeText(document.outcome, palette))\n"
            out += "  Holder sees: \(authentication.identity)\n"
            if !authentication.certificateChain.isEmpty {
                out += "  Certificate chain (readerAuth x5chain, leaf first):\n"
                for (position, certificate) in authentication.certificateChain.enumerated() {
                    out += "    [\(position)] \(certificate.subject)\n"
                    out += "        issuer \(certificate.issuer), serial \(certificate.serialNumber)\n"
                    out += "        valid \(TDate(certificate.notValidBefore).text) to \(TDate(certificate.notValidAfter).text)\n"
                }
                if let anchor = authentication.trustAnchor {
                    out += "    trust anchor: \(anchor)\n"
                }
            }
            out += "  Checks:\n"
            for check in authentication.checks {
                out += "    " + ReportRenderer.line(check, palette) + "\n"
            }
            if let validation = authentication.chainValidation {
                out += "  Certificate checks (ISO/IEC 18013-5 Annex B, mdoc reader authentication profile):\n"
                for failure in validation.failures {
                    out += "    \(palette.failed("FAIL")) \(TerminalText(escaping: failure.check.description).padded(to: 19)) \(failure.certificate?.subject ?? ""): \(failure.reason)\n"
                }
                for check in validation.passedChecks {
                    out += "    \(palette.passed("ok"))   \(TerminalText(escaping: check.check.description).padded(to: 19)) \(check.certificate.subject): \(check.detail)\n"
                }
            }
            for (nameSpace, elements) in document.itemsRequest.nameSpaces {
                out += "  Requested in \(nameSpace):\n"
                for (identifier, intentToRetain) in elements {
                    let name = DataElementCatalogue.displayName(of: identifier, in: nameSpace)
                    out += "    \(TerminalText(escaping: identifier).padded(to: 22)) \(TerminalText(escaping: name).padded(to: 26)) "
                    out += intentToRetain ? "intent to retain\n" : "not retained\n"
                }
            }
        }
        return out
    }

    /// The report as JSON (docs/json-report.md).
    package static func json(_ report: RequestVerificationReport) -> JSONValue {
        JSONReport.object(.requestVerification, [
            ("outcome", .string(report.outcome.rawValue)),
            ("time", .string(TDate(report.time).text)),
            ("version", .string(report.version)),
            ("docRequests", .array(report.docRequests.map(json))),
        ])
    }

    private static func json(_ document: RequestVerificationReport.DocRequestReport) -> JSONValue {
        let authentication = document.readerAuthentication
        var members: [(String, JSONValue)] = [
            ("docType", .string(document.itemsRequest.docType)),
            ("outcome", .string(document.outcome.rawValue)),
            ("holderSees", .string(authentication.identity.description)),
        ]
        if let reader = authentication.readerCertificate { members.append(("readerCertificate", .string(reader))) }
        if let anchor = authentication.trustAnchor { members.append(("trustAnchor", .string(anchor))) }
        members.append(("certificateChain", .array(authentication.certificateChain.map { certificate in
            .object([
                ("subject", .string(certificate.subject)),
                ("issuer", .string(certificate.issuer)),
                ("serialNumber", .string(certificate.serialNumber)),
                ("notBefore", .string(TDate(certificate.notValidBefore).text)),
                ("notAfter", .string(TDate(certificate.notValidAfter).text)),
            ])
        })))
        members.append(("checks", .array(authentication.checks.map(ReportRenderer.json))))
        let validation = authentication.chainValidation
        members.append(("certificateChecks", .array(
            (validation?.failures ?? []).map { failure in
                .object([
                    ("certificate", .string(failure.certificate?.subject ?? "")), ("check", .string(failure.check.description)),
                    ("result", .string("failed")), ("reason", .string(failure.reason)),
                ])
            } + (validation?.passedChecks ?? []).map { check in
                .object([
                    ("certificate", .string(check.certificate.subject)), ("check", .string(check.check.description)),
                    ("result", .string("passed")), ("detail", .string(check.detail)),
                ])
            })))
        members.append(("nameSpaces", .object(document.itemsRequest.nameSpaces.map { nameSpace, elements in
            (nameSpace, .object(elements.map { identifier, intentToRetain in (identifier, .object([("intentToRetain", .bool(intentToRetain))])) }))
        })))
        return .object(members)
    }

    private static func outcomeText(_ outcome: RequestVerificationReport.Outcome, _ palette: TerminalPalette) -> TerminalText {
        switch outcome {
        case .authenticated: return palette.passed("READER AUTHENTICATED")
        case .failed: return palette.failed("FAILED (reader authentication)")
        case .anonymous: return palette.partial("ANONYMOUS (no reader authentication)")
        }
    }
}
