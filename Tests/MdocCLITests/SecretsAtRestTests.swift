import Foundation
import MdocCBOR
import MdocCrypto
import MdocSession
import MdocStores
import Testing

/// Secrets at rest and in logs (docs/architecture.md rule 8): the demo runs with the committed credential
/// as git checks it out (its published key is no secret; ``DemoMaterialTests`` has the refusal
/// of a secret one), and no private key the programs hold appears in anything they print.
@Suite struct SecretsAtRestTests {
    /// Runs one of the programs in its own sim namespace without holding a thread of the
    /// cooperative pool while it runs.
    static func run(_ program: String, _ arguments: [String]) async throws -> ProgramRunner.Result {
        let running = try BackgroundProgram(program, arguments, environment: ["MDOC_SIM_NAMESPACE": "secrets-\(UUID().uuidString)"])
        running.closeInput()
        return await running.wait(timeout: LiveSession.waitTimeout)
    }

    @Test func theDemoPresentsTheCommittedCredentialAsGitChecksItOut() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for file in ["iaca.pem", "reader-root.pem", "reader.pem", "reader-key.pem", "mdl.mdoc"] {
            try FileManager.default.copyItem(atPath: ProgramRunner.repositoryRoot + "/Certs/demo/" + file, toPath: folder + "/" + file)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/mdl.mdoc")

        let result = try await Self.run("mdoc", ["demo", "--dir", folder, "--preset", "age-over-18"])

        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains(
            "mdoc-holder: note: \(folder)/mdl.mdoc may be read by others; it is used because its device key is published test material"),
                "\(result.standardError)")
        // Nothing changed the file: the demo no longer needs its mode changed.
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/mdl.mdoc")[.posixPermissions] as? Int
        #expect(mode == 0o644)
    }

    /// The forms a private key could be printed in: hex (both cases), base64 and base64url.
    static func printedForms(of secret: [UInt8]) -> [String] {
        let base64 = Data(secret).base64EncodedString()
        let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let hex = secret.map { String(format: "%02x", $0) }.joined()
        return [hex, hex.uppercased(), base64.replacingOccurrences(of: "=", with: ""), base64URL]
    }

    @Test func noPrivateKeyAppearsInWhatHolderAndReaderPrint() async throws {
        let credential = try CredentialFiles.load(ProgramRunner.repositoryRoot + "/Certs/demo/mdl.mdoc").credential
        let readerKey = try KeyFiles.loadPrivateKey(ProgramRunner.repositoryRoot + "/Certs/demo/reader-key.pem")
        let secrets = [credential.deviceKey.rawRepresentation, readerKey.rawRepresentation]

        // At the most verbose log level: not even the diagnostic logs carry a key.
        let session = try await LiveSession(holder: [
            "--credential", "Certs/demo/mdl.mdoc", "--yes", "--trust-readers", "Certs/demo/reader-root.pem", "--log-level", "trace",
        ])
        let reader = try await session.request(
            ["--preset", "full", "--json", "--log-level", "trace", "--trust", "Certs/demo/iaca.pem"] + LiveSessionTests.readerAuthentication)
        let holder = await session.holderResult(after: reader)
        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")

        let printed = [reader.standardOutput, reader.standardError, holder.standardOutput, holder.standardError]
        for secret in secrets {
            for form in Self.printedForms(of: secret) {
                #expect(!printed.contains { $0.contains(form) }, "a private key was printed")
            }
        }
    }
}
