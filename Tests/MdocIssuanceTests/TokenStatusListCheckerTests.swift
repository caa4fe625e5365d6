import MdocCBOR
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocSession
import MdocStatusList
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("TokenStatusListChecker: a document's status from the Status List Token its MSO names (draft-ietf-oauth-status-list 8.3)")
struct TokenStatusListCheckerTests {
    typealias Fixture = IssuanceFixture
    static let uri = "https://issuer.example/status/1"
    static let index: UInt64 = 5

    /// A verified report of an mDL issued under `pki`, whose MSO names entry `index` of `uri`
    /// (no status when `reference` is false), checked by a RevocationPolicy over `checker`.
    static func report(
        _ pki: TestPKI, reference: Bool = true, trustPoint: Certificate? = nil, identifierList: RevocationQuery.IdentifierListReference? = nil,
        checker: TokenStatusListChecker, unknownStatus: RevocationPolicy<TokenStatusListChecker>.UnknownStatus = .fail
    ) throws -> DocumentReport {
        var issuer = Fixture.issuer(pki)
        if reference {
            var statusList = RevocationQuery.StatusListReference(index: index, uri: uri)
            statusList.certificate = trustPoint?.derRepresentation
            issuer.statusListReference = statusList
        }
        issuer.identifierListReference = identifierList
        let deviceKey = try PrivateKey(generating: .p256)
        let issuerSigned = try issuer.issue(
            docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements)], deviceKey: deviceKey.publicKey,
            validityInfo: Fixture.validityInfo)
        let (transcript, _) = try Fixture.session()
        let verifier = DeviceResponseVerifier(trustAnchors: [pki.iaca], sessionTranscript: transcript) {
            StandardDocumentPolicy()
            RevocationPolicy(checker, unknownStatus: unknownStatus)
        }
        let report = verifier.verify(try Fixture.signedResponse(issuerSigned, deviceKey: deviceKey, transcript: transcript), at: TestPKI.referenceTime)
        return try #require(report.documents.first)
    }

    /// A token for `uri` with `value` at ``index``, signed by `key` with `chain` in its x5chain.
    static func token(
        value: UInt8, uri: String = uri, signer key: PrivateKey, chain: [Certificate], expiration: Date? = nil, size: Int = 16
    ) throws -> [UInt8] {
        var values = [StatusValue](repeating: .valid, count: size)
        if Int(index) < size { values[Int(index)] = StatusValue(rawValue: value) }
        let issued = Int64(TestPKI.referenceTime.timeIntervalSince1970) - 3600
        let claims = StatusListTokenClaims(
            subject: uri, issuedAt: issued, expiration: expiration.map { Int64($0.timeIntervalSince1970) }, timeToLive: 3600,
            statusList: try StatusList(bits: 2, values: values))
        return try StatusListTokenBuilder(claims: claims, x5chain: chain.map(\.derRepresentation)).sign(with: key).bytes
    }

    static func revocation(_ document: DocumentReport) throws -> VerificationCheck {
        try #require(document.checks.first { $0.kind == .revocation })
    }

    @Test("VALID passes; INVALID fails as revoked, SUSPENDED as suspended; the entry and list are named, the status typed", arguments: [
        (UInt8(0), DocumentStatus.Value.valid, "is VALID"), (1, .invalid, "is INVALID"), (2, .suspended, "is SUSPENDED"),
    ])
    func values(value: UInt8, expected: DocumentStatus.Value, words: String) throws {
        let pki = try TestPKI()
        let token = try Self.token(value: value, signer: pki.documentSignerKey, chain: [pki.documentSigner])
        let document = try Self.report(pki, checker: TokenStatusListChecker(fetched: [Self.uri: .token(token)]))
        let check = try Self.revocation(document)
        let passes = expected == .valid
        #expect(check.passed == passes, "\(check)")
        if expected == .invalid { #expect(check.failureCode == .revoked) }
        if expected == .suspended { #expect(check.failureCode == .suspended) }
        #expect("\(check)".contains("entry 5 of \(Self.uri)") && "\(check)".contains(words), "\(check)")
        #expect(document.elements.allSatisfy { $0.issuerAuthenticated == passes })
        let status = try #require(document.status)
        #expect(status.value == expected && status.accepted == passes && status.reason.contains(words), "\(status)")
        #expect(status.statusList == RevocationQuery.StatusListReference(index: Self.index, uri: Self.uri))
        #expect(status.identifierList == nil)
    }

    @Test("an application-specific value, a list not fetched or unavailable: unknown, which fails or, accepted, passes with why")
    func unknowns() throws {
        let pki = try TestPKI()
        let specific = try Self.token(value: 3, signer: pki.documentSignerKey, chain: [pki.documentSigner])
        for checker in [
            TokenStatusListChecker(fetched: [Self.uri: .token(specific)]), TokenStatusListChecker(fetched: [:]),
            TokenStatusListChecker(fetched: [Self.uri: .unavailable("connection refused")]),
        ] {
            let failedReport = try Self.report(pki, checker: checker)
            let failed = try Self.revocation(failedReport)
            #expect(failed.failureCode == .revocationStatusUnknown, "\(failed)")
            #expect(failedReport.status?.value == .notChecked && failedReport.status?.accepted == false, "\(String(describing: failedReport.status))")
            let acceptedReport = try Self.report(pki, checker: checker, unknownStatus: .accept)
            let accepted = try Self.revocation(acceptedReport)
            #expect(accepted.passed && accepted.detail.contains("unknown"), "\(accepted)")
            #expect(acceptedReport.status?.value == .notChecked && acceptedReport.status?.accepted == true)
            #expect(acceptedReport.status?.reason == failed.failureReason)
        }
        let refused = try Self.revocation(try Self.report(pki, checker: TokenStatusListChecker(fetched: [Self.uri: .unavailable("connection refused")])))
        #expect(refused.failureReason?.contains("connection refused") == true, "\(refused)")
    }

    @Test("a document whose MSO names no status list has nothing to be revoked by")
    func noReference() throws {
        let pki = try TestPKI()
        let report = try Self.report(pki, reference: false, checker: TokenStatusListChecker(fetched: [:]))
        let check = try Self.revocation(report)
        #expect(check.passed && check.detail.contains("names no status"), "\(check)")
        #expect(report.status == nil)
    }

    @Test("a token signed by another certificate of the same IACA is bound to the document's issuer")
    func sameIACA() throws {
        let pki = try TestPKI()
        let statusKey = try PrivateKey(generating: .p256)
        let statusSigner = try TestCertificateBuilder.issue(
            commonName: "test status signer", key: statusKey, issuer: (pki.iaca, pki.iacaKey), extensions: TestPKI.documentSignerExtensions)
        let token = try Self.token(value: 0, signer: statusKey, chain: [statusSigner])
        let check = try Self.revocation(try Self.report(pki, checker: TokenStatusListChecker(fetched: [Self.uri: .token(token)])))
        #expect(check.passed, "\(check)")
    }

    @Test("a token of another issuer, without x5chain, for another uri, expired, too short or forged is rejected: unknown, never revoked")
    func rejectedTokens() throws {
        let pki = try TestPKI()
        let other = try TestPKI(name: "other")
        var forged = try Self.token(value: 0, signer: pki.documentSignerKey, chain: [pki.documentSigner])
        forged[forged.count - 1] ^= 0x01
        let cases: [(String, [UInt8])] = [
            ("not bound to the document's IACA", try Self.token(value: 1, signer: other.documentSignerKey, chain: [other.documentSigner])),
            ("no x5chain", try Self.token(value: 1, signer: pki.documentSignerKey, chain: [])),
            ("not the list's uri", try Self.token(value: 1, uri: "https://issuer.example/status/2", signer: pki.documentSignerKey, chain: [pki.documentSigner])),
            ("has passed", try Self.token(value: 1, signer: pki.documentSignerKey, chain: [pki.documentSigner], expiration: TestPKI.referenceTime)),
            ("past", try Self.token(value: 0, signer: pki.documentSignerKey, chain: [pki.documentSigner], size: 4)),
            ("does not verify", forged),
        ]
        for (words, token) in cases {
            let check = try Self.revocation(try Self.report(pki, checker: TokenStatusListChecker(fetched: [Self.uri: .token(token)])))
            #expect(check.failureCode == .revocationStatusUnknown, "\(words): \(check)")
            #expect(check.failureReason?.contains(words) == true, "\(words): \(check)")
        }
    }

    /// An identifier list token for ``uri`` revoking `identifiers`, signed by `key` with `chain`.
    static func identifierToken(_ identifiers: [[UInt8]], signer key: PrivateKey, chain: [Certificate]) throws -> [UInt8] {
        let issued = Int64(TestPKI.referenceTime.timeIntervalSince1970) - 3600
        let claims = IdentifierListTokenClaims(
            subject: uri, issuedAt: issued, expiration: issued + 86_400, identifierList: IdentifierList(identifiers: identifiers))
        return try IdentifierListTokenBuilder(claims: claims, x5chain: chain.map(\.derRepresentation)).sign(with: key).bytes
    }

    @Test("an identifier list revokes the document whose id it holds, and no other; the status names the list and the id")
    func identifierList() throws {
        let pki = try TestPKI()
        let reference = RevocationQuery.IdentifierListReference(identifier: [0xa1, 0xb2], uri: Self.uri)
        for (identifiers, value) in [([[0x01], [0xa1, 0xb2]], DocumentStatus.Value.invalid), ([[0x01], [0xa1]], .valid)] as [([[UInt8]], DocumentStatus.Value)] {
            let token = try Self.identifierToken(identifiers, signer: pki.documentSignerKey, chain: [pki.documentSigner])
            let document = try Self.report(pki, reference: false, identifierList: reference, checker: TokenStatusListChecker(fetched: [Self.uri: .token(token)]))
            let check = try Self.revocation(document)
            #expect(check.passed == (value == .valid), "\(check)")
            #expect(document.status?.value == value && document.status?.identifierList == reference && document.status?.statusList == nil)
            let words = value == .valid ? "does not hold the document's identifier a1b2" : "holds the document's identifier a1b2"
            #expect("\(check)".contains(words), "\(check)")
        }
        // A Status List Token served where the identifier list should be is refused, not read.
        let statusToken = try Self.token(value: 1, signer: pki.documentSignerKey, chain: [pki.documentSigner])
        let wrongKind = try Self.report(pki, reference: false, identifierList: reference, checker: TokenStatusListChecker(fetched: [Self.uri: .token(statusToken)]))
        #expect(wrongKind.status?.value == .notChecked && wrongKind.status?.reason.contains("identifierlist+cwt") == true, "\(String(describing: wrongKind.status))")
    }

    @Test("the certificate an MSO names is the trust point of the list's signer, in place of the IACA")
    func trustPoint() throws {
        let pki = try TestPKI()
        let elsewhere = try TestPKI(name: "status")
        let token = try Self.token(value: 0, signer: elsewhere.documentSignerKey, chain: [elsewhere.documentSigner])
        let checker = TokenStatusListChecker(fetched: [Self.uri: .token(token)])
        let named = try Self.report(pki, trustPoint: elsewhere.iaca, checker: checker)
        let namedCheck = try Self.revocation(named)
        #expect(namedCheck.passed, "\(namedCheck)")
        #expect(named.status?.statusList?.certificate == elsewhere.iaca.derRepresentation)
        let unnamed = try Self.revocation(try Self.report(pki, checker: checker))
        #expect(unnamed.failureReason?.contains("not bound to the document's IACA") == true, "\(unnamed)")
        let wrong = try Self.revocation(try Self.report(pki, trustPoint: try TestPKI(name: "third").iaca, checker: checker))
        #expect(wrong.failureReason?.contains("not bound to the certificate the MSO names") == true, "\(wrong)")
    }

    @Test("a status naming neither mechanism leaves the status unknown; naming none at all, there is nothing to check")
    func otherMechanisms() {
        let checker = TokenStatusListChecker(fetched: [:])
        func status(_ entry: CBOR?) -> RevocationStatus {
            checker.status(of: RevocationQuery(docType: Fixture.docType, certificatePath: [], status: entry, time: TestPKI.referenceTime))
        }
        #expect(status(["crl_list": ["uri": "https://issuer.example/x"]])
            == .unknown("status not checked: the MSO's status names no status_list or identifier_list this reader reads (crl_list)"))
        #expect(status(["status_list": ["idx": "one", "uri": "https://issuer.example/x"]]) == .unknown(
            "status not checked: the MSO's status names no status_list or identifier_list this reader reads (status_list)"))
        #expect(status(nil) == .good("the MSO names no status"))
    }

    @Test("the MSO of an issuer with a status list reference carries it, as the reader reads it")
    func msoStatusEntry() throws {
        let pki = try TestPKI()
        var issuer = Fixture.issuer(pki)
        issuer.statusListReference = RevocationQuery.StatusListReference(index: 7, uri: Self.uri)
        let issuerSigned = try issuer.issue(
            docType: Fixture.docType, nameSpaces: [(Fixture.nameSpace, Fixture.elements)], deviceKey: try PrivateKey(generating: .p256).publicKey,
            validityInfo: Fixture.validityInfo)
        let status = try Fixture.mso(issuerSigned).additionalEntries[text: "status"]
        let query = RevocationQuery(docType: Fixture.docType, certificatePath: [], status: status, time: TestPKI.referenceTime)
        #expect(query.statusListReference == RevocationQuery.StatusListReference(index: 7, uri: Self.uri))
    }
}
