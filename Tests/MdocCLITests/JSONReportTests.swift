import Foundation
import MdocTerminal
import MdocTestSupport
import Testing

/// The JSON the programs print is what docs/json-report.md says: the document's tables are read
/// as the schema, the programs run, and every object they print is checked against it: no
/// member the document does not list, every member it marks "always" present, each of the
/// type it names.
@Suite struct JSONReportTests {
    /// One documented member.
    struct Member {
        let type: String
        let always: Bool
    }

    /// The document's tables: object path (`verificationReport.documents[]`) → member → spec.
    static func schema() throws -> [String: [String: Member]] {
        let text = try String(contentsOfFile: Vectors.repositoryRoot + "/docs/json-report.md", encoding: .utf8)
        var schema: [String: [String: Member]] = [:]
        var path: String? = nil
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("#"), let open = line.firstIndex(of: "`"), let close = line.lastIndex(of: "`"), open < close {
                path = String(line[line.index(after: open)..<close])
                continue
            }
            guard let current = path, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            schema[current, default: [:]][name] = Member(type: cells[1], always: cells[2] == "always")
        }
        return schema
    }

    /// Problems of `value`, an object at `path`, against `schema`.
    static func problems(_ value: Any, at path: String, _ schema: [String: [String: Member]]) -> [String] {
        guard let members = schema[path] else { return ["\(path): not documented"] }
        guard let object = value as? [String: Any] else { return ["\(path): not an object"] }
        var problems: [String] = []
        for (name, member) in members where member.always && object[name] == nil {
            problems.append("\(path).\(name): documented as always present, missing")
        }
        for (name, member) in object {
            guard let spec = members[name] else {
                problems.append("\(path).\(name): not documented")
                continue
            }
            let where_ = "\(path).\(name)"
            if member is NSNull {
                if !spec.type.hasSuffix("or null") { problems.append("\(where_): null, documented as \(spec.type)") }
                continue
            }
            switch spec.type.replacingOccurrences(of: " or null", with: "") {
            case "string":
                if !(member is String) { problems.append("\(where_): not a string") }
            case "number", "boolean":
                if !(member is NSNumber) { problems.append("\(where_): not a \(spec.type)") }
            case "array of strings":
                if !((member as? [Any])?.allSatisfy { $0 is String } ?? false) { problems.append("\(where_): not an array of strings") }
            case "map":
                if !(member is [String: Any]) { problems.append("\(where_): not a map") }
            case "object":
                problems += Self.problems(member, at: where_, schema)
            case "array of objects":
                guard let items = member as? [Any] else {
                    problems.append("\(where_): not an array")
                    continue
                }
                for item in items { problems += Self.problems(item, at: where_ + "[]", schema) }
            default:
                problems.append("\(where_): the document names an unknown type \(spec.type)")
            }
        }
        return problems
    }

    /// The top-level objects in `text`: one object, or one per line.
    static func objects(_ text: String) throws -> [[String: Any]] {
        if let one = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] { return [one] }
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON line: \(line)")
        }
    }

    @Test func everyJSONObjectIsAsDocumented() async throws {
        let schema = try Self.schema()
        #expect(Set(JSONReport.Kind.allCases.map(\.rawValue)).isSubset(of: Set(schema.keys)))
        let run = try IsolatedRun()
        defer { run.remove() }
        let v = "Vectors/iso18013-5-annex-d"
        var outputs: [(what: String, text: String)] = []

        let verified = try await run.run("mdoc-reader", ["verify", "\(v)/device_response.hex", "--trust", "\(v)/iaca_cert.hex",
                                                         "--at", "2021-01-01T00:00:00Z", "--transcript", "\(v)/session_transcript_bytes.hex",
                                                         "--reader-key", "Certs/annex-d/eReaderKey.pem", "--json"])
        outputs.append(("verify", verified.standardOutput))
        let failed = try await run.run("mdoc-reader", ["verify", "\(v)/device_response.hex", "--trust", "\(v)/iaca_cert.hex", "--json"])
        outputs.append(("verify, expired", failed.standardOutput))
        for (what, root) in [("verify-request", "reader_root_cert"), ("verify-request, untrusted", "iaca_cert")] {
            let request = try await run.run("mdoc-reader", [
                "verify-request", "\(v)/device_request.hex", "--transcript", "\(v)/session_transcript_bytes.hex",
                "--trust-readers", "\(v)/\(root).hex", "--at", "2021-01-01T00:00:00Z", "--json",
            ])
            outputs.append((what, request.standardOutput))
        }

        // A session: a policy refusing one element, one element the holder lacks, a trusted reader.
        let policy = run.home + "/policy.json"
        try Data(#"{"rules": [{"docType": "org.iso.18013.5.1.mDL", "allow": ["family_name"]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: policy))
        let session = try await run.session(
            holder: ["--credential", "Certs/demo/mdl.mdoc", "--policy", policy, "--trust-readers", "Certs/demo/reader-root.pem", "--json"],
            reader: ["--elements", "family_name,given_name,no_such_element", "--trust", "Certs/demo/iaca.pem", "--json",
                     "--reader-cert", "Certs/demo/reader.pem", "--reader-key", "Certs/demo/reader-key.pem"])
        #expect(session.reader.status == 0, "\(session.reader.standardError)")
        outputs.append(("request", session.reader.standardOutput))
        outputs.append(("present", session.holder.standardOutput))
        let lines = try Self.objects(session.holder.standardOutput)
        #expect(lines.map { $0["type"] as? String } == ["engagement", "holderSession"], "\(session.holder.standardOutput)")
        let outcome = try #require(lines.last)
        #expect(outcome["outcome"] as? String == "terminatedByReader")
        #expect(outcome["released"] as? Int == 1)
        #expect(session.holder.standardError.contains("The reader requests:"), "the request is shown on standard error")

        let alone = try await run.run("mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--json",
                                                      "--transport", "sim", "--timeout", "1"])
        #expect(alone.status == 8)
        outputs.append(("present, no reader", alone.standardOutput))
        let failure = try #require(try Self.objects(alone.standardOutput).last)
        #expect(failure["outcome"] as? String == "failed" && failure["exitStatus"] as? Int == 8, "\(alone.standardOutput)")

        let noMdoc = try await run.run("mdoc-reader", ["request", Self.annexDEngagement, "--trust", "Certs/demo/iaca.pem", "--json",
                                                       "--transport", "sim", "--timeout", "1"])
        #expect(noMdoc.status == 8)
        outputs.append(("request, no mdoc", noMdoc.standardOutput))

        let advertising = try run.start("mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr",
                                                        "--transport", "sim", "--ble-mode", "peripheral",
                                                        "--timeout", "\(LiveSession.programTimeout)"])
        _ = await advertising.line(startingWith: "mdoc:", number: 1, timeout: LiveSession.waitTimeout)
        // The holder prints its URI before it advertises; on a slow machine a short scan can
        // end before the advertising starts, so scan again until the holder is seen.
        var scan = try await run.run("mdoc-reader", ["scan", "--transport", "sim", "--timeout", "2", "--json"])
        var devices = try #require(try Self.objects(scan.standardOutput).first?["devices"] as? [Any])
        let scanning = Date()
        while devices.isEmpty, Date().timeIntervalSince(scanning) < LiveSession.waitTimeout {
            scan = try await run.run("mdoc-reader", ["scan", "--transport", "sim", "--timeout", "2", "--json"])
            devices = try #require(try Self.objects(scan.standardOutput).first?["devices"] as? [Any])
        }
        _ = await advertising.terminate()
        outputs.append(("scan", scan.standardOutput))
        #expect(!devices.isEmpty, "\(scan.standardOutput)")

        #expect(try await run.run("mdoc-holder", ["import", "Certs/demo/mdl.mdoc"]).status == 0)
        try Data("not a credential".utf8).write(to: URL(fileURLWithPath: run.credentialStore + "/broken.mdoc"))
        outputs.append(("list", try await run.run("mdoc-holder", ["list", "--json"]).standardOutput))
        outputs.append(("show", try await run.run("mdoc-holder", ["show", "mdl", "--json"]).standardOutput))
        outputs.append(("pki", try await run.run("mdoc-issuer", ["pki", run.home + "/pki", "--vical", "--json"]).standardOutput))
        let store = run.home + "/trust"
        #expect(try await run.run("mdoc-reader", ["trust", "add", "Certs/demo/iaca.pem", "--doc-type", "org.iso.18013.5.1.mDL",
                                                  "--trust-store", store]).status == 0)
        try FileManager.default.copyItem(atPath: run.home + "/pki/iaca.pem", toPath: store + "/pki-iaca.pem")
        outputs.append(("trust list", try await run.run("mdoc-reader", ["trust", "list", "--json", "--trust-store", store]).standardOutput))
        #expect(try await run.run("mdoc-reader", ["trust", "add", "\(v)/iaca_cert.hex", "--trust-store", store]).status == 0)
        let stored = try await run.run("mdoc-reader", ["verify", "\(v)/device_response.hex", "--trust-store", store,
                                                       "--at", "2021-01-01T00:00:00Z", "--transcript", "\(v)/session_transcript_bytes.hex",
                                                       "--reader-key", "Certs/annex-d/eReaderKey.pem", "--json"])
        #expect(stored.standardOutput.contains("\"trustEntry\""), "\(stored.standardOutput)")
        outputs.append(("verify, trust store", stored.standardOutput))
        outputs.append(("issue", try await run.run("mdoc-issuer", ["issue", "--pki", run.home + "/pki", "--doctype", "pid",
                                                                    "--data", "Samples/pid.json", "--out", run.home + "/pid.mdoc",
                                                                    "--json"]).standardOutput))
        outputs.append(("vical", try await run.run("mdoc-issuer", ["vical", "--pki", run.home + "/pki", "--provider", "Test",
                                                                    "--entry", run.home + "/pki/iaca.pem", "--issue-id", "1",
                                                                    "--out", run.home + "/test.vical", "--json"]).standardOutput))

        let conformance = run.home + "/conformance.json"
        let inconclusive = try await run.run("mdoc-reader", ["test-holder", "--engagements", "/dev/null", "--transport", "sim",
                                                             "--trust", "Certs/demo/iaca.pem", "--report-json", conformance])
        #expect(inconclusive.status == 8, "\(inconclusive.standardError)")
        outputs.append(("test-holder --report-json", try String(contentsOfFile: conformance, encoding: .utf8)))

        var kinds: Set<String> = []
        for (what, text) in outputs {
            let objects = try Self.objects(text)
            #expect(!objects.isEmpty, "\(what) printed no JSON")
            for object in objects {
                let kind = try #require(object["type"] as? String, "\(what): no type")
                kinds.insert(kind)
                #expect(object["schemaVersion"] as? Int == JSONReport.schemaVersion, "\(what)")
                let problems = Self.problems(object, at: kind, schema)
                #expect(problems.isEmpty, "\(what): \(problems.joined(separator: "; "))")
            }
        }
        #expect(kinds == Set(JSONReport.Kind.allCases.map(\.rawValue)), "\(kinds)")
    }

    /// The engagement of ISO/IEC 18013-5 Annex D as an mdoc: URI: an mdoc nobody runs.
    static let annexDEngagement = "mdoc:owBjMS4wAYIB2BhYS6QBAiABIVggWojRgrzl9C76WZQ_MzWdLoqWj_KJ2T5fpES2JDQxZ_4iWCCxboz4WN3HaQQHumHUwzgjeoz8895qpnL8YKVXqjL8ZwKBgwIBowD0AfULUEXv73QrLEg3qaOw4dBaaRc"

    @Test func requestPrintsOneJSONDocumentWhenItFails() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        let failures: [(what: String, arguments: [String], status: Int32)] = [
            ("a malformed engagement", ["mdoc:AAAA", "--trust", "Certs/demo/iaca.pem"], 2),
            ("unusable trust input", [Self.annexDEngagement, "--trust", "Samples/mdl.json"], 7),
            ("no mdoc within the timeout", [Self.annexDEngagement, "--trust", "Certs/demo/iaca.pem", "--timeout", "1"], 8),
        ]
        for failure in failures {
            let result = try await run.run("mdoc-reader", ["request"] + failure.arguments + ["--json", "--transport", "sim"])
            #expect(result.status == failure.status, "\(failure.what): \(result.standardError)")
            let object = try #require(
                try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
                "\(failure.what): not one JSON document: \(result.standardOutput)")
            #expect(object["type"] as? String == "readerSession", "\(failure.what)")
            #expect(object["outcome"] as? String == "failed", "\(failure.what)")
            #expect(object["exitStatus"] as? Int == Int(failure.status), "\(failure.what)")
            let error = try #require(result.standardError.split(separator: "\n").first { $0.hasPrefix("mdoc-reader: error: ") })
            #expect("mdoc-reader: error: " + (object["description"] as? String ?? "") == error, "\(failure.what)")
        }
    }
}
