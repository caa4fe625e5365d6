import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocIssuance
@testable import MdocModel
import MdocSession
import MdocTestSupport
import Testing

/// The responses the project's holder assembles from documents its issuer made are read straight
/// from their bytes, IssuerAuth, DeviceSigned, ValidityInfo and DeviceKeyInfo included, to the
/// value decoding them in full gives.
@Suite("Issued documents in a DeviceResponse read from their bytes as decoded")
struct IssuedResponseReadingTests {
    typealias Fixture = IssuanceFixture

    /// Expects that `response` encoded is read directly and equals the decoded response.
    static func expectReadAsDecoded(_ response: DeviceResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = response.encoded()
        let read = try #require(CBORHeadReader.read(CBORBytes(bytes), DeviceResponse.read), sourceLocation: sourceLocation)
        let decoded = try DeviceResponse(cbor: CBOR.decode(bytes), at: .root)
        #expect(read.cbor == decoded.cbor, sourceLocation: sourceLocation)
        #expect(read.encoded() == bytes, sourceLocation: sourceLocation)
        let (readDocument, decodedDocument) = try (#require(read.documents?.first), #require(decoded.documents?.first))
        // The MSO read from the payload, against the MSO decoded in full.
        let readMSO = try readDocument.issuerSigned.mobileSecurityObjectBytes().value
        let payload = try #require(decodedDocument.issuerSigned.issuerAuth.payload, sourceLocation: sourceLocation)
        let decodedMSO = try MobileSecurityObject(cbor: CBOR.decode(CBOR.decode(payload).embeddedBytes(at: .root)), at: .root)
        #expect(readMSO.validityInfo == decodedMSO.validityInfo, sourceLocation: sourceLocation)
        #expect(readMSO.deviceKeyInfo.cbor == decodedMSO.deviceKeyInfo.cbor, sourceLocation: sourceLocation)
        #expect(readDocument.issuerSigned.issuerAuth == decodedDocument.issuerSigned.issuerAuth, sourceLocation: sourceLocation)
    }

    @Test("a DeviceSignature and a DeviceMac response, with key authorizations and an expected update")
    func issuedResponses() throws {
        let pki = try TestPKI()
        let (transcript, eReaderKey) = try Fixture.session()
        let deviceKey = try PrivateKey(generating: .p256)
        let validity = ValidityInfo(
            signed: Fixture.validityInfo.signed, validFrom: Fixture.validityInfo.validFrom, validUntil: Fixture.validityInfo.validUntil,
            expectedUpdate: Fixture.validityInfo.validUntil)
        let credential = try Fixture.issuer(pki).issueCredential(
            docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements)], deviceKey: deviceKey,
            validityInfo: validity, keyAuthorizations: KeyAuthorizations(nameSpaces: [Fixture.nameSpace]))
        let request = Fixture.request([(Fixture.docType, [(Fixture.nameSpace, Fixture.elements.map(\.identifier))])])
        for policy in [ResponseBuilder.DeviceAuthenticationPolicy.preferMAC, .signature] {
            let response = try ResponseBuilder(deviceAuthentication: policy).deviceResponse(
                request: request, credentials: [credential], approved: .all(requestedIn: request),
                sessionTranscript: transcript, eReaderKey: eReaderKey.publicKey)
            switch (policy, try #require(response.documents?.first).deviceSigned.deviceAuth) {
            case (.preferMAC, .deviceMac), (.signature, .deviceSignature): break
            case (_, let found): Issue.record("\(policy) made \(found)")
            }
            try Self.expectReadAsDecoded(response)
            let verifier = DeviceResponseVerifier(trustAnchors: [pki.iaca], sessionTranscript: transcript, readerKey: eReaderKey)
            let report = try verifier.verify(response.encoded(), at: TestPKI.referenceTime)
            #expect(report.outcome == .verified, "\(report.failureSummary)")
        }
        try Self.expectReadAsDecoded(Fixture.signedResponse(credential.issuerSigned, deviceKey: deviceKey, transcript: transcript))
    }
}
