import Foundation
import Testing

/// swift-mdoc against an independent ISO/IEC 18013-5 implementation, pymdoccbor
/// (Tests/Interop/README.md): a credential pymdoccbor issues is presented live by `mdoc-holder`
/// and verified by `mdoc-reader`, and pymdoccbor verifies the issuer data (9.3.1) of a credential
/// `mdoc-issuer` issues. The Python peers are required: a machine without them fails these
/// tests with the command that installs them.
@Suite struct InteropTests {
    static let mDL = "org.iso.18013.5.1.mDL"
    static let mDLNameSpace = "org.iso.18013.5.1"
    static let installHint = "pip install -r Tests/Interop/requirements.txt"

    /// Issuer data in the format of Tests/Interop/pymdoccbor_issue.py (dates pymdoccbor tags
    /// itself as plain text).
    static let pymdoccborData = """
        {
          "org.iso.18013.5.1": {
            "family_name": "Doe",
            "given_name": "Jane",
            "birth_date": "1990-01-01",
            "issue_date": "2024-01-01",
            "expiry_date": "2034-01-01",
            "issuing_country": "US",
            "issuing_authority": "Utopia Department of Motor Vehicles",
            "document_number": "D1234567",
            "portrait": {"$bstr": "ffd8ffe000104a46494600010100000100010000ffd9"},
            "driving_privileges": [
              {"vehicle_category_code": "A", "issue_date": "2018-08-09", "expiry_date": "2034-01-01"}
            ],
            "un_distinguishing_sign": "USA",
            "height": 170,
            "age_over_18": true
          }
        }
        """

    /// Fails the test unless python3 with pymdoccbor and its dependencies is installed.
    static func requirePython() async throws {
        let check = try await ProgramRunner.runTool("python3", ["-c", "import pymdoccbor, cbor2, pycose, cryptography"])
        try #require(
            check.status == 0,
            "the interop tests need python3 with pymdoccbor: \(installHint) (status \(check.status): \(check.standardError))")
    }

    @Test func credentialIssuedByPymdoccborIsPresentedAndVerified() async throws {
        try await Self.requirePython()
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let deviceKey = folder + "/device.pem"
        try await LiveSession.makeOpenSSLKey(curve: "P-256", at: deviceKey)
        let data = folder + "/data.json"
        try LiveSession.write(Self.pymdoccborData, to: data)
        let credential = folder + "/pymdoccbor.mdoc"

        let issued = try await ProgramRunner.runTool("python3", [
            "Tests/Interop/pymdoccbor_issue.py", "--ds-key", "Certs/demo/ds-key.pem", "--ds-cert", "Certs/demo/ds.pem",
            "--device-key", deviceKey, "--doctype", Self.mDL, "--data", data, "--out", credential,
        ], timeout: LiveSession.waitTimeout)
        try #require(issued.status == 0, "\(issued.standardError)")
        #expect(issued.standardOutput.hasPrefix("issued org.iso.18013.5.1.mDL with 13 elements: "), "\(issued.standardOutput)")

        let session = try await LiveSession(holder: ["--credential", credential, "--yes"])
        let reader = try await session.request([
            "--elements", "family_name,birth_date,document_number,driving_privileges,height,age_over_18,portrait",
            "--json", "--trust", "Certs/demo/iaca.pem",
        ])
        let holder = await session.holderResult(after: reader)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")
        let json = try ReaderJSON(reader.standardOutput)
        #expect(json.outcome == "verified", "\(reader.standardOutput)")
        let document = try #require(json.document(Self.mDL))
        #expect(document["outcome"] as? String == "verified")
        #expect(document["deviceAuthentication"] as? String == "DeviceMac")
        #expect(document["documentSigner"] as? String == "C=US, CN=swift-mdoc Demo Document Signer")
        let returned = json.values(Self.mDL, Self.mDLNameSpace)
        #expect(returned.count == 7, "\(returned.keys.sorted())")
        #expect(returned["family_name"] as? String == "Doe")
        #expect(returned["birth_date"] as? String == "1990-01-01")
        #expect(returned["document_number"] as? String == "D1234567")
        #expect(returned["height"] as? Int == 170)
        #expect(returned["age_over_18"] as? Bool == true)
        #expect((returned["portrait"] as? [String: Any])?["hex"] as? String == "ffd8ffe000104a46494600010100000100010000ffd9")
        let privileges = try #require(returned["driving_privileges"] as? [[String: Any]])
        #expect(privileges.first?["vehicle_category_code"] as? String == "A")
        #expect(privileges.first?["expiry_date"] as? String == "2034-01-01")
    }

    @Test func credentialIssuedByUsPassesPymdoccborAndATamperedCopyFails() async throws {
        try await Self.requirePython()
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let credential = folder + "/mdl.mdoc"
        let issued = try await ProgramRunner.run("mdoc-issuer", [
            "issue", "--pki", "Certs/demo", "--doctype", Self.mDL, "--data", "Samples/mdl.json", "--out", credential,
        ])
        try #require(issued.status == 0, "\(issued.standardError)")

        let verified = try await ProgramRunner.runTool(
            "python3", ["Tests/Interop/pymdoccbor_verify_mso.py", credential, "--iaca", "Certs/demo/iaca.pem"],
            timeout: LiveSession.waitTimeout)
        #expect(verified.status == 0, "\(verified.standardOutput)\(verified.standardError)")
        #expect(verified.standardOutput.hasPrefix("OK "), "\(verified.standardOutput)")
        #expect(verified.standardOutput.contains("MSO signature valid (pymdoccbor and own check), 31 item digests match"))
        #expect(verified.standardOutput.contains("DS certificate issued by IACA"))
        #expect(verified.standardOutput.contains("deviceKey matches MSO"))

        // "Doe" as a CBOR text string (major type 3, length 3) occurs once: family_name's value.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: credential)))
        let doe: [UInt8] = [0x63] + Array("Doe".utf8)
        let places = (0...(bytes.count - doe.count)).filter { Array(bytes[$0..<($0 + doe.count)]) == doe }
        try #require(places.count == 1, "\"Doe\" occurs \(places.count) times in the credential")
        bytes[places[0] + 3] ^= 0x01  // "Doe" -> "Dod"
        let tampered = folder + "/tampered.mdoc"
        try Data(bytes).write(to: URL(fileURLWithPath: tampered))

        let rejected = try await ProgramRunner.runTool(
            "python3", ["Tests/Interop/pymdoccbor_verify_mso.py", tampered, "--iaca", "Certs/demo/iaca.pem"],
            timeout: LiveSession.waitTimeout)
        // The script reports failures on standard error.
        #expect(rejected.status == 1, "\(rejected.standardOutput)\(rejected.standardError)")
        #expect(!rejected.standardOutput.contains("OK "), "\(rejected.standardOutput)")
        let report = rejected.standardError
        #expect(report.contains("FAILED: 2 check(s) failed:"), "\(report)")
        #expect(report.contains("own check: issuerSigned.nameSpaces['org.iso.18013.5.1']"), "\(report)")
        #expect(report.contains("(family_name): digest does not match"), "\(report)")
        #expect(report.contains("pymdoccbor: issuerSigned.nameSpaces: digest check failed"), "\(report)")
        #expect(report.contains("'elementIdentifier': 'family_name', 'reason': 'hash mismatch'"), "\(report)")
    }
}
