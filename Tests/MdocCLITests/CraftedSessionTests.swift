import Foundation
import MdocCBOR
import MdocTestSupport
import Testing

/// `mdoc encode` and `mdoc-reader request --request` (docs/crafted-sessions.md): what `mdoc
/// inspect` prints encodes back into the message's bytes, and a DeviceRequest written by hand
/// goes to the holder as it is, with what the holder answers shown.
@Suite struct CraftedSessionTests {
    static let vectors = ["device_request", "device_response", "device_engagement", "session_transcript_bytes"]

    @Test(arguments: vectors)
    func whatInspectPrintsEncodesBackToTheSameBytes(_ name: String) async throws {
        let path = "Vectors/iso18013-5-annex-d/\(name).hex"
        let hex = Hex.encode(Vectors.annexD(name))
        for format in ["--diagnostic", "--json"] {
            let printed = try await ProgramRunner.run("mdoc", ["inspect", format, path])
            #expect(printed.status == 0)
            let encoded = try await ProgramRunner.run("mdoc", ["encode", "--hex"], standardInput: Data(printed.standardOutput.utf8))
            #expect(encoded.status == 0, "\(encoded.standardError)")
            #expect(encoded.standardOutput == hex + "\n", "\(format)")
        }
    }

    @Test func writesTheBytesToOutAndReplacesAFileOnlyWithForce() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let input = run.home + "/request.diag"
        try Data(#"{"version": "2.0", "docRequests": [], 1_1: (_ h'01', h'02')}"#.utf8).write(to: URL(fileURLWithPath: input))
        let out = run.home + "/request.cbor"
        let first = try await run.run("mdoc", ["encode", input, "--out", out])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(Hex.encode(try Data(contentsOf: URL(fileURLWithPath: out))) == "a36776657273696f6e63322e306b646f635265717565737473801900015f41014102ff")
        let again = try await run.run("mdoc", ["encode", input, "--out", out])
        #expect(again.status == 7)
        #expect(again.standardError.contains("exists; give --force to replace it"), "\(again.standardError)")
        #expect(try await run.run("mdoc", ["encode", input, "--out", out, "--force"]).status == 0)
    }

    @Test func binaryIsNotWrittenToATerminalButHexIs() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let input = "Vectors/iso18013-5-annex-d/session_termination.hex"
        let binary = try await EverydayUseCommandTests.inTerminal("mdoc", ["encode", input], columns: 200, run: run)
        #expect(binary.status == 64)
        #expect(binary.standardOutput == "mdoc: error: the CBOR is binary and standard output is a terminal\nmdoc: give --out FILE, or --hex\n",
                "\(binary.standardOutput)")
        let hex = try await EverydayUseCommandTests.inTerminal("mdoc", ["encode", input, "--hex"], columns: 200, run: run)
        #expect(hex.status == 0)
        #expect(hex.standardOutput == Hex.encode(Vectors.annexD("session_termination")) + "\n")
    }

    @Test func theNotationCanBeNamedWhereTheInputIsBoth() async throws {
        // {"1": 2} is JSON, whose key reads as the integer 1, and diagnostic notation, whose key
        // is the text "1".
        let json = try await ProgramRunner.run("mdoc", ["encode", "--hex"], standardInput: Data(#"{"1": 2}"#.utf8))
        #expect(json.standardOutput == "a10102\n")
        let diag = try await ProgramRunner.run("mdoc", ["encode", "--hex", "--from", "diag"], standardInput: Data(#"{"1": 2}"#.utf8))
        #expect(diag.standardOutput == "a1613102\n")
    }

    @Test func badTextFailsNamingTheLineAndColumn() async throws {
        let result = try await ProgramRunner.run("mdoc", ["encode", "--hex", "--from", "diag"], standardInput: Data("[1,\n  @]".utf8))
        #expect(result.status == 2)
        #expect(result.standardError == "mdoc: error: standard input: line 2, column 3: unexpected character, expected a data item\n")
        let json = try await ProgramRunner.run("mdoc", ["encode", "--hex", "--from", "json"], standardInput: Data(#"{"$bytes": 1}"#.utf8))
        #expect(json.status == 2)
        #expect(json.standardError.hasPrefix("mdoc: error: standard input: line 1, column 12: $bytes is base64url text"), "\(json.standardError)")
    }

    @Test func hostileTextIsEscapedInTheError() async throws {
        let result = try await ProgramRunner.run(
            "mdoc", ["encode", "--hex", "--from", "json"], standardInput: Data("{\"a\u{1B}[31m\": 1, \"a\u{1B}[31m\": 2}".utf8))
        #expect(result.status == 2)
        #expect(!result.standardError.contains("\u{1B}"), "\(result.standardError)")
    }

    @Test(arguments: [
        (["--hex", "--out", "x.cbor"], "--hex prints the bytes and --out writes them; give one of them"),
        (["--force"], "--force replaces the --out file: give --out"),
    ])
    func conflictingOptionsAreUsageErrors(_ arguments: [String], _ message: String) async throws {
        let result = try await ProgramRunner.run("mdoc", ["encode"] + arguments)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("mdoc: error: \(message)\n"), "\(result.standardError)")
    }

    @Test(arguments: [
        (["--preset", "full"], "--preset builds one"),
        (["--doctype", "mdl"], "--doctype builds one"),
        (["--retain"], "--retain builds one"),
        (["--reader-cert", "Certs/demo/reader.pem", "--reader-key", "Certs/demo/reader-key.pem"],
         "--reader-cert would sign a DocRequest of it with this session's transcript"),
    ])
    func aGivenRequestIsNotCombinedWithOptionsThatBuildOne(_ arguments: [String], _ conflict: String) async throws {
        let result = try await ProgramRunner.run(
            "mdoc-reader", ["request", "mdoc:owBjMS4w", "--request", "Vectors/iso18013-5-annex-d/device_request.hex"] + arguments)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("mdoc-reader: error: --request sends its DeviceRequest as it is, and \(conflict): give one of them\n"),
                "\(result.standardError)")
    }

    /// A DocRequest for the family name, in a DeviceRequest of `version` with `extra` entries.
    static func request(version: String, extra: String = "") -> String {
        """
        / crafted /
        {"version": "\(version)", "docRequests": [{"itemsRequest": 24(<<{"docType": "org.iso.18013.5.1.mDL",
          "nameSpaces": {"org.iso.18013.5.1": {"family_name": false}}}>>)}]\(extra)}
        """
    }

    /// The JSON report of a session over `sim` in which the reader sends the request in `text`.
    func session(sending text: String, in run: IsolatedRun) async throws -> (reader: ProgramRunner.Result, report: [String: Any]?) {
        let file = run.home + "/request.txt"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let session = try await run.session(
            holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr"],
            reader: ["--request", file, "--trust", "Certs/demo/iaca.pem", "--json"])
        let report = try? JSONSerialization.jsonObject(with: Data(session.reader.standardOutput.utf8)) as? [String: Any]
        return (session.reader, report)
    }

    @Test func theHolderAnswersARequestWithAnRFUKeyAndItIsVerified() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (reader, report) = try await session(sending: Self.request(version: "1.0", extra: #", "rfu": 1"#), in: run)
        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(reader.standardError.hasPrefix("mdoc-reader: sending the DeviceRequest of \(run.home)/request.txt as given: 124 bytes, from diagnostic notation\n"),
                "\(reader.standardError)")
        #expect(report?["outcome"] as? String == "verified")
        let document = (report?["documents"] as? [[String: Any]])?.first
        #expect(document?["deviceAuthentication"] as? String == "DeviceMac")
    }

    @Test func theHolderAnswersARequestOfAnUnknownVersionInVersion1() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (reader, report) = try await session(sending: Self.request(version: "2.0"), in: run)
        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(report?["outcome"] as? String == "verified")
        #expect(report?["version"] as? String == "1.0")
    }

    @Test func theHolderAnswersARequestThatIsNoDeviceRequestWithStatus12() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let (reader, report) = try await session(sending: #"{"version": "1.0"}"#, in: run)
        #expect(reader.status == 6, "\(reader.standardError)")
        #expect(reader.standardError.contains("from lossless JSON"), "\(reader.standardError)")
        #expect(reader.standardError.contains("the response holds no document (status CBOR validation error (12))"), "\(reader.standardError)")
        #expect(report?["outcome"] as? String == "noDocuments")
        #expect(report?["status"] as? Int == 12)
    }

    /// EReaderKey follows EDeviceKey onto P-384, where the P-256 device key of the demo
    /// credential cannot agree a MAC key: the holder signs (9.1.3.5), on P-256 it MACs.
    @Test(arguments: [("p384", "DeviceSignature", "P-384"), ("p256", "DeviceMac", "P-256")])
    func theEDeviceKeyCurveDecidesBetweenMACAndSignature(_ curve: String, _ method: String, _ name: String) async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let capture = run.home + "/capture"
        let session = try await run.session(
            holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--edevice-curve", curve],
            reader: ["--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--json", "--save-session", capture])
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        let report = try JSONSerialization.jsonObject(with: Data(session.reader.standardOutput.utf8)) as? [String: Any]
        let document = (report?["documents"] as? [[String: Any]])?.first
        #expect(document?["deviceAuthentication"] as? String == method)
        let inspected = try await run.run("mdoc", ["inspect", "--explain", capture])
        #expect(inspected.standardOutput.contains("a \(name) public key"), "\(inspected.standardOutput)")
    }

    /// A DeviceResponse of status 12 and no documents, in diagnostic notation with an RFU key
    /// and the status in a head longer than it needs to be (`18 0c`), as a tester writes one.
    static let overridingResponse = #"{"version": "1.0", "status": 12_0, "rfu": "x"} / crafted /"#

    @Test func theReaderReceivesTheOverriddenResponseByteForByte() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let file = run.home + "/response.diag", capture = run.home + "/capture"
        try Data(Self.overridingResponse.utf8).write(to: URL(fileURLWithPath: file))
        let encoded = try await run.run("mdoc", ["encode", file, "--hex"])
        #expect(encoded.standardOutput == "a36776657273696f6e63312e3066737461747573180c637266756178\n", "\(encoded.standardOutput)")
        let session = try await run.session(
            holder: ["--credential", "Certs/demo/mdl.mdoc", "--no-qr", "--response-override", file],
            reader: ["--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--json", "--save-session", capture])
        // The reader decrypted exactly the file's bytes (its capture keeps the plaintext) and
        // reported the response's status 12 without documents.
        let received = try Data(contentsOf: URL(fileURLWithPath: capture + "/02-received-device-response.cbor"))
        #expect(Hex.encode(received) + "\n" == encoded.standardOutput)
        #expect(session.reader.status == 6, "\(session.reader.standardError)")
        let report = try JSONSerialization.jsonObject(with: Data(session.reader.standardOutput.utf8)) as? [String: Any]
        #expect(report?["status"] as? Int == 12)
        #expect(session.holder.status == 0, "\(session.holder.standardError)")
        #expect(session.holder.standardError.contains(
            "mdoc-holder: warning: test material: this session answers with the DeviceResponse of \(file) (28 bytes, from diagnostic notation) " +
            "in place of the one it builds; no consent is asked and nothing of the credentials is disclosed\n"), "\(session.holder.standardError)")
        // Nobody was asked, and nothing of the credential was released.
        #expect(session.holder.standardError.contains("mdoc-holder: sending no elements"), "\(session.holder.standardError)")
        #expect(!session.holder.standardOutput.contains("family_name") && !session.holder.standardError.contains("[y/N]"),
                "\(session.holder.standardError)")
    }

    @Test func anUnreadableResponseOverrideIsNamedBeforeTheEngagement() async throws {
        let path = try ProgramRunner.temporaryFile(Array("{1: @}".utf8), suffix: ".diag")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await ProgramRunner.run(
            "mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--transport", "sim", "--no-qr", "--response-override", path])
        #expect(result.status == 7)
        #expect(result.standardError == "mdoc-holder: error: --response-override \(path): line 1, column 5: unexpected character, expected a data item\n",
                "\(result.standardError)")
        #expect(!result.standardOutput.contains("mdoc:"), "\(result.standardOutput)")
        let missing = try await ProgramRunner.run(
            "mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--transport", "sim", "--no-qr", "--response-override", path + ".none"])
        #expect(missing.status == 7)
        #expect(missing.standardError.hasPrefix("mdoc-holder: error: --response-override \(path).none"), "\(missing.standardError)")
    }

    @Test(arguments: [["--yes"], ["--policy", "policy.json"]])
    func aResponseOverrideAsksNoConsentSoTheConsentOptionsAreRefused(_ consent: [String]) async throws {
        let result = try await ProgramRunner.run(
            "mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--response-override", "x.diag"] + consent)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix(
            "mdoc-holder: error: --response-override sends the file's DeviceResponse and asks no consent; leave out --yes and --policy\n"),
                "\(result.standardError)")
    }

    @Test func aResponseOverrideFromStandardInputIsNotCombinedWithUnlockingEachSession() async throws {
        let result = try await ProgramRunner.run(
            "mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--response-override", "-", "--unlock-each-session"])
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix(
            "mdoc-holder: error: --unlock-each-session reads the PIN or passphrase from standard input: give --response-override a file, not -\n"),
                "\(result.standardError)")
    }

    @Test func anUnreadableRequestFileIsNamedBeforeConnecting() async throws {
        let path = try ProgramRunner.temporaryFile(Array("[1, @]".utf8), suffix: ".diag")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await ProgramRunner.run(
            "mdoc-reader", ["request", "mdoc:owBjMS4w", "--request", path, "--trust", "Certs/demo/iaca.pem"])
        #expect(result.status == 7)
        #expect(result.standardError == "mdoc-reader: error: --request \(path): line 1, column 5: unexpected character, expected a data item\n")
    }
}
