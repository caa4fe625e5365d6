import Foundation
import MdocCBOR
import MdocCrypto
import MdocModel
import MdocSession
import MdocStatusList
import MdocStores
import Testing

/// `mdoc-issuer issue --status-uri` and `mdoc-issuer status-list`: a document that names its
/// entry in a Status List Token, and the token its issuer publishes (draft-ietf-oauth-status-list).
@Suite struct StatusListCommandTests {
    static let uri = "https://issuer.example/status/1"

    @Test("a document names its entry, and the list signed by its document signer says that entry's status")
    func documentAndList() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        #expect(try await run.run("mdoc-issuer", ["pki", run.home + "/pki"]).status == 0)
        let issued = try await run.run("mdoc-issuer", [
            "issue", "--pki", run.home + "/pki", "--doctype", "mdl", "--data", "Samples/mdl.json", "--out", run.home + "/mdl.mdoc",
            "--status-uri", Self.uri, "--status-index", "3",
        ])
        #expect(issued.status == 0, "\(issued.standardError)")
        let credential = try CredentialFiles.load(run.home + "/mdl.mdoc").credential
        let query = RevocationQuery(
            docType: credential.docType, certificatePath: [], status: credential.mobileSecurityObject.value.additionalEntries[text: "status"],
            time: Date())
        #expect(query.statusListReference == RevocationQuery.StatusListReference(index: 3, uri: Self.uri))

        let written = try await run.run("mdoc-issuer", [
            "status-list", "--pki", run.home + "/pki", "--uri", Self.uri, "--set", "3=invalid", "--set", "5=suspended", "--set", "6=3",
            "--out", run.home + "/status.cwt",
        ])
        #expect(written.status == 0, "\(written.standardError)")
        #expect(written.standardOutput.contains("Wrote a status list of 16 entries (2 bits each) for \(Self.uri)"), "\(written.standardOutput)")
        let token = try StatusListToken(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: run.home + "/status.cwt"))))
        let signer = try #require(try CertificateFiles.loadFile(run.home + "/pki/ds.pem").first)
        #expect(token.x5chain == [signer.derRepresentation])
        let validation = try token.validate(uri: Self.uri, at: Date(), key: .publicKey(signer.publicKey))
        let list = validation.token.statusList
        #expect(try (0..<16).map { try list.value(at: $0).rawValue } == [0, 0, 0, 1, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(token.claims.timeToLive == 43_200)
        #expect(token.claims.expiration == token.claims.issuedAt + 86_400)
    }

    @Test("bad options are usage errors naming the option", arguments: [
        (["--set", "16=invalid"], "--set 16=invalid"), (["--set", "2=4"], "--set 2=4"), (["--bits", "3"], "--bits"),
        (["--size", "0"], "--size"), (["--ttl", "0"], "--ttl"), (["--issued-at", "yesterday"], "--issued-at"),
    ])
    func usage(options: [String], named: String) async throws {
        let result = try await ProgramRunner.run("mdoc-issuer", ["status-list", "--pki", "Certs/demo", "--uri", Self.uri, "--out", "/nonexistent/x"] + options)
        #expect(result.status == 64 && result.standardError.contains(named), "\(result.standardError)")
    }

    @Test("--status-uri and --status-index go together")
    func statusOptionsTogether() async throws {
        let result = try await ProgramRunner.run("mdoc-issuer", [
            "issue", "--pki", "Certs/demo", "--doctype", "mdl", "--data", "Samples/mdl.json", "--out", "/nonexistent/x", "--status-uri", Self.uri,
        ])
        #expect(result.status == 64 && result.standardError.contains("--status-index"), "\(result.standardError)")
    }
}
