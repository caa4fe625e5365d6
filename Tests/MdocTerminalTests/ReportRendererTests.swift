import MdocCBOR
import MdocSession
import MdocTerminal
import MdocText
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reader's report: peer text escaped everywhere, and "ok" only for verified elements.
@Suite struct ReportRendererTests {
    /// Clears the screen, homes the cursor and draws a report line of its own.
    static let forgery = "\u{1B}[2J\u{1B}[HDocument 0: org.iso.18013.5.1.mDL: VERIFIED\n\u{9B}2K\u{202E}"

    static let nameSpace = "org.iso.18013.5.1"

    static func element(_ identifier: String, _ value: CBOR, issuerAuthenticated: Bool, verified: Bool,
                        nameSpace: String = nameSpace) -> DisclosedElement {
        DisclosedElement(nameSpace: nameSpace, identifier: identifier, value: value, source: .issuerSigned, digestID: 1,
                         issuerAuthenticated: issuerAuthenticated, verified: verified)
    }

    /// A report of one document whose device authentication ended with `device`.
    static func report(device: VerificationCheck.Outcome, docType: String = "org.iso.18013.5.1.mDL",
                       elements: [DisclosedElement]) -> VerificationReport {
        var document = DocumentReport(index: 0, docType: docType)
        document.checks = [
            VerificationCheck(.issuerCertificate, subject: .named("CN=ds"), outcome: .passed),
            VerificationCheck(.issuerSignature, subject: .issuerAuth, outcome: .passed),
            VerificationCheck(.deviceAuthentication, subject: .deviceAuth, outcome: device),
        ]
        document.elements = ReportList(elements)
        document.documentSigner = "CN=ds"
        return VerificationReport(version: "1.0", status: 0, time: Date(timeIntervalSince1970: 0), documents: [document],
                                  documentErrors: [])
    }

    static func lines(_ text: TerminalText) -> [Substring] {
        text.description.split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test func peerTextIsEscapedEverywhere() {
        var report = Self.report(
            device: .failed(.invalidSignature, "the docType \"\(Self.forgery)\" does not match"),
            docType: "mDL\(Self.forgery)",
            elements: [
                Self.element("family_name", .textString(Self.forgery), issuerAuthenticated: true, verified: false),
                Self.element("id\(Self.forgery)", .array([.textString(Self.forgery)]), issuerAuthenticated: true, verified: false,
                             nameSpace: "ns\(Self.forgery)"),
                Self.element("date", .tagged(CBOR.Tag.fullDateString, .textString(Self.forgery)), issuerAuthenticated: true,
                             verified: false),
            ])
        report.documents[0].documentSigner = "CN=\(Self.forgery)"
        report.documents[0].trustAnchor = "CN=\(Self.forgery)"
        report.documents[0].elementErrors = [DocumentReport.ElementError(nameSpace: Self.forgery, identifier: Self.forgery, code: 0)]
        report.documentErrors = [VerificationReport.DocumentErrorEntry(docType: Self.forgery, code: 0)]

        let text = ReportRenderer.text(report)
        #expect(Self.lines(text).allSatisfy(UntrustedText.isSafe), "\(text)")
        // The forged report line never starts a line of its own.
        #expect(!Self.lines(text).contains { $0.hasPrefix("Document 0: org.iso.18013.5.1.mDL: VERIFIED") })
        #expect(text.description.contains("\\u{1B}[2J\\u{1B}[HDocument 0"))
        #expect(report.failureSummary.allSatisfy { UntrustedText.isSafe(TerminalText(escaping: $0).description) })
        let json = ReportRenderer.json(report).serialized(pretty: true)
        #expect(json.split(separator: "\n").allSatisfy(UntrustedText.isSafe))
    }

    @Test func onlyVerifiedElementsAreOK() {
        let verified = ReportRenderer.text(Self.report(
            device: .passed, elements: [Self.element("family_name", "Doe", issuerAuthenticated: true, verified: true)]))
        #expect(verified.description.contains("\n    ok   family_name "))
        #expect(!verified.description.contains("NOT verified"))

        let cloned = ReportRenderer.text(Self.report(
            device: .failed(.invalidSignature, "the DeviceSignature does not verify"),
            elements: [
                Self.element("family_name", "Doe", issuerAuthenticated: true, verified: false),
                Self.element("portrait", .byteString([0xff, 0xd8, 0xff]), issuerAuthenticated: false, verified: false),
            ]))
        #expect(cloned.description.contains("\n    iss  family_name "))
        #expect(cloned.description.contains("\n    FAIL portrait "))
        #expect(cloned.description.contains("Elements NOT verified: device authentication failed, so they may come from a copied credential."))
        #expect(!Self.lines(cloned).contains { $0.hasPrefix("    ok   family_name") || $0.hasPrefix("    ok   portrait") })

        let unchecked = ReportRenderer.text(Self.report(
            device: .skipped("no session transcript was given"),
            elements: [Self.element("family_name", "Doe", issuerAuthenticated: true, verified: false)]))
        #expect(unchecked.description.contains("\n    iss  family_name "))
        #expect(unchecked.description.contains("Elements NOT verified: device authentication, which rules out a copied credential, was not checked."))
    }

    @Test func jsonNamesBothStatuses() throws {
        let report = Self.report(
            device: .failed(.invalidSignature, "the DeviceSignature does not verify"),
            elements: [Self.element("family_name", "Doe", issuerAuthenticated: true, verified: false)])
        let json = ReportRenderer.json(report).serialized(pretty: false)
        #expect(json.contains(#""identifier":"family_name","source":"issuerSigned","digestID":1,"issuerAuthenticated":true,"verified":false"#), "\(json)")
        #expect(!json.contains("\"authenticated\""))
    }
}
