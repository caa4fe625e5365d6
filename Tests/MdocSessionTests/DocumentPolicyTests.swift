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

/// An application's rule: the document returns `age_over_18` as true, issuer signed (a
/// venue's check; not an 18013-5 rule).
struct AgeOver18Policy: DocumentVerifierPolicy {
    static let kind = VerificationCheck.Kind("age over 18", mechanism: .issuerDataAuthentication)
    static let notOver18 = VerificationFailure.Code("org.example.notOver18")

    func evaluate(_ verification: inout DocumentVerification) {
        let subject = VerificationCheck.Subject.element(nameSpace: NameSpace.mDL, identifier: "age_over_18")
        let value = verification.document.issuerSigned.nameSpaces?[NameSpace.mDL]?
            .first { $0.value.elementIdentifier == "age_over_18" }?.value.elementValue
        verification.record(VerificationCheck(
            Self.kind, subject: subject,
            outcome: value == .boolean(true) ? .passed : .failed(Self.notOver18, "the document does not say the holder is over 18")))
    }
}

/// An application's rule of mdoc authentication: the device authenticated with a signature,
/// not a MAC.
struct DeviceSignatureOnlyPolicy: DocumentVerifierPolicy {
    static let kind = VerificationCheck.Kind("device signature only", mechanism: .mdocAuthentication)

    func evaluate(_ verification: inout DocumentVerification) {
        verification.record(VerificationCheck(
            Self.kind, subject: .deviceAuth,
            outcome: verification.deviceAuthenticationMethod == .signature
                ? .passed : .failed(VerificationFailure.Code("org.example.macRefused"), "this reader requires a DeviceSignature")))
    }
}

/// In place of ``MSOValidityPolicy``, for an archive that checks responses long after they
/// were presented: the MSO must have been valid at some time the document signer was, and the
/// verification time is not compared with it.
struct ArchiveValidityPolicy: DocumentVerifierPolicy {
    func evaluate(_ verification: inout DocumentVerification) {
        guard let mso = verification.mobileSecurityObject(), let signer = verification.documentSigner else { return }
        let info = mso.validityInfo
        verification.record(VerificationCheck(
            .validity, subject: .mobileSecurityObject,
            outcome: info.validFrom.date <= info.validUntil.date && info.signed.date >= signer.notValidBefore
                ? .passed : .failed(.signedOutsideCertificateValidity, "the MSO was never valid under its signer")))
    }
}

/// Composing document policies (after swift-certificates' @PolicyBuilder): the standard set
/// unchanged by default, application rules added after it, a standard step replaced, and a
/// verifier that fails closed whatever the policies leave out.
@Suite struct DocumentPolicyTests {
    /// Every check's text and every element's statuses: what must not change between
    /// equivalent policy sets.
    static func summary(_ report: VerificationReport) -> [String] {
        report.documents.flatMap { document in
            ["outcome \(document.outcome)"] + document.checks.map(\.description)
                + document.elements.map { "\($0.nameSpace)/\($0.identifier) \($0.issuerAuthenticated) \($0.verified)" }
        }
    }

    /// The mdoc with the MSO expired and one digest changed.
    static func brokenMdoc() throws -> TestMdoc {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.validityInfo.validUntil = TDate(TestPKI.referenceTime.addingTimeInterval(-1))
        mdoc.digestOverrides[1] = [UInt8](repeating: 0, count: 32)
        return mdoc
    }

    @Test("the default verifier, StandardDocumentPolicy and its seven steps listed make the same report")
    func standardSetIsTheDefault() throws {
        for mdoc in [try TestMdoc(pki: TestPKI()), try Self.brokenMdoc()] {
            let bytes = try mdoc.responseBytes()
            let anchors = [mdoc.pki.iaca]
            let standard = try mdoc.verifier.verify(bytes, at: TestPKI.referenceTime)
            let composed = try DeviceResponseVerifier(trustAnchors: anchors, sessionTranscript: mdoc.transcript) {
                StandardDocumentPolicy()
            }.verify(bytes, at: TestPKI.referenceTime)
            let listed = try DeviceResponseVerifier(trustAnchors: anchors, sessionTranscript: mdoc.transcript) {
                DocumentSignerPolicy.standard
                IssuerSignaturePolicy()
                DocTypePolicy()
                MSOValidityPolicy()
                ValueDigestPolicy()
                DeviceAuthenticationPolicy()
                KeyAuthorizationPolicy()
            }.verify(bytes, at: TestPKI.referenceTime)
            #expect(Self.summary(composed) == Self.summary(standard))
            #expect(Self.summary(listed) == Self.summary(standard))
            #expect(standard.outcome == (mdoc.validityInfo.validUntil.date < TestPKI.referenceTime ? .issuerAuthenticationFailed : .verified))
        }
    }

    @Test("an application rule runs after the standard checks; its failure is one of issuer data authentication")
    func applicationRuleIsAdded() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        let verifier = DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            StandardDocumentPolicy()
            AgeOver18Policy()
        }
        let refused = try verifier.verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        let document = try #require(refused.documents.first)
        #expect(refused.outcome == .issuerAuthenticationFailed)
        #expect(document.failures.map(\.kind) == [AgeOver18Policy.kind])
        #expect(document.failures.first?.failureCode == AgeOver18Policy.notOver18)
        #expect(document.failures.first?.description
            == "age over 18 (org.iso.18013.5.1/age_over_18): FAILED: the document does not say the holder is over 18")
        #expect(document.checks.last?.kind == AgeOver18Policy.kind)
        #expect(document.elements.allSatisfy { !$0.issuerAuthenticated && !$0.verified })

        mdoc.issuerItems.append((TestMdoc.nameSpace, TestMdoc.item(digestID: 3, "age_over_18", true)))
        let admitted = try verifier.verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        #expect(admitted.outcome == .verified, "\(admitted.failureSummary)")
        #expect(admitted.documents.first?.elements.allSatisfy(\.verified) == true)
    }

    @Test("an application's check of mdoc authentication fails device authentication, not issuer data")
    func mdocAuthenticationRule() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.macReaderKey = try PrivateKey(generating: .p256)
        let verifier = DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript, readerKey: mdoc.macReaderKey) {
            StandardDocumentPolicy()
            DeviceSignatureOnlyPolicy()
        }
        let report = try verifier.verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        #expect(report.outcome == .deviceAuthenticationFailed)
        let document = try #require(report.documents.first)
        #expect(document.failures.map(\.kind) == [DeviceSignatureOnlyPolicy.kind])
        #expect(document.elements.allSatisfy { $0.issuerAuthenticated && !$0.verified })
    }

    @Test("a standard step replaced: an archive verifies an expired MSO that the standard set refuses")
    func standardStepReplaced() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.validityInfo.validUntil = TDate(TestPKI.referenceTime.addingTimeInterval(-Self.day))
        mdoc.validityInfo.validFrom = TDate(TestPKI.referenceTime.addingTimeInterval(-2 * Self.day))
        mdoc.validityInfo.signed = mdoc.validityInfo.validFrom
        let bytes = try mdoc.responseBytes()
        #expect(try mdoc.verifier.verify(bytes, at: TestPKI.referenceTime).outcome == .issuerAuthenticationFailed)
        let archive = DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            DocumentSignerPolicy.standard
            IssuerSignaturePolicy()
            DocTypePolicy()
            ArchiveValidityPolicy()
            ValueDigestPolicy()
            DeviceAuthenticationPolicy()
            KeyAuthorizationPolicy()
        }
        let report = try archive.verify(bytes, at: TestPKI.referenceTime)
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.documents.first?.checks.filter { $0.kind == .validity }.count == 1)
    }

    static let day: TimeInterval = 86_400

    @Test("if, if-else and an empty block compose as written", arguments: [false, true])
    func conditionalPolicies(requireAge: Bool) throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        let bytes = try mdoc.responseBytes()
        let optional = DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            StandardDocumentPolicy()
            if requireAge {
                AgeOver18Policy()
            }
        }
        let either = DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            if requireAge {
                AgeOver18Policy()
            } else {
                IACACountryPolicy()
            }
        }
        let optionalKinds = try optional.verify(bytes, at: TestPKI.referenceTime).documents.flatMap(\.checks).map(\.kind)
        #expect(optionalKinds.contains(AgeOver18Policy.kind) == requireAge)
        #expect(optionalKinds.first == .issuerCertificate)
        let eitherKinds = try either.verify(bytes, at: TestPKI.referenceTime).documents.flatMap(\.checks).map(\.kind)
        #expect(eitherKinds == [requireAge ? AgeOver18Policy.kind : .issuerCountry])
    }

    // MARK: Failing closed

    @Test("with no policy nothing is checked and nothing verifies")
    func emptyPolicyVerifiesNothing() throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        let report = try DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {}
            .verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        #expect(report.outcome == .issuerAuthenticationFailed)
        let document = try #require(report.documents.first)
        #expect(document.checks.isEmpty)
        #expect(document.elements.count == 3)
        #expect(document.elements.allSatisfy { !$0.issuerAuthenticated && !$0.verified })
        #expect(document.validity != nil)
    }

    @Test("without the issuer profile the signature is not checked and the issuer data is not trusted")
    func issuerProfileLeftOut() throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        let report = try DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            IssuerSignaturePolicy()
            ValueDigestPolicy()
            DeviceAuthenticationPolicy()
        }.verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        #expect(report.outcome == .issuerAuthenticationFailed)
        let document = try #require(report.documents.first)
        #expect(document.checks.first { $0.kind == .issuerSignature }?.outcome == .skipped("no usable document signer certificate"))
        #expect(document.elements.allSatisfy { !$0.issuerAuthenticated })
    }

    @Test("an issuer certificate check is required: a passed issuer signature alone verifies nothing")
    func issuerCertificateCheckRequired() throws {
        var document = DocumentReport(index: 0, docType: DocType.mDL)
        document.checks = [
            VerificationCheck(.issuerSignature, subject: .issuerAuth, outcome: .passed),
            VerificationCheck(.deviceAuthentication, subject: .deviceAuth, outcome: .passed),
        ]
        #expect(document.outcome == .issuerAuthenticationFailed)
        document.checks.insert(VerificationCheck(.issuerCertificate, subject: .named("CN=ds"), outcome: .passed), at: 0)
        #expect(document.outcome == .verified)
    }

    @Test("without the digest policy no issuer-signed element is authenticated, though the document passes")
    func digestsLeftOut() throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        let report = try DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            DocumentSignerPolicy.standard
            IssuerSignaturePolicy()
            DeviceAuthenticationPolicy()
        }.verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        #expect(report.outcome == .verified)
        #expect(report.documents.first?.elements.allSatisfy { !$0.issuerAuthenticated && !$0.verified } == true)
    }

    @Test("without the key authorization policy no device-signed element is authenticated")
    func keyAuthorizationsLeftOut() throws {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.deviceNameSpaces = DeviceNameSpaces(nameSpaces: [TestMdoc.nameSpace: ["resident_address": "1 Main Street"]])
        mdoc.keyAuthorizations = KeyAuthorizations(nameSpaces: [TestMdoc.nameSpace])
        let bytes = try mdoc.responseBytes()
        let standard = try mdoc.verifier.verify(bytes, at: TestPKI.referenceTime)
        #expect(standard.documents.first?.elements.first { $0.source == .deviceSigned }?.verified == true)
        let report = try DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            DocumentSignerPolicy.standard
            IssuerSignaturePolicy()
            ValueDigestPolicy()
            DeviceAuthenticationPolicy()
        }.verify(bytes, at: TestPKI.referenceTime)
        let element = try #require(report.documents.first?.elements.first { $0.source == .deviceSigned })
        #expect(!element.issuerAuthenticated && !element.verified)
    }

    @Test("an MSO that does not decode is reported even when no policy asks for it")
    func malformedMSOAlwaysReported() throws {
        let mdoc = try TestMdoc(pki: TestPKI())
        var document = try mdoc.document()
        document.issuerSigned.issuerAuth = try COSESign1.sign(
            payload: CBOR.textString("not an MSO").encoded(), detached: false, algorithm: .es256, key: mdoc.pki.documentSignerKey,
            unprotectedHeaders: CBORMap([.init(key: CBOR(COSEHeaders.Label.x5chain), value: COSEHeaders.x5chainValue([mdoc.pki.documentSigner.derRepresentation]))]))
        let report = DeviceResponseVerifier(trustAnchors: [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            DocumentSignerPolicy.standard
            IssuerSignaturePolicy()
        }.verify(DeviceResponse(documents: [document]), at: TestPKI.referenceTime)
        let checks = try #require(report.documents.first?.checks)
        #expect(checks.map(\.kind) == [.issuerCertificate, .issuerSignature, .structure])
        #expect(checks.last?.subject == .structure("MobileSecurityObject"))
        #expect(report.outcome == .issuerAuthenticationFailed)
    }

    // MARK: Typed identifiers

    @Test("check subjects are typed values that read as the report's text")
    func subjectsAreTyped() throws {
        let pki = try TestPKI()
        var mdoc = try TestMdoc(pki: pki)
        mdoc.x5chain = []
        let missing = try #require(try mdoc.verify().documents.first?.failures.first)
        #expect(missing.subject == .x5chain(of: .issuerAuth))
        #expect(missing.subject.description == "issuerAuth x5chain")
        #expect(missing.subject.certificate == nil)

        mdoc.x5chain = [pki.documentSigner.derRepresentation, [0x30, 0x00]]
        let unreadable = try #require(try mdoc.verify().documents.first?.failures.first)
        #expect(unreadable.subject == .x5chain(of: .issuerAuth, position: 1))
        #expect("\(unreadable.subject)" == "issuerAuth x5chain[1]")

        mdoc.x5chain = nil
        let document = try #require(try mdoc.verify().documents.first)
        #expect(document.checks.first?.subject.certificate == pki.documentSigner)
        #expect(document.checks.first?.subject.description == "CN=test ds, C=US")
        #expect(document.certificateChain == [pki.documentSigner])
        #expect(document.chainValidation?.validatedPath == [pki.documentSigner, pki.iaca])
        let digest = try #require(document.checks.first { $0.kind == .valueDigest })
        #expect(digest.subject.element?.nameSpace == TestMdoc.nameSpace)
        #expect(digest.subject.element?.identifier == "family_name")
        #expect(document.checks.first { $0.kind == .validity }?.subject == .mobileSecurityObject)
        #expect(VerificationCheck.Subject.mobileSecurityObject.description == "MSO")
    }

    @Test("kinds name the mechanism they belong to and read as the JSON report's names")
    func kindsAreTyped() {
        let standard: [(VerificationCheck.Kind, String, VerificationCheck.Kind.Mechanism)] = [
            (.structure, "structure", .issuerDataAuthentication), (.issuerCertificate, "issuer certificate", .issuerDataAuthentication),
            (.issuerSignature, "issuer signature", .issuerDataAuthentication), (.validity, "validity", .issuerDataAuthentication),
            (.docType, "docType", .issuerDataAuthentication), (.digestAlgorithm, "digest algorithm", .issuerDataAuthentication),
            (.valueDigest, "value digest", .issuerDataAuthentication), (.issuerCountry, "issuer country", .issuerDataAuthentication),
            (.revocation, "revocation", .issuerDataAuthentication), (.deviceAuthentication, "device authentication", .mdocAuthentication),
            (.keyAuthorization, "key authorization", .mdocAuthentication), (.readerCertificate, "reader certificate", .readerAuthentication),
            (.readerSignature, "reader signature", .readerAuthentication),
        ]
        for (kind, name, mechanism) in standard {
            #expect(kind.name == name && "\(kind)" == name && kind.mechanism == mechanism)
        }
        #expect(Set(standard.map(\.0)).count == standard.count)
        #expect(VerificationCheck.Kind("validity", mechanism: .issuerDataAuthentication) != .validity)
        #expect(VerificationCheck.Kind("age", mechanism: .issuerDataAuthentication) == VerificationCheck.Kind("age", mechanism: .issuerDataAuthentication))
        #expect(VerificationCheck.Kind("age", mechanism: .issuerDataAuthentication) != VerificationCheck.Kind("age", mechanism: .mdocAuthentication))
    }
}
