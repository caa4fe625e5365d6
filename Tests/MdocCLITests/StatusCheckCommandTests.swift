import Foundation
import MdocTestSupport
import Testing

/// `mdoc-reader request` reading each document's status from the Status List Token its MSO names
/// (draft-ietf-oauth-status-list), fetched from a real HTTP server on loopback
/// (Tests/Interop/status/status_server.py, started and stopped by PID): valid, invalid,
/// suspended, unreachable, offline, cached; each in a home of its own (``IsolatedRun``).
@Suite struct StatusCheckCommandTests {
    /// A PKI, and an mDL naming entry 3 of the list `uri`, in `run`'s home.
    static func issue(_ run: IsolatedRun, uri: String) async throws {
        #expect(try await run.run("mdoc-issuer", ["pki", run.home + "/pki"]).status == 0)
        let issued = try await run.run("mdoc-issuer", [
            "issue", "--pki", run.home + "/pki", "--doctype", "mdl", "--data", "Samples/mdl.json", "--out", run.home + "/mdl.mdoc",
            "--status-uri", uri, "--status-index", "3",
        ])
        #expect(issued.status == 0, "\(issued.standardError)")
    }

    /// The list of `run`'s PKI for `uri` with entry 3 `value`, written to `folder/name`.
    static func publish(_ run: IsolatedRun, uri: String, value: String, to path: String) async throws {
        let written = try await run.run("mdoc-issuer", [
            "status-list", "--pki", run.home + "/pki", "--uri", uri, "--set", "3=\(value)", "--out", path, "--force",
        ])
        #expect(written.status == 0, "\(written.standardError)")
    }

    static func present(_ run: IsolatedRun, _ reader: [String] = []) async throws -> ProgramRunner.Result {
        try await run.session(
            holder: ["--credential", run.home + "/mdl.mdoc", "--yes", "--no-qr"],
            reader: ["--preset", "age-over-18", "--trust", run.home + "/pki/iaca.pem", "--status-http"] + reader).reader
    }

    /// A folder for the lists, the status list server on it (with a test certificate for its TLS
    /// port when asked), and a run in a home of its own.
    struct Served {
        let lists: String
        let tls: (certificate: String, key: String)?
        let server: StatusListServer
        let run: IsolatedRun

        init(tls: Bool = false) throws {
            lists = NSTemporaryDirectory() + "mdoc-status-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: lists, withIntermediateDirectories: true)
            self.tls = tls ? try StatusListServer.makeTestCertificate(in: lists) : nil
            server = try StatusListServer(directory: lists, tls: self.tls)
            run = try IsolatedRun()
        }

        /// Stops the server, removes the run's home and the folder.
        func remove() {
            server.stop()
            run.remove()
            try? FileManager.default.removeItem(atPath: lists)
        }
    }

    @Test("VALID verifies with the entry named; INVALID and SUSPENDED fail issuer data authentication (exit 3)",
          arguments: [("valid", 0, "is VALID"), ("invalid", 3, "is INVALID"), ("suspended", 3, "is SUSPENDED")])
    func values(value: String, status: Int32, words: String) async throws {
        let served = try Served()
        defer { served.remove() }
        let (lists, server, run) = (served.lists, served.server, served.run)
        let uri = server.url("/lists/list.cwt")
        try await Self.issue(run, uri: uri)
        try await Self.publish(run, uri: uri, value: value, to: lists + "/list.cwt")
        let reader = try await Self.present(run)
        #expect(reader.status == status, "\(reader.standardOutput)\(reader.standardError)")
        #expect(reader.standardOutput.contains("entry 3 of \(uri)") && reader.standardOutput.contains(words), "\(reader.standardOutput)")
        #expect(reader.standardError.contains("fetched the status list \(uri)"), "\(reader.standardError)")
        #expect(reader.standardOutput.contains("Status:      \(value.uppercased())"), "\(reader.standardOutput)")
        let json = try await Self.present(run, ["--json"])
        let documentStatus = try #require(try Self.document(json.standardOutput)["status"] as? [String: Any], "\(json.standardOutput)")
        #expect(documentStatus["value"] as? String == value && documentStatus["accepted"] as? Bool == (status == 0), "\(documentStatus)")
        let list = documentStatus["statusList"] as? [String: Any]
        #expect(list?["uri"] as? String == uri && list?["index"] as? Int == 3, "\(documentStatus)")
    }

    @Test("an identifier list that holds the document's identifier revokes it; one that does not, or another document's, leaves it valid")
    func identifierList() async throws {
        let served = try Served()
        defer { served.remove() }
        let (lists, server, run) = (served.lists, served.server, served.run)
        let uri = server.url("/identifier-lists/ids.cwt")
        #expect(try await run.run("mdoc-issuer", ["pki", run.home + "/pki"]).status == 0)
        let issued = try await run.run("mdoc-issuer", [
            "issue", "--pki", run.home + "/pki", "--doctype", "mdl", "--data", "Samples/mdl.json", "--out", run.home + "/mdl.mdoc",
            "--identifier-list-uri", uri, "--identifier-list-id", "a1b2c3d4",
        ])
        #expect(issued.status == 0 && issued.standardOutput.contains("identifier a1b2c3d4 of the identifier list \(uri)"), "\(issued.standardOutput)\(issued.standardError)")
        for (revoked, status, words) in [(["00ff"], Int32(0), "does not hold"), (["00ff", "a1b2c3d4"], 3, "holds the document's identifier a1b2c3d4")] {
            let written = try await run.run("mdoc-issuer", [
                "identifier-list", "--pki", run.home + "/pki", "--uri", uri, "--out", lists + "/ids.cwt", "--force",
            ] + revoked.flatMap { ["--revoke", $0] })
            #expect(written.status == 0, "\(written.standardError)")
            // The list of the round before is still fresh in the cache.
            try? FileManager.default.removeItem(atPath: run.home + "/cache/swift-mdoc/status")
            let reader = try await Self.present(run, ["--json"])
            #expect(reader.status == status, "\(reader.standardOutput)\(reader.standardError)")
            #expect(reader.standardOutput.contains(words), "\(reader.standardOutput)")
            #expect(reader.standardError.contains("fetched the identifier list \(uri)"), "\(reader.standardError)")
            let document = try Self.document(reader.standardOutput)
            let documentStatus = try #require(document["status"] as? [String: Any])
            #expect(documentStatus["value"] as? String == (status == 0 ? "valid" : "invalid"), "\(documentStatus)")
            #expect(documentStatus["accepted"] as? Bool == (status == 0))
            #expect((documentStatus["identifierList"] as? [String: Any])?["id"] as? String == "a1b2c3d4", "\(documentStatus)")
        }
    }

    /// The first document of a `--json` report.
    static func document(_ output: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let documents = (object?["verificationReport"] as? [String: Any] ?? object)?["documents"] as? [[String: Any]]
        return try #require(documents?.first, "\(output)")
    }

    @Test("a list fetched once is used again while its ttl lasts; offline, the copy is used; without one, the status is not checked")
    func cacheAndOffline() async throws {
        let served = try Served()
        defer { served.remove() }
        let (lists, server, run) = (served.lists, served.server, served.run)
        let uri = server.url("/lists/list.cwt")
        try await Self.issue(run, uri: uri)
        try await Self.publish(run, uri: uri, value: "valid", to: lists + "/list.cwt")

        let offlineFirst = try await Self.present(run, ["--offline"])
        #expect(offlineFirst.status == 0, "\(offlineFirst.standardError)")
        #expect(offlineFirst.standardOutput.contains("status not checked: the status list \(uri) could not be fetched: offline"),
                "\(offlineFirst.standardOutput)")

        #expect(try await Self.present(run).status == 0)
        let again = try await Self.present(run)
        #expect(again.status == 0 && again.standardError.contains("as fetched before (still fresh)"), "\(again.standardError)")
        server.stop()
        let offline = try await Self.present(run, ["--offline"])
        #expect(offline.status == 0 && offline.standardOutput.contains("is VALID"), "\(offline.standardOutput)")
    }

    @Test("an unreachable server leaves the status unknown: said and accepted under check, a failure under require")
    func unreachable() async throws {
        let served = try Served()
        defer { served.remove() }
        let (server, run) = (served.server, served.run)
        let uri = server.url("/lists/list.cwt")
        server.stop()
        try await Self.issue(run, uri: uri)

        let checked = try await Self.present(run)
        #expect(checked.status == 0, "\(checked.standardOutput)\(checked.standardError)")
        #expect(checked.standardOutput.contains("the revocation status is unknown, which this reader accepts: status not checked"),
                "\(checked.standardOutput)")
        #expect(checked.standardOutput.contains("Status:      NOT CHECKED (accepted): status not checked"), "\(checked.standardOutput)")
        let json = try await Self.present(run, ["--json"])
        let documentStatus = try #require(try Self.document(json.standardOutput)["status"] as? [String: Any], "\(json.standardOutput)")
        #expect(documentStatus["value"] as? String == "notChecked" && documentStatus["accepted"] as? Bool == true, "\(documentStatus)")
        #expect((documentStatus["reason"] as? String)?.hasPrefix("status not checked: the status list \(uri) could not be fetched") == true, "\(documentStatus)")
        let required = try await Self.present(run, ["--status", "require"])
        #expect(required.status == 3, "\(required.standardOutput)\(required.standardError)")
        let off = try await Self.present(run, ["--status", "off"])
        #expect(off.status == 0 && !off.standardOutput.contains("revocation"), "\(off.standardOutput)")
    }

    @Test("over https, with the server's CA given by --status-ca, the list is fetched and read; without it, TLS fails: not checked")
    func https() async throws {
        let served = try Served(tls: true)
        defer { served.remove() }
        let (lists, server, run) = (served.lists, served.server, served.run)
        let tls = try #require(served.tls)
        let uri = server.tlsURL("/lists/list.cwt")
        try await Self.issue(run, uri: uri)
        try await Self.publish(run, uri: uri, value: "suspended", to: lists + "/list.cwt")
        let holder = ["--credential", run.home + "/mdl.mdoc", "--yes", "--no-qr"]
        let trusting = ["--preset", "age-over-18", "--trust", run.home + "/pki/iaca.pem"]
        let untrusted = try await run.session(holder: holder, reader: trusting).reader
        #expect(untrusted.status == 0 && untrusted.standardOutput.contains("status not checked"), "\(untrusted.standardOutput)\(untrusted.standardError)")
        let fetched = try await run.session(holder: holder, reader: trusting + ["--status-ca", tls.certificate]).reader
        #expect(fetched.status == 3, "\(fetched.standardOutput)\(fetched.standardError)")
        #expect(fetched.standardOutput.contains("entry 3 of \(uri)") && fetched.standardOutput.contains("is SUSPENDED"), "\(fetched.standardOutput)")
        #expect(fetched.standardError.contains("fetched the status list \(uri)"), "\(fetched.standardError)")
    }

    @Test("a list over plain http is refused without --status-http: the status is not checked")
    func plainHTTPRefused() async throws {
        let served = try Served()
        defer { served.remove() }
        let (lists, server, run) = (served.lists, served.server, served.run)
        let uri = server.url("/lists/list.cwt")
        try await Self.issue(run, uri: uri)
        try await Self.publish(run, uri: uri, value: "invalid", to: lists + "/list.cwt")
        let reader = try await run.session(
            holder: ["--credential", run.home + "/mdl.mdoc", "--yes", "--no-qr"],
            reader: ["--preset", "age-over-18", "--trust", run.home + "/pki/iaca.pem", "--status", "require"]).reader
        #expect(reader.status == 3, "\(reader.standardOutput)\(reader.standardError)")
        #expect(!reader.standardOutput.contains("is INVALID") && reader.standardOutput.contains("status not checked"), "\(reader.standardOutput)")
    }

    @Test("a server that stalls or redirects without end holds the reader no longer than the fetch bounds: status not checked")
    func hostileServers() async throws {
        let served = try Served()
        defer { served.remove() }
        let server = served.server
        for path in ["/stall", "/redirect-loop", "/big"] {
            let run = try IsolatedRun()
            defer { run.remove() }
            try await Self.issue(run, uri: server.url(path))
            let started = Date()
            let reader = try await Self.present(run)
            let took = Date().timeIntervalSince(started)
            #expect(reader.status == 0, "\(path): \(reader.standardOutput)\(reader.standardError)")
            #expect(reader.standardOutput.contains("status not checked"), "\(path): \(reader.standardOutput)")
            // The connect and transfer bounds (2 s and 5 s), with room for the session itself.
            #expect(took < 30 * Double(TimeoutScale.factor), "\(path) took \(took) s")
        }
    }
}
