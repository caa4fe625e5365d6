import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("DeviceResponseVerifier on documents issued by a generated PKI (ISO/IEC 18013-5 9.1.2, 9.1.3, 9.3.1)")
struct IssuedDocumentVerificationTests {
    static let day: TimeInterval = 86_400

    /// The checks of the only document.
    static func checks(_ report: VerificationReport, _ kind: VerificationCheck.Kind) -> [VerificationCheck] {
        report.documents.flatMap(\.checks).filter { $0.kind == kind }
    }

    /// The failed checks of every document.
    static func failures(_ report: VerificationReport) -> [VerificationCheck] {
        report.documents.flatMap(\.failures)
    }

    @Test("a document with a DeviceSignature verifies fully")
    func verifiesWithDeviceSignature() throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        let report = try mdoc.verify()
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        let document = try #require(report.documents.first)
        #expect(document.checks.allSatisfy { $0.passed }, "\(document.checks)")
        #expect(document.deviceAuthenticationMethod == .signature)
        #expect(document.documentSigner == "CN=test ds, C=US")
        #expect(document.trustAnchor == "CN=test iaca, C=US")
        #expect(Self.checks(report, .valueDigest).count == 3)
        #expect(Self.checks(report, .deviceAuthentication).count == 1)
        #expect(document.elements.map(\.identifier) == ["family_name", "given_name", "document_number"])
        #expect(document.elements.allSatisfy { $0.issuerAuthenticated && $0.verified })
    }

    @Test("a DeviceSignature or DeviceMac with DeviceAuthenticationBytes attached verifies, with a note (9.1.3)", arguments: [false, true])
    func attachedIdenticalPayload(mac: Bool) throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.payload = .attached
        mdoc.macReaderKey = mac ? try PrivateKey(generating: .p256) : nil
        let report = try mdoc.verify()
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.deviceAuthenticationMethod == (mac ? .mac : .signature))
        let check = try #require(Self.checks(report, .deviceAuthentication).first)
        #expect(check.passed)
        #expect(check.detail.contains("note: the payload is attached, not detached as 9.1.3 requires, and byte-identical"), "\(check.detail)")
        // The same document with the payload detached carries no note.
        mdoc.payload = .detached
        #expect(try Self.checks(mdoc.verify(), .deviceAuthentication).first?.detail.contains("note") == false)
    }

    @Test("an attached payload other than DeviceAuthenticationBytes fails, naming the payload (9.1.3)", arguments: [false, true])
    func attachedOtherPayload(mac: Bool) throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        let expected = mdoc.transcript.deviceAuthenticationBytes(docType: mdoc.docType, deviceNameSpacesBytes: EmbeddedCBOR(mdoc.deviceNameSpaces))
        var other = expected
        other[other.count - 1] ^= 0x01
        mdoc.payload = .attachedOther(other)
        mdoc.macReaderKey = mac ? try PrivateKey(generating: .p256) : nil
        let report = try mdoc.verify()
        #expect(report.outcome == .deviceAuthenticationFailed)
        let failure = try #require(Self.failures(report).first)
        #expect(Self.failures(report).count == 1, "\(report.failureSummary)")
        #expect(failure.failureCode == .payloadMismatch)
        let reason = failure.failureReason ?? ""
        #expect(reason.contains("the \(mac ? "DeviceMac" : "DeviceSignature") carries an attached payload of \(other.count) bytes"), "\(reason)")
        #expect(reason.contains("first difference at byte \(other.count - 1)"), "\(reason)")
        #expect(!reason.contains("does not verify"))
        #expect(report.documents.first?.elements.allSatisfy { $0.source == .issuerSigned } == true)
    }

    @Test("the response verifies the same decoded or encoded")
    func decodedResponse() throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        let report = mdoc.verifier.verify(try DeviceResponse(encoded: mdoc.responseBytes()), at: TestPKI.referenceTime)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
    }

    @Test("an MSO for another docType fails the docType check")
    func docTypeMismatch() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.msoDocType = "org.iso.23220.photoid.1"
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        #expect(Self.failures(report).map(\.kind) == [.docType], "\(report.failureSummary)")
        #expect(Self.failures(report).first?.failureReason?.contains("org.iso.23220.photoid.1") == true)
    }

    @Test("an MSO not yet valid fails the validity check")
    func notYetValid() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.validityInfo = ValidityInfo(
            signed: TDate(TestPKI.referenceTime.addingTimeInterval(-Self.day)),
            validFrom: TDate(TestPKI.referenceTime.addingTimeInterval(1)),
            validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(365 * Self.day)))
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        #expect(Self.failures(report).map(\.kind) == [.validity], "\(report.failureSummary)")
        #expect(Self.failures(report).first?.failureReason?.contains("not yet valid") == true)
    }

    @Test("an expired MSO fails the validity check")
    func expired() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.validityInfo = ValidityInfo(
            signed: TDate(TestPKI.referenceTime.addingTimeInterval(-30 * Self.day)),
            validFrom: TDate(TestPKI.referenceTime.addingTimeInterval(-30 * Self.day)),
            validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(-1)))
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        #expect(Self.failures(report).map(\.kind) == [.validity], "\(report.failureSummary)")
        #expect(Self.failures(report).first?.failureReason?.contains("expired") == true)
    }

    @Test("the validity bounds themselves are valid")
    func validityBoundsInclusive() throws {
        for (from, until) in [(0.0, 365 * Self.day), (-365 * Self.day, 0.0)] {
            var mdoc = try TestMdoc(pki: TestPKI())
            mdoc.validityInfo = ValidityInfo(
                signed: TDate(TestPKI.referenceTime.addingTimeInterval(-Self.day)),
                validFrom: TDate(TestPKI.referenceTime.addingTimeInterval(from)),
                validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(until)))
            let report = try mdoc.verify()
            #expect(report.outcome == .verified, "\(report.failureSummary)")
        }
    }

    @Test("an MSO signed outside the document signer certificate's validity fails the validity check")
    func signedOutsideCertificateValidity() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.validityInfo = ValidityInfo(
            signed: TDate(TestPKI.notBefore.addingTimeInterval(-Self.day)),
            validFrom: TDate(TestPKI.referenceTime.addingTimeInterval(-Self.day)),
            validUntil: TDate(TestPKI.referenceTime.addingTimeInterval(Self.day)))
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        #expect(Self.failures(report).map(\.kind) == [.validity], "\(report.failureSummary)")
    }

    @Test("an element the MSO has no digest for fails its value digest")
    func elementAbsentFromMSO() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.undigestedItems = [(TestMdoc.nameSpace, TestMdoc.item(digestID: 7, "age_over_18", true))]
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        let failures = Self.failures(report)
        #expect(failures.map(\.kind) == [.valueDigest], "\(report.failureSummary)")
        #expect(failures.first?.subject == .element(nameSpace: "org.iso.18013.5.1", identifier: "age_over_18"))
        #expect(failures.first?.failureReason?.contains("digestID 7 is not in the MSO") == true)
        #expect(report.documents.first?.elements.first { $0.identifier == "age_over_18" }?.issuerAuthenticated == false)
        // The other elements' digests match, but their document failed: none is verified.
        #expect(report.documents.first?.elements.filter(\.issuerAuthenticated).count == 3)
        #expect(report.documents.first?.elements.contains { $0.verified } == false)
    }

    @Test("an element in a name space the MSO has no digests for fails its value digest")
    func nameSpaceAbsentFromMSO() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.undigestedItems = [("org.example.other", TestMdoc.item(digestID: 0, "colour", "blue"))]
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        #expect(Self.failures(report).map(\.subject) == [.element(nameSpace: "org.example.other", identifier: "colour")], "\(report.failureSummary)")
    }

    @Test("two returned elements with the same digestID fail")
    func duplicateDigestIDs() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        let familyName = mdoc.issuerItems[0]
        mdoc.issuerItems.append(familyName)
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        let failures = Self.failures(report)
        #expect(failures.map(\.kind) == [.valueDigest], "\(report.failureSummary)")
        #expect(failures.first?.subject == .element(nameSpace: "org.iso.18013.5.1", identifier: "family_name"))
        #expect(failures.first?.failureReason?.contains("more than one") == true)
    }

    @Test("a digestID the MSO does not hold, returned twice, fails as absent then as used twice",
          arguments: ["org.iso.18013.5.1", "org.example.other"])
    func duplicateDigestIDsNotInMSO(nameSpace: String) throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.undigestedItems = [
            (nameSpace, TestMdoc.item(digestID: 70, "colour", "blue")),
            (nameSpace, TestMdoc.item(digestID: 70, "shade", "dark")),
        ]
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        let failures = Self.failures(report)
        let absent: VerificationFailure.Code = nameSpace == TestMdoc.nameSpace ? .digestIDNotInMSO : .nameSpaceNotInMSO
        #expect(failures.map(\.failureCode) == [absent, .duplicateDigestID], "\(report.failureSummary)")
        #expect(failures.map(\.subject) == [
            .element(nameSpace: nameSpace, identifier: "colour"), .element(nameSpace: nameSpace, identifier: "shade"),
        ])
    }

    @Test("an unknown digest algorithm fails the digestAlgorithm check")
    func unknownDigestAlgorithm() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.digestAlgorithm = "SHA-1"
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        #expect(Self.failures(report).map(\.kind) == [.digestAlgorithm], "\(report.failureSummary)")
        #expect(Self.checks(report, .valueDigest).isEmpty)
        #expect(report.documents.first?.elements.allSatisfy { !$0.issuerAuthenticated && !$0.verified } == true)
    }

    @Test("SHA-384 and SHA-512 digests verify", arguments: ["SHA-384", "SHA-512"])
    func otherDigestAlgorithms(name: String) throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.digestAlgorithm = name
        let report = try mdoc.verify()
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(Self.checks(report, .digestAlgorithm).first?.detail == name)
    }

    @Test("a DeviceSignature by another key (a cloned credential) fails device authentication; no element is verified")
    func deviceSignatureByAnotherKey() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.deviceSigningKey = try PrivateKey(generating: .p256)
        let report = try mdoc.verify()
        #expect(report.outcome == .deviceAuthenticationFailed)
        #expect(Self.failures(report).map(\.kind) == [.deviceAuthentication], "\(report.failureSummary)")
        // The issuer data is genuine, so every element is issuer-authenticated, and none is
        // verified: device authentication is what tells the original from a copy.
        let elements = try #require(report.documents.first?.elements)
        #expect(elements.count == 3)
        #expect(elements.allSatisfy { $0.issuerAuthenticated && !$0.verified })
    }

    @Test("without a session transcript device authentication is not checked; no element is verified")
    func noTranscriptVerifiesNoElement() throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        let report = try DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca]).verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        #expect(report.outcome == .deviceAuthenticationNotChecked)
        let elements = try #require(report.documents.first?.elements)
        #expect(elements.count == 3)
        #expect(elements.allSatisfy { $0.issuerAuthenticated && !$0.verified })
    }

    @Test("a DeviceSignature for another session fails device authentication")
    func deviceSignatureForAnotherSession() throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        let verifier = DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: try TestMdoc.sessionTranscript())
        let report = try verifier.verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        #expect(report.outcome == .deviceAuthenticationFailed)
        #expect(Self.failures(report).map(\.kind) == [.deviceAuthentication], "\(report.failureSummary)")
    }

    @Test("an expired document signer certificate fails the issuer certificate, naming it")
    func expiredDocumentSigner() throws {
        let mdoc = try TestMdoc(pki: TestPKI(documentSignerNotAfter: TestPKI.referenceTime.addingTimeInterval(-Self.day)))
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        let failures = Self.failures(report)
        #expect(failures.map(\.kind) == [.issuerCertificate], "\(report.failureSummary)")
        #expect(failures.first?.subject == .certificate(mdoc.pki.documentSigner))
        #expect(failures.first?.failureReason?.contains("validity") == true)
        #expect(Self.checks(report, .issuerSignature).first?.passed == true)
    }

    @Test("a document signed by another IACA's document signer fails the issuer certificate")
    func otherIssuer() throws {
        let mdoc = try TestMdoc(pki: TestPKI(name: "other"))
        let verifier = DeviceResponseVerifier(trustAnchors: [try TestPKI().iaca], sessionTranscript: mdoc.transcript)
        let report = try verifier.verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        #expect(report.outcome == .issuerAuthenticationFailed)
        #expect(Self.failures(report).allSatisfy { $0.kind == .issuerCertificate }, "\(report.failureSummary)")
        #expect(!Self.failures(report).isEmpty)
    }

    // MARK: KeyAuthorizations (9.1.2.4)

    static let deviceSignedAddress: DeviceNameSpaces = DeviceNameSpaces(nameSpaces: [
        TestMdoc.nameSpace: ["resident_address": "1 Main Street"]
    ])

    @Test("a device-signed element without KeyAuthorizations fails key authorization")
    func deviceSignedElementNotAuthorized() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.deviceNameSpaces = Self.deviceSignedAddress
        let report = try mdoc.verify()
        #expect(report.outcome == .deviceAuthenticationFailed)
        let failures = Self.failures(report)
        #expect(failures.map(\.kind) == [.keyAuthorization], "\(report.failureSummary)")
        #expect(failures.first?.subject == .element(nameSpace: "org.iso.18013.5.1", identifier: "resident_address"))
        #expect(Self.checks(report, .deviceAuthentication).first?.passed == true)
        let element = report.documents.first?.elements.first { $0.identifier == "resident_address" }
        #expect(element?.source == .deviceSigned)
        #expect(element?.issuerAuthenticated == false)
        #expect(element?.verified == false)
    }

    @Test("a device-signed element authorised for another element or name space fails key authorization")
    func deviceSignedElementAuthorizedElsewhere() throws {
        for authorizations in [
            KeyAuthorizations(nameSpaces: ["org.iso.18013.5.1.aamva"]),
            KeyAuthorizations(dataElements: [TestMdoc.nameSpace: ["family_name"]]),
            KeyAuthorizations(dataElements: ["org.iso.18013.5.1.aamva": ["resident_address"]]),
        ] {
            var mdoc = try TestMdoc(pki: TestPKI())
            mdoc.deviceNameSpaces = Self.deviceSignedAddress
            mdoc.keyAuthorizations = authorizations
            let report = try mdoc.verify()
            #expect(report.outcome == .deviceAuthenticationFailed)
            #expect(Self.failures(report).map(\.kind) == [.keyAuthorization], "\(report.failureSummary)")
        }
    }

    @Test("a device-signed element authorised by its name space or by dataElements passes")
    func deviceSignedElementAuthorized() throws {
        for authorizations in [
            KeyAuthorizations(nameSpaces: [TestMdoc.nameSpace]),
            KeyAuthorizations(dataElements: [TestMdoc.nameSpace: ["family_name", "resident_address"]]),
        ] {
            var mdoc = try TestMdoc(pki: TestPKI())
            mdoc.deviceNameSpaces = Self.deviceSignedAddress
            mdoc.keyAuthorizations = authorizations
            let report = try mdoc.verify()
            #expect(report.outcome == .verified, "\(report.failureSummary)")
            let check = Self.checks(report, .keyAuthorization)
            #expect(check.count == 1 && check.allSatisfy { $0.passed })
            let element = report.documents.first?.elements.first { $0.identifier == "resident_address" }
            #expect(element?.value == "1 Main Street")
            #expect(element?.source == .deviceSigned)
            #expect(element?.issuerAuthenticated == true)
            #expect(element?.verified == true)
        }
    }

    @Test("an authorised device-signed element is not authenticated when the device signature fails")
    func authorizedElementWithBadSignature() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.deviceNameSpaces = Self.deviceSignedAddress
        mdoc.keyAuthorizations = KeyAuthorizations(nameSpaces: [TestMdoc.nameSpace])
        mdoc.deviceSigningKey = try PrivateKey(generating: .p256)
        let report = try mdoc.verify()
        #expect(report.outcome == .deviceAuthenticationFailed)
        #expect(Self.checks(report, .keyAuthorization).first?.passed == true)
        let element = report.documents.first?.elements.first { $0.identifier == "resident_address" }
        #expect(element?.issuerAuthenticated == false)
        #expect(element?.verified == false)
    }

    // MARK: Responses and received bytes

    @Test("a response with no documents and status 10 is noDocuments")
    func noDocuments() throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        let response = DeviceResponse(
            documentErrors: [DocumentError(errors: [TestMdoc.docType: ErrorCode(rawValue: 0)])], status: .generalError)
        let report = try mdoc.verifier.verify(response.encoded(), at: TestPKI.referenceTime)
        #expect(report.outcome == .noDocuments)
        #expect(report.status == 10)
        #expect(report.documents.isEmpty)
        #expect(report.documentErrors == [VerificationReport.DocumentErrorEntry(docType: TestMdoc.docType, code: 0)])
        #expect(report.failureSummary.isEmpty)

        let bare = try mdoc.verifier.verify(DeviceResponse(status: .generalError).encoded(), at: TestPKI.referenceTime)
        #expect(bare.outcome == .noDocuments)
        #expect(bare.documentErrors.isEmpty)
    }

    @Test("digests cover the received item bytes: a non-preferred encoding (digestID 0x1800) verifies")
    func digestsOverReceivedBytes() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        let preferred = Array(TestMdoc.item(digestID: 0, "family_name", "Doe").bytes)
        // The same IssuerSignedItem with digestID 0 written as 0x18 0x00 instead of 0x00.
        let digestIDKey: [UInt8] = [0x68] + Array("digestID".utf8)
        let nonPreferred = try preferred.replacingOnly(digestIDKey + [0x00], with: digestIDKey + [0x18, 0x00])
        let item = try EmbeddedCBOR<IssuerSignedItem>(bytes: nonPreferred)
        #expect(item.value.digestID == 0)
        #expect(item.value.encoded() == preferred)
        mdoc.issuerItems[0] = (TestMdoc.nameSpace, item)

        let bytes = try mdoc.responseBytes()
        // The encoded response carries the non-preferred bytes unchanged.
        #expect(bytes.offsets(of: nonPreferred).count == 1)
        let report = try mdoc.verifier.verify(bytes, at: TestPKI.referenceTime)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(Self.checks(report, .valueDigest).first { $0.subject.element?.identifier == "family_name" }?.passed == true)

        // Re-encoding the item (preferred form) would not match the MSO digest.
        mdoc.issuerItems[0] = (TestMdoc.nameSpace, TestMdoc.item(digestID: 0, "family_name", "Doe"))
        let msoDigest = mdoc.mobileSecurityObject().valueDigests[TestMdoc.nameSpace]?[0]
        #expect(msoDigest != CBORBytes(DigestAlgorithm.sha256.hash(item.cbor.encoded())))
    }

    @Test("a random salt of 16 bytes passes and of 15 bytes fails (9.1.2.5)", arguments: [16, 15])
    func randomLength(byteCount: Int) throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.issuerItems[0].item = TestMdoc.item(digestID: 0, "family_name", "Doe", randomByteCount: byteCount)
        let report = try mdoc.verify()
        if byteCount >= IssuerSignedItem.minimumRandomByteCount {
            #expect(report.outcome == .verified, "\(report.failureSummary)")
        } else {
            #expect(report.outcome == .issuerAuthenticationFailed)
            #expect(Self.failures(report).map(\.subject) == [.element(nameSpace: "org.iso.18013.5.1", identifier: "family_name")], "\(report.failureSummary)")
            #expect(Self.failures(report).first?.failureReason?.contains("random salt is 15 bytes") == true)
        }
    }

    @Test("a changed MSO value digest fails the element's value digest")
    func changedDigest() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.digestOverrides[2] = [UInt8](repeating: 0, count: 32)
        let report = try mdoc.verify()
        #expect(report.outcome == .issuerAuthenticationFailed)
        #expect(Self.failures(report).map(\.subject) == [.element(nameSpace: "org.iso.18013.5.1", identifier: "document_number")], "\(report.failureSummary)")
    }

    /// ISO/IEC 18013-5 8.1 requires preferred serialization, so the head of
    /// IssuerSignedItemBytes has exactly one valid form: the verifier hashes that head around the
    /// received content bytes. An issuer that hashed a non-preferred head (`59 00 NN`) produced
    /// a non-conforming credential, and the element must not verify.
    @Test("an item whose tag-24 byte string has a non-preferred length head (8.1) fails its value digest")
    func nonPreferredWrapperFails() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        let item = mdoc.issuerItems[0].item
        let preferredWrapper = item.cbor.encoded()
        let nonPreferredWrapper: [UInt8] = [0xd8, 0x18, 0x59, 0x00, UInt8(item.bytes.count)] + item.bytes
        #expect(preferredWrapper.prefix(3) == [0xd8, 0x18, 0x58])
        mdoc.digestOverrides[0] = DigestAlgorithm.sha256.hash(nonPreferredWrapper)
        let received = try mdoc.responseBytes().replacingOnly(preferredWrapper, with: nonPreferredWrapper)
        let report = try mdoc.verifier.verify(received, at: TestPKI.referenceTime)
        #expect(report.outcome == .issuerAuthenticationFailed)
        #expect(Self.failures(report).map(\.kind) == [.valueDigest], "\(report.failureSummary)")
    }
}
