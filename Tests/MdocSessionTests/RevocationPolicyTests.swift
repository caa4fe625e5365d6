import MdocCBOR
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

/// Status information an application fetched before verifying and holds in memory: the serial
/// numbers each IACA's certificate revocation list names, and Token Status Lists by URI (one
/// bit per document, least significant bit first, 1 when revoked), each current until its next
/// update. The revocation hook of the tests: it answers from what it holds and fetches nothing.
struct TestStatusInformation: RevocationChecker {
    struct RevocationList: Sendable {
        var revokedSerials: Set<String>
        var nextUpdate: Date
    }

    struct StatusList: Sendable {
        var bits: [UInt8]
        var nextUpdate: Date
    }

    /// By the subject of the issuer whose list it is.
    var revocationLists: [String: RevocationList] = [:]
    /// By URI.
    var statusLists: [String: StatusList] = [:]

    func status(of query: RevocationQuery) -> RevocationStatus {
        var consulted: [String] = []
        for (certificate, issuer) in zip(query.certificatePath, query.certificatePath.dropFirst()) {
            guard let list = revocationLists[issuer.subject], query.time < list.nextUpdate else {
                return .unknown("no current revocation list of \"\(issuer.subject)\"")
            }
            if list.revokedSerials.contains(certificate.serialNumber) {
                return .revoked("serial \(certificate.serialNumber) of \"\(certificate.subject)\" is on the revocation list of \"\(issuer.subject)\"")
            }
            consulted.append("the revocation list of \"\(issuer.subject)\"")
        }
        if let reference = query.statusListReference {
            guard let list = statusLists[reference.uri], query.time < list.nextUpdate else {
                return .unknown("no current status list at \(reference.uri)")
            }
            let (byte, bit) = (Int(reference.index / 8), reference.index % 8)
            guard byte < list.bits.count else {
                return .unknown("entry \(reference.index) is outside the status list at \(reference.uri)")
            }
            if (list.bits[byte] >> bit) & 1 == 1 {
                return .revoked("entry \(reference.index) of the status list at \(reference.uri) is set")
            }
            consulted.append("entry \(reference.index) of the status list at \(reference.uri)")
        } else if query.status != nil {
            return .unknown("the MSO status names no status list this reader reads")
        }
        return .good("not revoked: " + consulted.joined(separator: ", "))
    }
}

/// A checker that says whether it was asked exactly what it expects.
struct ExpectedQuery: RevocationChecker {
    let docType: String
    let path: [Certificate]
    let status: CBOR?
    let time: Date

    func status(of query: RevocationQuery) -> RevocationStatus {
        query.docType == docType && query.certificatePath == path && query.status == status && query.time == time
            ? .good("the query expected") : .revoked("an unexpected query: \(query)")
    }
}

/// The revocation hook: a RevocationPolicy asking the application's status information, with
/// the validated path and the MSO's status entry.
@Suite struct RevocationPolicyTests {
    static let listURI = "https://issuer.example/status/1"
    static let nextUpdate = TestPKI.referenceTime.addingTimeInterval(86_400)

    /// `{"status_list": {"idx": index, "uri": uri}}`.
    static func statusEntry(index: UInt64, uri: String = listURI) -> CBOR {
        var reference = CBORMap()
        reference.append("idx", .unsignedInt(index))
        reference.append("uri", .textString(uri))
        var status = CBORMap()
        status.append("status_list", .map(reference))
        return .map(status)
    }

    /// An mdoc whose MSO refers to entry `index` of ``listURI``.
    static func mdoc(statusIndex index: UInt64 = 5) throws -> TestMdoc {
        var mdoc = try TestMdoc(pki: TestPKI())
        mdoc.msoAdditionalEntries.append("status", statusEntry(index: index))
        return mdoc
    }

    /// Lists that revoke nothing: the IACA's names no serial, and ``listURI`` has no bit set.
    static func currentInformation(_ pki: TestPKI) -> TestStatusInformation {
        TestStatusInformation(
            revocationLists: [pki.iaca.subject: .init(revokedSerials: [], nextUpdate: nextUpdate)],
            statusLists: [listURI: .init(bits: [0, 0], nextUpdate: nextUpdate)])
    }

    static func verify<Checker: RevocationChecker>(
        _ mdoc: TestMdoc, _ checker: Checker, unknownStatus: RevocationPolicy<Checker>.UnknownStatus = .fail,
        trusting anchors: [Certificate]? = nil
    ) throws -> DocumentReport {
        let report = try DeviceResponseVerifier(trustAnchors: anchors ?? [mdoc.pki.iaca], sessionTranscript: mdoc.transcript) {
            StandardDocumentPolicy()
            RevocationPolicy(checker, unknownStatus: unknownStatus)
        }.verify(mdoc.responseBytes(), at: TestPKI.referenceTime)
        return try #require(report.documents.first)
    }

    static func revocationCheck(_ document: DocumentReport) throws -> VerificationCheck {
        let checks = document.checks.filter { $0.kind == .revocation }
        #expect(checks.count == 1)
        return try #require(checks.first)
    }

    @Test("nothing revoked: the check passes and says what was consulted")
    func notRevoked() throws {
        let mdoc = try Self.mdoc()
        let document = try Self.verify(mdoc, Self.currentInformation(mdoc.pki))
        #expect(document.outcome == .verified, "\(document.failures)")
        let check = try Self.revocationCheck(document)
        #expect(check.passed)
        #expect(check.subject == .issuerAuth)
        #expect(check.detail == "not revoked: the revocation list of \"CN=test iaca, C=US\", entry 5 of the status list at \(Self.listURI)")
        #expect(document.checks.last == check)
    }

    @Test("the checker is asked with the docType, the validated path, the MSO status entry and the verification time")
    func queryHoldsWhatIsKnown() throws {
        let mdoc = try Self.mdoc(statusIndex: 9)
        let expected = ExpectedQuery(
            docType: TestMdoc.docType, path: [mdoc.pki.documentSigner, mdoc.pki.iaca], status: Self.statusEntry(index: 9),
            time: TestPKI.referenceTime)
        #expect(try Self.revocationCheck(try Self.verify(mdoc, expected)).passed)
        let query = RevocationQuery(docType: TestMdoc.docType, certificatePath: [], status: Self.statusEntry(index: 9), time: TestPKI.referenceTime)
        #expect(query.statusListReference == RevocationQuery.StatusListReference(index: 9, uri: Self.listURI))
    }

    @Test("a revoked document signer fails issuer data authentication; no element is issuer-authenticated")
    func revokedDocumentSigner() throws {
        let mdoc = try Self.mdoc()
        var information = Self.currentInformation(mdoc.pki)
        information.revocationLists[mdoc.pki.iaca.subject]?.revokedSerials = [mdoc.pki.documentSigner.serialNumber]
        let document = try Self.verify(mdoc, information)
        #expect(document.outcome == .issuerAuthenticationFailed)
        #expect(document.failures.map(\.kind) == [.revocation])
        #expect(document.failures.first?.failureCode == .revoked)
        #expect(document.failures.first?.failureReason == "serial 01 of \"CN=test ds, C=US\" is on the revocation list of \"CN=test iaca, C=US\"")
        #expect(document.elements.allSatisfy { !$0.issuerAuthenticated && !$0.verified })
    }

    @Test("a document whose status list entry is set is revoked", arguments: [0, 5, 15] as [UInt64])
    func revokedByStatusList(index: UInt64) throws {
        let mdoc = try Self.mdoc(statusIndex: index)
        var information = Self.currentInformation(mdoc.pki)
        information.statusLists[Self.listURI]?.bits[Int(index / 8)] = 1 << (index % 8)
        let document = try Self.verify(mdoc, information)
        #expect(document.failures.map(\.failureCode) == [.revoked])
        #expect(document.failures.first?.failureReason == "entry \(index) of the status list at \(Self.listURI) is set")
        // The neighbouring entry is another document's.
        let neighbour = try Self.mdoc(statusIndex: index ^ 1)
        #expect(try Self.verify(neighbour, information).outcome == .verified)
    }

    @Test("an unknown status fails, unless the policy accepts it")
    func unknownStatus() throws {
        let mdoc = try Self.mdoc()
        var information = Self.currentInformation(mdoc.pki)
        information.statusLists[Self.listURI]?.nextUpdate = TestPKI.referenceTime
        let failed = try Self.verify(mdoc, information)
        #expect(failed.outcome == .issuerAuthenticationFailed)
        #expect(failed.failures.map(\.failureCode) == [.revocationStatusUnknown])
        #expect(failed.failures.first?.failureReason == "no current status list at \(Self.listURI)")

        let accepted = try Self.verify(mdoc, information, unknownStatus: .accept)
        #expect(accepted.outcome == .verified)
        #expect(try Self.revocationCheck(accepted).detail
            == "the revocation status is unknown, which this reader accepts: no current status list at \(Self.listURI)")
    }

    @Test("without a chain to a trust anchor the checker is not asked")
    func untrustedChainIsNotAsked() throws {
        let mdoc = try Self.mdoc()
        var information = Self.currentInformation(mdoc.pki)
        information.revocationLists[mdoc.pki.iaca.subject]?.revokedSerials = [mdoc.pki.documentSigner.serialNumber]
        let document = try Self.verify(mdoc, information, trusting: [try TestPKI(name: "other").iaca])
        let check = try Self.revocationCheck(document)
        #expect(check.outcome == .skipped("the document signer chain did not validate to a trust anchor"))
        #expect(document.failures.allSatisfy { $0.kind == .issuerCertificate })
    }

    @Test("a status entry is read as a status list reference only in that form")
    func statusListReferenceForms() {
        var notText = CBORMap()
        notText.append("idx", .unsignedInt(1))
        notText.append("uri", .unsignedInt(2))
        var identifierList = CBORMap()
        identifierList.append("identifier_list", .map(CBORMap()))
        let entries: [CBOR?] = [
            nil, .textString("status_list"), .map(identifierList), .map(CBORMap([.init(key: "status_list", value: .map(notText))])),
            .map(CBORMap([.init(key: "status_list", value: .array([]))])),
        ]
        for entry in entries {
            let query = RevocationQuery(docType: TestMdoc.docType, certificatePath: [], status: entry, time: TestPKI.referenceTime)
            #expect(query.statusListReference == nil, "\(String(describing: entry))")
        }
    }
}
