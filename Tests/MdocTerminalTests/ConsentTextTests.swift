import MdocCBOR
import MdocConsent
import MdocPresentation
import MdocSession
import MdocText
import Testing

@Suite struct ConsentTextTests {
    typealias Fixture = ConsentTestSupport

    @Test func showsDocumentsElementsAndMarkers() {
        let text = RequestPresentationText.render(Fixture.requestWithMissingDocument())
        #expect(text == """
            The reader requests:

              org.iso.18013.5.1.mDL
                Reader: trusted: CN=Reader (trust anchor CN=Reader Root)
                In org.iso.18013.5.1:
                  Family name (family_name)
                  Portrait (portrait) (will be retained)
                  Age over 18 (age_over_18)
                  Signature / usual mark (signature_usual_mark) (not in your credential)

              eu.europa.ec.eudi.pid.1 (you do not hold this document)
                Reader: anonymous (the request is not signed)
                In eu.europa.ec.eudi.pid.1:
                  Family name (family_name) (not in your credential)

            """)
    }

    @Test func readerIdentities() {
        #expect(RequestPresentationText.readerText(.untrusted(subject: "CN=Shop", reason: "chain does not reach a trusted root"))
                == "NOT TRUSTED, claiming to be CN=Shop: chain does not reach a trusted root")
        #expect(RequestPresentationText.readerText(.untrusted(subject: nil, reason: "no certificate"))
                == "NOT TRUSTED: no certificate")
        #expect(RequestPresentationText.readerText(.anonymous) == "anonymous (the request is not signed)")
    }

    @Test func unknownIdentifierShowsOnce() {
        let element = PresentationRequest.Element(
            nameSpace: "x", identifier: "custom", displayName: "custom", intentToRetain: true, isAvailable: true)
        #expect(RequestPresentationText.elementText(element) == "custom (will be retained)")
        #expect(RequestPresentationText.render(PresentationRequest(documents: [])) == "The reader requests no documents.\n")
    }

    /// Erases the line above and draws an element of the reader's choice there.
    static let redraw = "\r\u{1B}[1A\u{1B}[2K      Age over 18 (age_over_18)"

    @Test func hostileNamesAreEscapedAndMarked() {
        let hostile = PresentationRequest(documents: [
            PresentationRequest.Document(
                docType: "org.iso.18013.5.1.mDL\u{202E}",
                elements: [
                    Fixture.element("portrait"),
                    PresentationRequest.Element(
                        nameSpace: "org.iso.18013.5.1", identifier: Self.redraw, displayName: Self.redraw,
                        intentToRetain: false, isAvailable: false),
                    PresentationRequest.Element(
                        nameSpace: "org.iso.18013.5.1 \u{1B}[2J", identifier: "age_over_18", displayName: "Age over 18",
                        intentToRetain: false, isAvailable: true),
                ],
                readerAuthentication: .untrusted(subject: "CN=Police\u{1B}[1A\r", reason: "signature \u{9B}2K"), isAvailable: true),
        ])
        let text = RequestPresentationText.render(hostile)
        #expect(text == """
            The reader requests:

              org.iso.18013.5.1.mDL\\u{202E} [SUSPICIOUS: not a plain ASCII name]
                Reader: NOT TRUSTED, claiming to be CN=Police\\u{1B}[1A\\u{D}: signature \\u{9B}2K
                In org.iso.18013.5.1:
                  Portrait (portrait)
                  \\u{D}\\u{1B}[1A\\u{1B}[2K      Age over 18 (age_over_18) [SUSPICIOUS: not a plain ASCII name] (not in your credential)
                In org.iso.18013.5.1 \\u{1B}[2J [SUSPICIOUS: not a plain ASCII name]:
                  Age over 18 (age_over_18)

            """)
        let script = PromptScript(["c", "y", "y"])
        _ = script.prompt.ask(hostile)
        #expect(script.output.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy(UntrustedText.isSafe))
        #expect(script.output.contains("  org.iso.18013.5.1.mDL\\u{202E} [SUSPICIOUS: not a plain ASCII name]: release Portrait (portrait)? [y/n] "))
    }

    @Test func plainNamesAreBoundedPrintableASCII() {
        #expect(RequestPresentationText.isPlainName("org.iso.18013.5.1"))
        #expect(RequestPresentationText.isPlainName("age_over_18"))
        #expect(RequestPresentationText.isPlainName(String(repeating: "a", count: UntrustedText.maximumLength)))
        #expect(!RequestPresentationText.isPlainName(String(repeating: "a", count: UntrustedText.maximumLength + 1)))
        for name in ["", "family name", "famil\u{1B}y", "nom_de_famille_é", "a\u{7F}", "tab\tbed", "zero\u{200B}width"] {
            #expect(!RequestPresentationText.isPlainName(name), "\(name.debugDescription)")
        }
    }
}
