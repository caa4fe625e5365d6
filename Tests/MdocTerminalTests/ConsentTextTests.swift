import MdocSession
import MdocTerminal
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
}
