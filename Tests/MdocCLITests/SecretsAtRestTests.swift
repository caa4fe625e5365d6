import Foundation
import MdocCBOR
import MdocCrypto
import MdocSession
import MdocTerminal
import Testing

/// Secrets at rest and in logs (design.md rule 8): `mdoc-holder` refuses a credential file that
/// group or others may access, saying how to fix it, and no private key the programs hold
/// appears in anything they print.
@Suite struct SecretsAtRestTests {
    /// A copy of the demo mDL credential with `mode`, in a new folder the caller removes.
    static func credentialCopy(mode: Int) throws -> (folder: String, path: String) {
        let folder = try LiveSession.temporaryFolder()
        let path = folder + "/mdl.mdoc"
        try FileManager.default.copyItem(atPath: ProgramRunner.repositoryRoot + "/Certs/demo/mdl.mdoc", toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return (folder, path)
    }

    /// Runs one of the programs in its own sim namespace without holding a thread of the
    /// cooperative pool while it runs.
    static func run(_ program: String, _ arguments: [String]) async throws -> ProgramRunner.Result {
        let running = try BackgroundProgram(program, arguments, environment: ["MDOC_SIM_NAMESPACE": "secrets-\(UUID().uuidString)"])
        running.closeInput()
        return await running.awaitExit(timeout: LiveSession.waitTimeout)
    }

    @Test(arguments: [(0o644, "group and others"), (0o640, "group"), (0o604, "others"), (0o660, "group")])
    func credentialOthersCanAccessIsRefused(mode: Int, who: String) async throws {
        let (folder, path) = try Self.credentialCopy(mode: mode)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await Self.run("mdoc-holder", ["present", "--credential", path, "--yes", "--no-qr", "--timeout", "1"])

        #expect(result.status == 7, "\(result.standardError)")
        let octal = "0" + String(mode, radix: 8)
        #expect(result.standardError.contains(
            "--credential \(path): holds a private key but its mode \(octal) lets \(who) access it; run: chmod 600 \(path)"),
            "\(result.standardError)")
        #expect(!result.standardOutput.contains("mdoc:"), "no engagement may be shown")
    }

    @Test(arguments: [0o600, 0o400])
    func privateCredentialIsAccepted(mode: Int) async throws {
        let (folder, path) = try Self.credentialCopy(mode: mode)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await Self.run("mdoc-holder", ["present", "--credential", path, "--yes", "--no-qr", "--timeout", "1"])

        // It shows its engagement and waits; nobody comes within the second.
        #expect(result.standardOutput.hasPrefix("mdoc:"), "\(result.standardOutput)\(result.standardError)")
        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("within 1 s"), "\(result.standardError)")
    }

    @Test func demoSetsItsCredentialPrivate() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for file in ["iaca.pem", "reader-root.pem", "reader.pem", "reader-key.pem", "mdl.mdoc"] {
            try FileManager.default.copyItem(atPath: ProgramRunner.repositoryRoot + "/Certs/demo/" + file, toPath: folder + "/" + file)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder + "/mdl.mdoc")

        let result = try await Self.run("mdoc", ["demo", "--dir", folder, "--preset", "age-over-18"])

        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("mdoc: \(folder)/mdl.mdoc set to mode 0600"), "\(result.standardError)")
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/mdl.mdoc")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// The forms a private key could be printed in: hex (both cases), base64 and base64url.
    static func printedForms(of secret: [UInt8]) -> [String] {
        let base64 = Data(secret).base64EncodedString()
        let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let hex = secret.map { String(format: "%02x", $0) }.joined()
        return [hex, hex.uppercased(), base64.replacingOccurrences(of: "=", with: ""), base64URL]
    }

    @Test func noPrivateKeyAppearsInWhatHolderAndReaderPrint() throws {
        try LiveSession.makeDemoCredentialsPrivate()
        let credential = try Credential(encoded: try InputSource.loadPrivate(
            ProgramRunner.repositoryRoot + "/Certs/demo/mdl.mdoc").bytes)
        let readerKey = try KeyFiles.loadPrivateKey(ProgramRunner.repositoryRoot + "/Certs/demo/reader-key.pem")
        let secrets = [credential.deviceKey.rawRepresentation, readerKey.rawRepresentation]

        // At the most verbose log level: not even the diagnostic logs carry a key.
        let session = try LiveSession(holder: [
            "--credential", "Certs/demo/mdl.mdoc", "--yes", "--trust-readers", "Certs/demo/reader-root.pem", "--log-level", "trace",
        ])
        let reader = try session.request(
            ["--preset", "full", "--json", "--log-level", "trace", "--trust", "Certs/demo/iaca.pem"] + LiveSessionTests.readerAuthentication)
        let holder = session.holderResult(after: reader)
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
