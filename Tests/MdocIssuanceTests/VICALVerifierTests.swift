import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("VICALVerifier (ISO/IEC 18013-5 Annex C.1.7)")
struct VICALVerifierTests {
    /// A VICAL provider's PKI: its root and a VICAL signer (extended key usage 1.0.18013.5.1.8)
    /// with `keyUsage`.
    static func provider(name: String = "vical", keyUsage: String = "critical,digitalSignature") throws -> TestPKI {
        try TestPKI(name: name, documentSignerExtensions: [
            ("keyUsage", keyUsage),
            ("extendedKeyUsage", "critical,\(CertificateProfile.vicalSignerOID)"),
            ("subjectKeyIdentifier", "hash"),
            ("authorityKeyIdentifier", "keyid:always"),
        ])
    }

    static func signer(_ provider: TestPKI) throws -> VICALSigner {
        try VICALSigner(signerKey: provider.documentSignerKey, signerChain: [provider.documentSigner])
    }

    static let time = TestPKI.referenceTime
    static let nextUpdate = TDate(TestPKI.referenceTime.addingTimeInterval(30 * 86_400))

    static func vical(_ infos: [VICAL.CertificateInfo], version: String = VICAL.currentVersion, date: Date = time) -> VICAL {
        VICAL(version: version, vicalProvider: "Test provider", date: TDate(date), vicalIssueID: 3, nextUpdate: nextUpdate, certificateInfos: infos)
    }

    @Test("a list signed by a signer of the trusted root verifies, and every listed IACA is trusted for its doc types")
    func verifiesToTheRoot() throws {
        let provider = try Self.provider()
        let (mdl, pid) = (try TestPKI(name: "mdl"), try TestPKI(name: "pid"))
        let signed = try Self.signer(provider).sign(Self.vical([
            try VICALSigner.certificateInfo(for: mdl.iaca, docTypes: [DocType.mDL]),
            try VICALSigner.certificateInfo(for: pid.iaca, docTypes: [DocType.eudiPID, DocType.mDL]),
        ]))
        let verification = VICALVerifier(anchors: [provider.iaca]).verify(signed, at: Self.time)
        #expect(verification.isVerified, "\(verification.failures)")
        #expect(!verification.signerIsPinned)
        #expect(verification.signerChain?.isValid == true)
        #expect(verification.signer == provider.documentSigner)
        #expect(verification.trustedEntries.map(\.certificate) == [mdl.iaca, pid.iaca])
        #expect(verification.trustedEntries.map(\.docTypes) == [[DocType.mDL], [DocType.eudiPID, DocType.mDL]])
        #expect(!verification.isStale)
    }

    @Test("the signer certificate itself may be the anchor (pinned), while it is valid")
    func pinnedSigner() throws {
        let provider = try Self.provider()
        let signed = try Self.signer(provider).sign(Self.vical([try VICALSigner.certificateInfo(for: provider.iaca, docTypes: [DocType.mDL])]))
        let pinned = VICALVerifier(anchors: [provider.documentSigner])
        let verification = pinned.verify(signed, at: Self.time)
        #expect(verification.isVerified, "\(verification.failures)")
        #expect(verification.signerIsPinned && verification.signerChain == nil)
        let late = pinned.verify(signed, at: provider.documentSigner.notValidAfter)
        #expect(late.failures.map(\.check) == [.signerChain])
        #expect(late.trustedEntries.isEmpty)
    }

    @Test("a VICAL signer whose key usage is nonRepudiation only verifies, as published signers have it; one with neither fails")
    func signerKeyUsage() throws {
        let nonRepudiation = try Self.provider(name: "nr", keyUsage: "critical,nonRepudiation")
        let signed = try Self.signer(nonRepudiation).sign(Self.vical([try VICALSigner.certificateInfo(for: nonRepudiation.iaca, docTypes: [DocType.mDL])]))
        #expect(VICALVerifier(anchors: [nonRepudiation.iaca]).verify(signed, at: Self.time).isVerified)
        let neither = try Self.provider(name: "neither", keyUsage: "critical,keyAgreement")
        let other = try Self.signer(neither).sign(Self.vical([try VICALSigner.certificateInfo(for: neither.iaca, docTypes: [DocType.mDL])]))
        let verification = VICALVerifier(anchors: [neither.iaca]).verify(other, at: Self.time)
        #expect(verification.failures.map(\.check) == [.signerChain])
        #expect(verification.failures.first?.reason.contains("keyUsage") == true, "\(verification.failures)")
    }

    @Test("a forged signature, a signer of another root, a document signer as VICAL signer: the list is refused whole")
    func listFailures() throws {
        let provider = try Self.provider()
        let listed = try TestPKI(name: "listed")
        let infos = [try VICALSigner.certificateInfo(for: listed.iaca, docTypes: [DocType.mDL])]
        let signed = try Self.signer(provider).sign(Self.vical(infos))

        var forged = signed.message
        forged.signature[0] ^= 0x01
        let forgedResult = VICALVerifier(anchors: [provider.iaca]).verify(try SignedVICAL(encoded: forged.encoded()), at: Self.time)
        #expect(forgedResult.failures.map(\.check) == [.signature])
        #expect(forgedResult.trustedEntries.isEmpty && forgedResult.entries.count == 1)

        let stranger = try Self.provider(name: "stranger")
        let untrusted = VICALVerifier(anchors: [stranger.iaca]).verify(signed, at: Self.time)
        #expect(untrusted.failures.map(\.check).contains(.signerChain))
        #expect(untrusted.trustedEntries.isEmpty)

        // A document signer of the listed IACA signs a VICAL: the wrong extended key usage.
        let documentSigner = try VICALSigner(signerKey: listed.documentSignerKey, signerChain: [listed.documentSigner])
        let misused = VICALVerifier(anchors: [listed.iaca]).verify(try documentSigner.sign(Self.vical(infos)), at: Self.time)
        #expect(misused.failures.map(\.check) == [.signerChain])
        #expect(misused.failures.first?.reason.contains(CertificateProfile.vicalSignerOID) == true, "\(misused.failures)")
    }

    @Test("a list from the future, of another major version, or without x5chain is refused")
    func envelopeChecks() throws {
        let provider = try Self.provider()
        let infos = [try VICALSigner.certificateInfo(for: provider.iaca, docTypes: [DocType.mDL])]
        let verifier = VICALVerifier(anchors: [provider.iaca])
        let signer = try Self.signer(provider)

        let skewed = try signer.sign(Self.vical(infos, date: Self.time.addingTimeInterval(VICALVerifier.allowedClockSkew)))
        #expect(verifier.verify(skewed, at: Self.time).isVerified)
        let future = try signer.sign(Self.vical(infos, date: Self.time.addingTimeInterval(VICALVerifier.allowedClockSkew + 1)))
        #expect(verifier.verify(future, at: Self.time).failures.map(\.check) == [.date])

        #expect(verifier.verify(try signer.sign(Self.vical(infos, version: "1.0.0")), at: Self.time).isVerified)
        #expect(verifier.verify(try signer.sign(Self.vical(infos, version: "2.0")), at: Self.time).failures.map(\.check) == [.version])

        let bare = try COSESign1.sign(
            payload: Self.vical(infos).cbor.encoded(), detached: false, algorithm: .es256, key: provider.documentSignerKey)
        #expect(verifier.verify(try SignedVICAL(encoded: bare.encoded()), at: Self.time).failures.map(\.check) == [.signerCertificate])
    }

    @Test("a list past nextUpdate is stale but still verified: whether to use it is the caller's policy")
    func staleness() throws {
        let provider = try Self.provider()
        let signed = try Self.signer(provider).sign(Self.vical([try VICALSigner.certificateInfo(for: provider.iaca, docTypes: [DocType.mDL])]))
        let verifier = VICALVerifier(anchors: [provider.iaca])
        #expect(!verifier.verify(signed, at: Self.nextUpdate.date.addingTimeInterval(-1)).isStale)
        let stale = verifier.verify(signed, at: Self.nextUpdate.date)
        #expect(stale.isStale && stale.isVerified)
    }

    @Test("an entry whose fields disagree with its certificate is set aside with the field named; the others still count",
          arguments: [
              ("serialNumber", VICALVerification.EntryCheck.serialNumber),
              ("ski", .ski), ("issuer", .issuer), ("subject", .subject), ("notAfter", .validityFields),
          ])
    func entryMismatch(field: String, check: VICALVerification.EntryCheck) throws {
        let provider = try Self.provider()
        let (good, bad, other) = (try TestPKI(name: "good"), try TestPKI(name: "bad"), try TestPKI(name: "other"))
        var info = try VICALSigner.certificateInfo(for: bad.iaca, docTypes: [DocType.mDL])
        let donor = try VICALSigner.certificateInfo(for: other.iaca, docTypes: [DocType.mDL])
        switch field {
        case "serialNumber": info.serialNumber = info.serialNumber + [0x01]
        case "ski": info.ski = donor.ski
        case "issuer": info.issuer = donor.issuer
        case "subject": info.subject = donor.subject
        default: info.notAfter = TDate(bad.iaca.notValidAfter.addingTimeInterval(86_400))
        }
        let signed = try Self.signer(provider).sign(Self.vical([try VICALSigner.certificateInfo(for: good.iaca, docTypes: [DocType.mDL]), info]))
        let verification = VICALVerifier(anchors: [provider.iaca]).verify(signed, at: Self.time)
        #expect(verification.isVerified)
        #expect(verification.trustedEntries.map(\.certificate) == [good.iaca])
        #expect(verification.entries[1].problems.map(\.check) == [check], "\(verification.entries[1].problems)")
    }

    @Test("a serial number with a leading zero octet is the same serial number")
    func paddedSerialNumber() throws {
        let provider = try Self.provider()
        var info = try VICALSigner.certificateInfo(for: provider.iaca, docTypes: [DocType.mDL])
        info.serialNumber = [0] + info.serialNumber
        let signed = try Self.signer(provider).sign(Self.vical([info]))
        #expect(VICALVerifier(anchors: [provider.iaca]).verify(signed, at: Self.time).trustedEntries.count == 1)
    }

    @Test("a document signer, an IACA outside its validity, or a certificate that does not parse cannot anchor anything")
    func entriesThatCannotAnchor() throws {
        let provider = try Self.provider()
        let listed = try TestPKI(name: "listed")
        var garbage = try VICALSigner.certificateInfo(for: listed.iaca, docTypes: [DocType.mDL])
        garbage.certificate = Array(garbage.certificate.dropLast())
        let signed = try Self.signer(provider).sign(Self.vical([
            try VICALSigner.certificateInfo(for: listed.documentSigner, docTypes: [DocType.mDL]),
            try VICALSigner.certificateInfo(for: listed.iaca, docTypes: [DocType.mDL]),
            garbage,
        ]))
        let verifier = VICALVerifier(anchors: [provider.iaca])
        let verification = verifier.verify(signed, at: Self.time)
        #expect(verification.isVerified)
        #expect(Set(verification.entries[0].problems.map(\.check)) == [.iacaProfile])
        #expect(verification.entries[0].problems.contains { $0.reason.contains("not self-signed") })
        #expect(verification.entries[1].isUsable)
        #expect(verification.entries[2].problems.map(\.check) == [.certificate] && verification.entries[2].certificate == nil)
        // After the IACA's notAfter the entry is set aside; the provider's own chain is still valid then.
        let later = VICALVerifier.entry(signed.vical.certificateInfos[1], at: 1, time: listed.iaca.notValidAfter)
        #expect(later.problems.map(\.check) == [.validity])
    }

    @Test("without a subjectKeyIdentifier, an entry's ski is the SHA-1 of the public key (RFC 5280 4.2.1.2 method 1)")
    func computedKeyIdentifier() throws {
        // OpenSSL's "hash" subjectKeyIdentifier is method 1: the two agree.
        let pki = try TestPKI(name: "ski")
        #expect(pki.iaca.publicKeyIdentifier == pki.iaca.subjectKeyIdentifier)
        #expect(pki.iaca.publicKeyIdentifier.count == 20)
        let withoutSKI = try TestPKI(
            name: "no ski", iacaExtensions: TestPKI.iacaExtensions.filter { $0.0 != "subjectKeyIdentifier" },
            documentSignerExtensions: TestPKI.documentSignerExtensions.filter { $0.0 != "authorityKeyIdentifier" })
        var info = try VICALSigner.certificateInfo(for: pki.iaca, docTypes: [DocType.mDL])
        info.certificate = withoutSKI.iaca.derRepresentation
        info.serialNumber = withoutSKI.iaca.serialNumberBytes
        info.issuer = withoutSKI.iaca.issuerNameDER
        info.subject = withoutSKI.iaca.subjectNameDER
        info.ski = withoutSKI.iaca.publicKeyIdentifier
        let computed = VICALVerifier.entry(info, at: 0, time: Self.time)
        #expect(!computed.problems.map(\.check).contains(.ski), "\(computed.problems)")
        info.ski = pki.iaca.publicKeyIdentifier
        #expect(VICALVerifier.entry(info, at: 0, time: Self.time).problems.map(\.check).contains(.ski))
    }
}

@Suite("Trust from a VICAL: an IACA anchors only the document types its entry lists (Annex C.1.7)")
struct VICALTrustScopeTests {
    typealias Fixture = IssuanceFixture

    /// An mDL issued under `pki`, verified by a verifier trusting only what `vical` lists.
    static func verify(mDLOf pki: TestPKI, trusting vical: VICALVerification) throws -> VerificationReport {
        let deviceKey = try PrivateKey(generating: .p256)
        let issuerSigned = try Fixture.issuer(pki).issue(
            docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements)], deviceKey: deviceKey.publicKey,
            validityInfo: Fixture.validityInfo)
        let (transcript, _) = try Fixture.session()
        let response = try Fixture.signedResponse(issuerSigned, deviceKey: deviceKey, transcript: transcript)
        let scopes = vical.trustScopes
        let verifier = DeviceResponseVerifier(trustAnchors: Array(scopes.keys), sessionTranscript: transcript) {
            StandardDocumentPolicy()
            TrustScopePolicy(scopes: scopes)
        }
        return verifier.verify(response, at: TestPKI.referenceTime)
    }

    static func vical(_ entries: [(TestPKI, [String])]) throws -> VICALVerification {
        let provider = try VICALVerifierTests.provider()
        let infos = try entries.map { pki, docTypes in try VICALSigner.certificateInfo(for: pki.iaca, docTypes: docTypes) }
        let signed = try VICALVerifierTests.signer(provider).sign(VICALVerifierTests.vical(infos))
        return VICALVerifier(anchors: [provider.iaca]).verify(signed, at: TestPKI.referenceTime)
    }

    @Test("an mDL of an IACA listed for mDLs verifies, with the scope check passed")
    func inScope() throws {
        let issuer = try TestPKI(name: "dmv")
        let report = try Self.verify(mDLOf: issuer, trusting: try Self.vical([(issuer, [DocType.mDL, DocType.eudiPID])]))
        #expect(report.outcome == .verified, "\(report.failureSummary)")
        let check = try #require(report.documents.first?.checks.first { $0.kind == .trustScope })
        #expect(check.outcome == .passed)
    }

    @Test("an mDL of an IACA listed only for PIDs is not trusted: no element is issuer-authenticated")
    func outOfScope() throws {
        let issuer = try TestPKI(name: "pid provider")
        let report = try Self.verify(mDLOf: issuer, trusting: try Self.vical([(issuer, [DocType.eudiPID])]))
        #expect(report.outcome != .verified)
        let document = try #require(report.documents.first)
        #expect(document.failures.map(\.failureCode) == [.outOfTrustScope], "\(document.failures)")
        #expect(document.elements.allSatisfy { !$0.issuerAuthenticated && !$0.verified })
        #expect(report.verifiedDocuments == nil)
    }

    @Test("an mDL of an IACA the list does not name, or of a list that did not verify, is not trusted")
    func notListed() throws {
        let (listed, other) = (try TestPKI(name: "listed"), try TestPKI(name: "unlisted"))
        let report = try Self.verify(mDLOf: other, trusting: try Self.vical([(listed, [DocType.mDL])]))
        let failures = try #require(report.documents.first?.failures)
        #expect(failures.map(\.kind) == [.issuerCertificate], "\(failures)")

        let provider = try VICALVerifierTests.provider()
        let signed = try VICALVerifierTests.signer(provider).sign(
            VICALVerifierTests.vical([try VICALSigner.certificateInfo(for: listed.iaca, docTypes: [DocType.mDL])]))
        let refused = VICALVerifier(anchors: [try VICALVerifierTests.provider(name: "stranger").iaca]).verify(signed, at: TestPKI.referenceTime)
        #expect(refused.trustScopes.isEmpty)
    }

    @Test("a document signer policy carries the scopes: out of scope fails, in scope verifies, an unscoped anchor anchors any type")
    func throughTheDocumentSignerPolicy() throws {
        let (scoped, unscoped) = (try TestPKI(name: "scoped"), try TestPKI(name: "unscoped"))
        var policy = DocumentSignerPolicy.standard
        policy.scope(scoped.iaca, to: [DocType.eudiPID])
        func report(_ pki: TestPKI, _ policy: DocumentSignerPolicy) throws -> VerificationReport {
            let deviceKey = try PrivateKey(generating: .p256)
            let issuerSigned = try Fixture.issuer(pki).issue(
                docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements)], deviceKey: deviceKey.publicKey,
                validityInfo: Fixture.validityInfo)
            let (transcript, _) = try Fixture.session()
            let verifier = DeviceResponseVerifier(
                trustAnchors: [scoped.iaca, unscoped.iaca], documentSignerPolicy: policy, sessionTranscript: transcript)
            return verifier.verify(try Fixture.signedResponse(issuerSigned, deviceKey: deviceKey, transcript: transcript), at: TestPKI.referenceTime)
        }
        #expect(try report(scoped, policy).documents.first?.failures.map(\.failureCode) == [.outOfTrustScope])
        #expect(try report(unscoped, policy).outcome == .verified)
        policy.scope(scoped.iaca, to: [DocType.mDL])
        #expect(policy.trustScopes[scoped.iaca] == [DocType.eudiPID, DocType.mDL])
        #expect(try report(scoped, policy).outcome == .verified)
    }

    @Test("an IACA listed twice anchors the union of its entries' document types")
    func union() throws {
        let issuer = try TestPKI(name: "twice")
        let verification = try Self.vical([(issuer, [DocType.eudiPID]), (issuer, [DocType.mDL])])
        #expect(verification.trustScopes == [issuer.iaca: [DocType.eudiPID, DocType.mDL]])
        #expect(try Self.verify(mDLOf: issuer, trusting: verification).outcome == .verified)
    }
}
