import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import Testing
import MdocTestSupport

/// The issuing country rule of ISO/IEC 18013-5 Annex B as an application adds it: the document
/// signer's countryName is its IACA's, and so is a returned issuing_country.
@Suite struct IACACountryPolicyTests {
    /// The report of `mdoc` verified with the standard set and the country rule.
    static func verify(_ mdoc: TestMdoc, trusting anchors: [Certificate]? = nil) throws -> DocumentReport {
        let report = try DeviceResponseVerifier(trustAnchors: anchors ?? [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            StandardDocumentPolicy()
            IACACountryPolicy()
        }.verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        return try #require(report.documents.first)
    }

    static func countryChecks(_ document: DocumentReport) -> [VerificationCheck] {
        document.checks.filter { $0.kind == .issuerCountry }
    }

    static func withIssuingCountry(_ value: CBOR, pki: TestPKI, nameSpace: String = TestMdoc.nameSpace) throws -> TestMdoc {
        var mdoc = try TestMdoc(pki: pki)
        mdoc.issuerItems.append((nameSpace, TestMdoc.item(digestID: 3, IACACountryPolicy.issuingCountry, value)))
        return mdoc
    }

    @Test("a document signer of its IACA's country, and issuing_country the same, pass")
    func sameCountryPasses() throws {
        let pki = try TestPKI()
        let document = try Self.verify(try Self.withIssuingCountry("US", pki: pki))
        #expect(document.outcome == .verified, "\(document.failures)")
        let checks = Self.countryChecks(document)
        #expect(checks.map(\.subject) == [.certificate(pki.documentSigner), .element(nameSpace: NameSpace.mDL, identifier: "issuing_country")])
        #expect(checks.allSatisfy { $0.passed })
        #expect(checks.first?.detail == "countryName US, as the IACA \"CN=test iaca, C=US\"")
        #expect(document.elements.allSatisfy { $0.verified })
    }

    @Test("a document signer of another country than its IACA fails, and no element is issuer-authenticated")
    func otherDocumentSignerCountryFails() throws {
        let pki = try TestPKI(documentSignerCountry: "NL")
        let document = try Self.verify(try TestMdoc(pki: pki))
        #expect(document.outcome == .issuerAuthenticationFailed)
        #expect(document.failures.map(\.kind) == [.issuerCountry])
        #expect(document.failures.first?.failureCode == .countryMismatch)
        #expect(document.failures.first?.failureReason == "the document signer's countryName NL is not its IACA's, US (\"CN=test iaca, C=US\")")
        #expect(document.elements.allSatisfy { !$0.issuerAuthenticated && !$0.verified })
        // The standard set alone does not look at countries.
        #expect(try TestMdoc(pki: pki).verify().outcome == .verified)
    }

    @Test("a certificate without countryName fails", arguments: [(nil, "US"), ("US", nil)] as [(String?, String?)])
    func missingCountryFails(iaca: String?, documentSigner: String?) throws {
        let document = try Self.verify(try TestMdoc(pki: TestPKI(iacaCountry: iaca, documentSignerCountry: documentSigner)))
        #expect(document.failures.map(\.failureCode) == [.countryMismatch])
        #expect(document.failures.first?.failureReason?.contains("has no countryName") == true)
    }

    @Test("an issuing_country of another country, or not text, fails on that element", arguments: ["FR", CBOR.unsignedInt(840)])
    func issuingCountryMismatchFails(value: CBOR) throws {
        let document = try Self.verify(try Self.withIssuingCountry(value, pki: TestPKI()))
        #expect(document.outcome == .issuerAuthenticationFailed)
        let failure = try #require(document.failures.first)
        #expect(document.failures.count == 1)
        #expect(failure.subject == .element(nameSpace: NameSpace.mDL, identifier: "issuing_country"))
        #expect(failure.failureCode == .countryMismatch)
        #expect(Self.countryChecks(document).first?.passed == true)
    }

    @Test("issuing_country is checked in the name spaces asked for only")
    func nameSpacesAsked() throws {
        let mdoc = try Self.withIssuingCountry("FR", pki: TestPKI(), nameSpace: "org.example.other")
        #expect(try Self.verify(mdoc).outcome == .verified)
        let report = try DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            StandardDocumentPolicy()
            IACACountryPolicy(issuingCountryNameSpaces: ["org.example.other"])
        }.verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        #expect(report.documents.first?.failures.map(\.failureCode) == [.countryMismatch])
    }

    @Test("without a chain to a trust anchor the check is not made, and the document fails as it did")
    func untrustedChainIsSkipped() throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        let document = try Self.verify(mdoc, trusting: [try TestPKI(name: "other").iaca])
        #expect(document.outcome == .issuerAuthenticationFailed)
        let check = try #require(Self.countryChecks(document).first)
        #expect(check.outcome == .skipped("the document signer chain did not validate to a trust anchor"))
        #expect(check.subject == .certificate(mdoc.pki.documentSigner))
    }
}
