import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocSession
import Testing
import MdocTestSupport

@Suite("ResponseBuilder (ISO/IEC 18013-5 8.3.2.1.2.2, 8.3.2.1.2.3, 9.1.3)")
struct ResponseBuilderTests {
    typealias Fixture = IssuanceFixture

    static let nameSpace = IssuanceFixture.nameSpace
    static let docType = IssuanceFixture.docType

    /// A presentation of one credential: the credential, its PKI, a session and a request.
    struct Presentation {
        let pki: TestPKI
        let credential: Credential
        let transcript: SessionTranscriptBinding
        let eReaderKey: PrivateKey

        init(deviceCurve: Curve = .p256, readerCurve: Curve = .p256) throws {
            pki = try TestPKI()
            credential = try Fixture.credential(pki, deviceCurve: deviceCurve)
            (transcript, eReaderKey) = try Fixture.session(readerCurve: readerCurve)
        }

        func respond(
            to request: DeviceRequest, approved: ElementSelection,
            builder: ResponseBuilder = ResponseBuilder(), credentials: [Credential]? = nil
        ) throws -> DeviceResponse {
            try builder.deviceResponse(
                request: request, credentials: credentials ?? [credential], approved: approved,
                sessionTranscript: transcript, eReaderKey: eReaderKey.publicKey)
        }

        func verify(_ response: DeviceResponse) throws -> VerificationReport {
            let verifier = DeviceResponseVerifier(trustAnchors: [pki.iaca], sessionTranscript: transcript, readerKey: eReaderKey)
            return try verifier.verify(response.encoded(), at: TestPKI.referenceTime)
        }
    }

    static let mDLRequest = IssuanceFixture.request([
        (IssuanceFixture.docType, [(IssuanceFixture.nameSpace, ["family_name", "given_name", "age_over_18", "portrait"])]),
    ])

    static func returnedIdentifiers(_ response: DeviceResponse) -> [String] {
        (response.documents ?? []).flatMap { ($0.issuerSigned.nameSpaces ?? OrderedMap()).values.flatMap { $0.map(\.value.elementIdentifier) } }
    }

    @Test("all approved: every requested element the credential holds is returned and verifies with a DeviceMac")
    func allApproved() throws {
        let presentation = try Presentation()
        let response = try presentation.respond(to: Self.mDLRequest, approved: .all(requestedIn: Self.mDLRequest))
        #expect(response.status == .ok)
        #expect(response.documentErrors == nil)
        #expect(Self.returnedIdentifiers(response) == ["family_name", "given_name", "age_over_18"])
        // portrait was requested and approved but the credential does not hold it.
        let document = try #require(response.documents?.first)
        #expect(document.errors == Errors(nameSpaces: [Self.nameSpace: ["portrait": .dataNotReturned]]))
        #expect(document.deviceSigned.nameSpaces.bytes == [0xA0])
        guard case .deviceMac(let mac) = document.deviceSigned.deviceAuth else {
            Issue.record("expected a DeviceMac, found \(document.deviceSigned.deviceAuth)")
            return
        }
        #expect(mac.payload == nil)
        #expect(mac.algorithm == .hmac256)

        let report = try presentation.verify(response)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.deviceAuthenticationMethod == .mac)
        #expect(report.documents.first?.elements.map(\.identifier) == ["family_name", "given_name", "age_over_18"])
    }

    @Test("the returned items are the credential's bytes, and the IssuerAuth is unchanged")
    func itemsCopiedByteExact() throws {
        let presentation = try Presentation()
        let response = try presentation.respond(to: Self.mDLRequest, approved: .all(requestedIn: Self.mDLRequest))
        let document = try #require(response.documents?.first)
        for item in document.issuerSigned.nameSpaces?[Self.nameSpace] ?? [] {
            let issued = presentation.credential.item(nameSpace: Self.nameSpace, identifier: item.value.elementIdentifier)
            #expect(item.bytes == issued?.bytes)
        }
        #expect(document.issuerSigned.issuerAuth.encoded() == presentation.credential.issuerSigned.issuerAuth.encoded())

        // Entries of the credential's IssuerSigned other than nameSpaces and issuerAuth are not released.
        var issuerSigned = presentation.credential.issuerSigned
        issuerSigned.additionalEntries.append("private", "not for readers")
        let extended = try Credential(docType: Self.docType, issuerSigned: issuerSigned, deviceKey: presentation.credential.deviceKey)
        let response2 = try presentation.respond(to: Self.mDLRequest, approved: .all(requestedIn: Self.mDLRequest), credentials: [extended])
        #expect(response2.documents?.first?.issuerSigned.additionalEntries.isEmpty == true)
        #expect(Self.returnedIdentifiers(response2) == ["family_name", "given_name", "age_over_18"])
    }

    @Test("a subset approved: only those elements, the rest in the document's errors")
    func subsetApproved() throws {
        let presentation = try Presentation()
        let approved = ElementSelection([Self.docType: [Self.nameSpace: ["given_name", "age_over_18"]]])
        let response = try presentation.respond(to: Self.mDLRequest, approved: approved)
        #expect(Self.returnedIdentifiers(response) == ["given_name", "age_over_18"])
        let errors = try #require(response.documents?.first?.errors?.nameSpaces[Self.nameSpace])
        #expect(errors.keys == ["family_name", "portrait"])
        #expect(errors.values.allSatisfy { $0 == .dataNotReturned })
        let report = try presentation.verify(response)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.elements.map(\.identifier) == ["given_name", "age_over_18"])
    }

    @Test("nothing approved: no document, the doc type in documentErrors with code 0, status 0")
    func noneApproved() throws {
        let presentation = try Presentation()
        for approved in [ElementSelection.none, ElementSelection([Self.docType: [Self.nameSpace: ["portrait"]]])] {
            let response = try presentation.respond(to: Self.mDLRequest, approved: approved)
            #expect(response.documents == nil)
            #expect(response.documentErrors == [DocumentError(errors: [Self.docType: .dataNotReturned])])
            #expect(response.status == .ok)
            let report = try presentation.verify(response)
            #expect(report.outcome == .noDocuments)
            #expect(report.documentErrors == [VerificationReport.DocumentErrorEntry(docType: Self.docType, code: 0)])
        }
    }

    @Test("an element approved but not requested is never returned")
    func approvedButNotRequested() throws {
        let presentation = try Presentation()
        let request = Fixture.request([(Self.docType, [(Self.nameSpace, ["age_over_18"])])])
        let approved = ElementSelection([Self.docType: [Self.nameSpace: ["age_over_18", "family_name", "birth_date", "document_number"]]])
        let response = try presentation.respond(to: request, approved: approved)
        #expect(Self.returnedIdentifiers(response) == ["age_over_18"])
        #expect(response.documents?.first?.errors == nil)
        // Approved for another doc type only: not returned.
        let otherDocType = ElementSelection([DocType.eudiPID: [Self.nameSpace: ["age_over_18"]]])
        #expect(try presentation.respond(to: request, approved: otherDocType).documents == nil)
    }

    @Test("a doc type the holder does not have goes to documentErrors; the others are returned")
    func missingDocType() throws {
        let presentation = try Presentation()
        let request = Fixture.request([
            (DocType.eudiPID, [(NameSpace.eudiPID, ["family_name"])]),
            (Self.docType, [(Self.nameSpace, ["family_name"])]),
        ])
        let response = try presentation.respond(to: request, approved: .all(requestedIn: request))
        #expect(response.status == .ok)
        #expect(response.documents?.map(\.docType) == [Self.docType])
        #expect(response.documentErrors == [DocumentError(errors: [DocType.eudiPID: .dataNotReturned])])
        let report = try presentation.verify(response)
        #expect(report.outcome == .verified, "\(report.failureSummary)")

        let none = try presentation.respond(to: request, approved: .all(requestedIn: request), credentials: [])
        #expect(none.documents == nil)
        #expect(none.documentErrors?.flatMap(\.errors.keys) == [DocType.eudiPID, Self.docType])
    }

    @Test("two credentials: each DocRequest is answered from the credential of its doc type")
    func twoCredentials() throws {
        let presentation = try Presentation()
        let pid = try Fixture.issuer(presentation.pki).issueCredential(
            docType: DocType.eudiPID, nameSpaces: [(NameSpace.eudiPID, [("family_name", "Doe"), ("nationality", "NL")])],
            deviceKey: PrivateKey(generating: .p256), validityInfo: Fixture.validityInfo)
        let request = Fixture.request([
            (DocType.eudiPID, [(NameSpace.eudiPID, ["nationality"])]),
            (Self.docType, [(Self.nameSpace, ["given_name"])]),
        ])
        let response = try presentation.respond(
            to: request, approved: .all(requestedIn: request), credentials: [presentation.credential, pid])
        #expect(response.documents?.map(\.docType) == [DocType.eudiPID, Self.docType])
        #expect(Self.returnedIdentifiers(response) == ["nationality", "given_name"])
        let report = try presentation.verify(response)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
    }

    // MARK: Device authentication (9.1.3)

    @Test("MAC when the device key and EReaderKey share an ECDH curve", arguments: [Curve.p256, .p384, .x25519])
    func macOnSameCurve(curve: Curve) throws {
        let presentation = try Presentation(deviceCurve: curve, readerCurve: curve)
        let response = try presentation.respond(to: Self.mDLRequest, approved: .all(requestedIn: Self.mDLRequest))
        let report = try presentation.verify(response)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.deviceAuthenticationMethod == .mac)
    }

    @Test("a signature when EReaderKey is on another curve or the device key cannot agree keys",
          arguments: [(Curve.p256, Curve.p384), (.p384, .p256), (.ed25519, .x25519)])
    func signatureOtherwise(deviceCurve: Curve, readerCurve: Curve) throws {
        let presentation = try Presentation(deviceCurve: deviceCurve, readerCurve: readerCurve)
        let response = try presentation.respond(to: Self.mDLRequest, approved: .all(requestedIn: Self.mDLRequest))
        let document = try #require(response.documents?.first)
        guard case .deviceSignature(let signature) = document.deviceSigned.deviceAuth else {
            Issue.record("expected a DeviceSignature, found \(document.deviceSigned.deviceAuth)")
            return
        }
        #expect(signature.payload == nil)
        let report = try presentation.verify(response)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.deviceAuthenticationMethod == .signature)
    }

    @Test("the signature policy signs even when a MAC is possible")
    func signaturePolicy() throws {
        let presentation = try Presentation()
        let response = try presentation.respond(
            to: Self.mDLRequest, approved: .all(requestedIn: Self.mDLRequest), builder: ResponseBuilder(deviceAuthentication: .signature))
        let report = try presentation.verify(response)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.deviceAuthenticationMethod == .signature)
        #expect(ResponseBuilder().deviceAuthentication == .preferMAC)
    }

    @Test("the MAC is bound to the session: another transcript fails device authentication")
    func macBoundToSession() throws {
        let presentation = try Presentation()
        let response = try presentation.respond(to: Self.mDLRequest, approved: .all(requestedIn: Self.mDLRequest))
        let (otherTranscript, _) = try Fixture.session()
        let verifier = DeviceResponseVerifier(
            trustAnchors: [presentation.pki.iaca], sessionTranscript: otherTranscript, readerKey: presentation.eReaderKey)
        let report = verifier.verify(response, at: TestPKI.referenceTime)
        #expect(report.outcome == .deviceAuthenticationFailed)
    }

    @Test("an X25519 device key cannot sign: with EReaderKey on another curve, or the signature policy, building fails")
    func x25519DeviceKeyWithoutMAC() throws {
        let mismatched = try Presentation(deviceCurve: .x25519, readerCurve: .p256)
        let error = #expect(throws: PresentationError.self) {
            try mismatched.respond(to: Self.mDLRequest, approved: .all(requestedIn: Self.mDLRequest))
        }
        #expect(error?.code == .deviceAuthenticationUnavailable)
        #expect(error?.reason.contains("P-256") == true)

        let policy = try Presentation(deviceCurve: .x25519, readerCurve: .x25519)
        let policyError = #expect(throws: PresentationError.self) {
            try policy.respond(
                to: Self.mDLRequest, approved: .all(requestedIn: Self.mDLRequest), builder: ResponseBuilder(deviceAuthentication: .signature))
        }
        #expect(policyError?.code == .deviceAuthenticationUnavailable)
        #expect(policyError?.reason.contains("signature policy") == true)
        // Nothing to return needs no device authentication.
        #expect(try mismatched.respond(to: Self.mDLRequest, approved: .none).status == .ok)
    }

    @Test("online (no EReaderKey): a DeviceSignature under the MAC policy; an X25519 device key cannot answer")
    func onlinePresentation() throws {
        let presentation = try Presentation()
        let response = try ResponseBuilder(deviceAuthentication: .preferMAC).deviceResponse(
            request: Self.mDLRequest, credentials: [presentation.credential], approved: .all(requestedIn: Self.mDLRequest),
            sessionTranscript: presentation.transcript)
        guard case .deviceSignature = response.documents?.first?.deviceSigned.deviceAuth else {
            Issue.record("an online response is not signed")
            return
        }
        let report = try DeviceResponseVerifier(trustAnchors: [presentation.pki.iaca], sessionTranscript: presentation.transcript)
            .verify(response.encoded(), at: TestPKI.referenceTime)
        #expect(report.outcome == .verified)

        let x25519 = try Presentation(deviceCurve: .x25519)
        let error = #expect(throws: PresentationError.self) {
            try ResponseBuilder().deviceResponse(
                request: Self.mDLRequest, credentials: [x25519.credential], approved: .all(requestedIn: Self.mDLRequest),
                sessionTranscript: x25519.transcript)
        }
        #expect(error?.code == .deviceAuthenticationUnavailable)
        #expect(error?.reason.contains("online presentation") == true)
    }

    // MARK: Requests that cannot be read (8.3.2.1.2.3)

    @Test("a request that is not CBOR gets status 11, one that is not a DeviceRequest status 12")
    func errorResponses() throws {
        let notCBOR = #expect(throws: CBORError.self) { try DeviceRequest(encoded: [0xA1, 0x61]) }
        let notCBORResponse = ResponseBuilder.errorResponse(for: try #require(notCBOR))
        #expect(notCBORResponse.status == .cborDecodingError)
        #expect(notCBORResponse.documents == nil && notCBORResponse.documentErrors == nil)

        let trailing = #expect(throws: CBORError.self) { try DeviceRequest(encoded: [0xA0, 0x00]) }
        #expect(ResponseBuilder.status(for: try #require(trailing)) == .cborDecodingError)

        let invalid: [CBOR] = [
            ["version": "1.0"],
            ["version": 1, "docRequests": []],
            ["version": "1.0", "docRequests": [["itemsRequest": "not embedded"]]],
        ]
        for item in invalid {
            let error = #expect(throws: CBORError.self) { try DeviceRequest(encoded: item.encoded()) }
            #expect(ResponseBuilder.errorResponse(for: try #require(error)).status == .cborValidationError, "\(item)")
        }
        #expect(ResponseBuilder.errorResponse(for: CBORError(.invalidValue, "x")).encoded()
            == (["version": "1.0", "status": 12] as CBOR).encoded())
    }
}

@Suite("ElementSelection")
struct ResponseBuilderSelectionTests {
    @Test("a selection drops what becomes empty, so equal approvals are equal")
    func normalised() {
        var selection = ElementSelection()
        #expect(selection.isEmpty && selection == .none)
        selection.insert(docType: "d", nameSpace: "n", identifier: "a")
        selection.insert(docType: "d", nameSpace: "n", identifier: "b")
        #expect(selection.contains(docType: "d", nameSpace: "n", identifier: "a"))
        #expect(!selection.contains(docType: "d", nameSpace: "m", identifier: "a"))
        #expect(selection.contains(docType: "d"))
        selection.remove(docType: "d", nameSpace: "n", identifier: "a")
        #expect(selection == ElementSelection(["d": ["n": ["b"]]]))
        selection.remove(docType: "d", nameSpace: "n", identifier: "b")
        #expect(selection == .none)
        #expect(!selection.contains(docType: "d"))
        #expect(ElementSelection(["d": ["n": []], "e": [:]]) == .none)
        #expect(ElementSelection(["d": ["n": ["b", "a"]]]).description == "ElementSelection(d/n/a, d/n/b)")
        #expect(ElementSelection.none.description == "ElementSelection(none)")
    }

    @Test("all(requestedIn:) approves every requested element of every DocRequest")
    func allRequested() {
        let request = IssuanceFixture.request([
            ("d1", [("n1", ["a", "b"]), ("n2", ["c"])]),
            ("d2", [("n1", ["a"])]),
        ])
        #expect(ElementSelection.all(requestedIn: request) == ElementSelection([
            "d1": ["n1": ["a", "b"], "n2": ["c"]],
            "d2": ["n1": ["a"]],
        ]))
    }
}
