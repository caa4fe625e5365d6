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

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "mdoc-status-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("VALID verifies with the entry named; INVALID and SUSPENDED fail issuer data authentication (exit 3)",
          arguments: [("valid", 0, "is VALID"), ("invalid", 3, "is INVALID"), ("suspended", 3, "is SUSPENDED")])
    func values(value: String, status: Int32, words: String) async throws {
        let lists = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: lists) }
        let server = try StatusListServer(directory: lists)
        defer { server.stop() }
        let run = try IsolatedRun()
        defer { run.remove() }
        let uri = server.url("/lists/list.cwt")
        try await Self.issue(run, uri: uri)
        try await Self.publish(run, uri: uri, value: value, to: lists + "/list.cwt")
        let reader = try await Self.present(run)
        #expect(reader.status == status, "\(reader.standardOutput)\(reader.standardError)")
        #expect(reader.standardOutput.contains("entry 3 of \(uri)") && reader.standardOutput.contains(words), "\(reader.standardOutput)")
        #expect(reader.standardError.contains("fetched the status list \(uri)"), "\(reader.standardError)")
    }

    @Test("a list fetched once is used again while its ttl lasts; offline, the copy is used; without one, the status is not checked")
    func cacheAndOffline() async throws {
        let lists = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: lists) }
        let server = try StatusListServer(directory: lists)
        defer { server.stop() }
        let run = try IsolatedRun()
        defer { run.remove() }
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
        let lists = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: lists) }
        let server = try StatusListServer(directory: lists)
        let run = try IsolatedRun()
        defer { run.remove() }
        let uri = server.url("/lists/list.cwt")
        server.stop()
        try await Self.issue(run, uri: uri)

        let checked = try await Self.present(run)
        #expect(checked.status == 0, "\(checked.standardOutput)\(checked.standardError)")
        #expect(checked.standardOutput.contains("the revocation status is unknown, which this reader accepts: status not checked"),
                "\(checked.standardOutput)")
        let required = try await Self.present(run, ["--status", "require"])
        #expect(required.status == 3, "\(required.standardOutput)\(required.standardError)")
        let off = try await Self.present(run, ["--status", "off"])
        #expect(off.status == 0 && !off.standardOutput.contains("revocation"), "\(off.standardOutput)")
    }

    @Test("a list over plain http is refused without --status-http: the status is not checked")
    func plainHTTPRefused() async throws {
        let lists = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: lists) }
        let server = try StatusListServer(directory: lists)
        defer { server.stop() }
        let run = try IsolatedRun()
        defer { run.remove() }
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
        let lists = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: lists) }
        let server = try StatusListServer(directory: lists)
        defer { server.stop() }
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
