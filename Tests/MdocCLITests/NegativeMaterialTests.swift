import Foundation
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

/// Negative test material from `mdoc-issuer issue`: each option that makes a document fail
/// verification yields a credential marked as test material, and `mdoc-reader verify` rejects the
/// response presenting it with the check the option breaks, and nothing else.
@Suite struct NegativeMaterialTests {
    static let mdlData = "Samples/mdl.json"

    /// The folder of a PKI valid from 2020-01-01 for twenty years, so documents can be issued
    /// in the past; made once, by the first test that needs it.
    static var pki: String {
        get async throws { try await madePKI.value }
    }

    private static let madePKI = Task {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-negative-\(UUID().uuidString)").path
        let result = try await ProgramRunner.run(
            "mdoc-issuer", ["pki", folder, "--not-before", "2020-01-01T00:00:00Z", "--valid-days", "7300"])
        guard result.status == 0 else { throw LiveSessionError("mdoc-issuer pki failed: \(result.standardError)") }
        return folder
    }

    /// `mdoc-issuer issue` of the sample mDL with `options`; the credential path and the result.
    static func issue(_ options: [String]) async throws -> (path: String, result: ProgramRunner.Result) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("negative-\(UUID().uuidString).mdoc").path
        let result = try await ProgramRunner.run(
            "mdoc-issuer", ["issue", "--pki", try await pki, "--doctype", DocType.mDL, "--data", mdlData, "--out", out] + options)
        return (out, result)
    }

    /// The credential presented to a request for three mDL elements, as `mdoc-holder` would
    /// answer it (DeviceMac), and the files `mdoc-reader verify` needs.
    static func presentation(of credential: Credential) throws -> [String] {
        let readerKey = try PrivateKey(generating: .p256)
        let deviceEngagementKey = try PrivateKey(generating: .p256)
        let engagement = EmbeddedCBOR(DeviceEngagement(
            security: Security(eDeviceKeyBytes: EmbeddedCBOR(COSEKey(publicKey: deviceEngagementKey.publicKey))),
            deviceRetrievalMethods: [.ble(BleOptions(peripheralServerModeSupported: true, peripheralServerModeUUID: UUID()))]))
        let transcript = SessionTranscriptBinding(SessionTranscript(
            deviceEngagementBytes: engagement, eReaderKeyBytes: EmbeddedCBOR(COSEKey(publicKey: readerKey.publicKey)), handover: .qr))
        let identifiers = ["family_name", "document_number", "portrait"]
        var requested = OrderedMap<String, Bool>()
        var approved = ElementSelection()
        for identifier in identifiers {
            requested[identifier] = false
            approved.insert(docType: DocType.mDL, nameSpace: NameSpace.mDL, identifier: identifier)
        }
        let request = DeviceRequest(docRequests: [
            DocRequest(itemsRequest: EmbeddedCBOR(ItemsRequest(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: requested])))
        ])
        let response = try ResponseBuilder().deviceResponse(
            request: request, credentials: [credential], approved: approved, sessionTranscript: transcript,
            eReaderKey: readerKey.publicKey)
        return [
            try ProgramRunner.temporaryFile(response.encoded()),
            "--transcript", try ProgramRunner.temporaryFile(transcript.taggedBytes),
            "--reader-key", try ProgramRunner.temporaryFile(Array(readerKey.pemRepresentation.utf8), suffix: ".pem"),
        ]
    }

    /// The failure codes of `mdoc-reader verify --json` for the credential at `path`.
    static func verificationFailures(_ path: String) async throws -> (status: Int32, codes: Set<String>) {
        let credential = try Credential(encoded: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let result = try await ProgramRunner.run(
            "mdoc-reader", ["verify"] + presentation(of: credential) + ["--trust", try await pki + "/iaca.pem", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let checks = (json["documents"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]] ?? []
        return (result.status, Set(checks.compactMap { $0["code"] as? String }))
    }

    static let cases: [(name: String, options: [String], codes: Set<String>)] = [
        ("expired MSO", ["--valid-from", "2021-01-01T00:00:00Z", "--valid-until", "2022-01-01T00:00:00Z"], ["expired"]),
        ("MSO not yet valid", ["--valid-from", "2035-01-01T00:00:00Z", "--valid-until", "2036-01-01T00:00:00Z"], ["notYetValid"]),
        ("MSO signed outside the document signer's validity", ["--signed", "2019-06-01T00:00:00Z"], ["signedOutsideCertificateValidity"]),
        ("expired document signer", [
            "--ds-not-before", "2020-01-01T00:00:00Z", "--ds-not-after", "2021-01-01T00:00:00Z",
            "--valid-from", "2020-06-01T00:00:00Z", "--valid-until", "2030-01-01T00:00:00Z",
        ], ["certificate.validity"]),
        ("document signer without EKU", ["--ds-deviation", "no-eku"], ["certificate.extendedKeyUsage"]),
        ("document signer with the reader EKU", ["--ds-deviation", "wrong-eku"], ["certificate.extendedKeyUsage"]),
        ("document signer without digitalSignature", ["--ds-deviation", "no-digital-signature"], ["certificate.keyUsage"]),
        ("document signer without subjectKeyIdentifier", ["--ds-deviation", "no-subject-key-id"], ["certificate.keyIdentifiers"]),
        ("document signer without authorityKeyIdentifier", ["--ds-deviation", "no-authority-key-id"], ["certificate.keyIdentifiers"]),
        ("a CA as document signer", ["--ds-deviation", "ca"], ["certificate.basicConstraints"]),
    ]

    @Test(arguments: cases.map(\.name))
    func eachNegativeOptionIsRejectedWithItsCheckAndMarkedAsTestMaterial(_ name: String) async throws {
        let testCase = try #require(Self.cases.first { $0.name == name })
        let (path, issued) = try await Self.issue(testCase.options)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(issued.status == 0, "\(issued.standardError)")
        #expect(issued.standardOutput.contains("TEST MATERIAL, made to fail verification"))
        let credential = try Credential(encoded: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(!credential.testMaterial.isEmpty)
        if testCase.options.contains(where: { $0.hasPrefix("--ds-deviation") }) {
            let signer = try Certificate(derEncoded: try #require(credential.issuerSigned.issuerAuth.x5chain.first))
            #expect(signer.subject.contains("OU=TEST: "), "\(signer.subject)")
        }
        let (status, codes) = try await Self.verificationFailures(path)
        #expect(status == 3)
        #expect(codes == testCase.codes, "\(name)")
    }

    @Test func anOrdinaryDocumentIsNotTestMaterialAndVerifies() async throws {
        let (path, issued) = try await Self.issue([])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(issued.status == 0, "\(issued.standardError)")
        #expect(!issued.standardOutput.contains("TEST MATERIAL"))
        #expect(!issued.standardError.contains("warning"))
        let credential = try Credential(encoded: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(credential.testMaterial.isEmpty)
        #expect(try CBOR.decode(credential.encoded()).mapValue?[text: "testMaterial"] == nil)
        let (status, codes) = try await Self.verificationFailures(path)
        #expect(status == 0)
        #expect(codes.isEmpty)
    }

    @Test func theCredentialFileSaysWhyAndInspectShowsIt() async throws {
        let (path, _) = try await Self.issue(["--valid-from", "2021-01-01T00:00:00Z", "--valid-until", "2022-01-01T00:00:00Z"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let credential = try Credential(encoded: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(credential.testMaterial.count == 1)
        #expect(credential.testMaterial.first?.hasPrefix("the MSO has expired: validUntil 2022-01-01T00:00:00Z") == true)
        let inspected = try await ProgramRunner.run("mdoc", ["inspect", "--explain", path])
        #expect(inspected.status == 0)
        #expect(inspected.standardOutput.contains("TEST MATERIAL: made on purpose to fail verification"))
        #expect(inspected.standardOutput.contains("the MSO has expired"))
    }

    @Test func anMDLWithoutTheMandatoryElementsIsIssuedWithAWarning() async throws {
        let data = try ProgramRunner.temporaryFile(Array(#"{"nameSpaces": {"org.iso.18013.5.1": {"family_name": "Doe", "given_name": "Jane"}}}"#.utf8), suffix: ".json")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("thin-\(UUID().uuidString).mdoc").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try await ProgramRunner.run(
            "mdoc-issuer", ["issue", "--pki", try await Self.pki, "--doctype", DocType.mDL, "--data", data, "--out", out])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains(
            "mdoc-issuer: warning: the mDL lacks birth_date, issue_date, expiry_date, issuing_country, issuing_authority, document_number, portrait, driving_privileges, un_distinguishing_sign, mandatory in org.iso.18013.5.1 (ISO/IEC 18013-5 7.2.1, Table 5)"))
        // Another doc type is not held to the mDL's table.
        let pid = try await ProgramRunner.run(
            "mdoc-issuer", ["issue", "--pki", try await Self.pki, "--doctype", DocType.eudiPID, "--data", "Samples/pid.json", "--out", out, "--force"])
        #expect(pid.status == 0, "\(pid.standardError)")
        #expect(!pid.standardError.contains("warning"))
    }

    @Test func aTestDocumentSignerTheIACACannotIssueIsRefused() async throws {
        let (_, result) = try await Self.issue(["--ds-not-before", "2019-01-01T00:00:00Z"])
        #expect(result.status == 7)
        #expect(result.standardError.contains("cannot make the test document signer"))
        let badDeviation = try await Self.issue(["--ds-deviation", "no-such-thing"]).result
        #expect(badDeviation.status == 64)
        let both = try await Self.issue(["--valid-days", "10", "--valid-until", "2030-01-01T00:00:00Z"]).result
        #expect(both.status == 64)
    }

    @Test func theReaderRejectsAnExpiredDocumentInALiveSessionAndTheHolderSaysItIsTestMaterial() async throws {
        let (path, _) = try await Self.issue(["--valid-from", "2021-01-01T00:00:00Z", "--valid-until", "2022-01-01T00:00:00Z"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try await LiveSession(holder: ["--credential", path, "--yes"])
        let reader = try await session.request(["--trust", try await Self.pki + "/iaca.pem", "--elements", "family_name", "--json"])
        let holder = await session.holderResult(after: reader)
        #expect(reader.status == 3, "\(reader.standardError)")
        #expect(reader.standardError.contains("the MSO expired"))
        #expect(holder.standardError.contains("is TEST MATERIAL, made to fail verification: the MSO has expired"))
    }
}
