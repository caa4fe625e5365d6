import Foundation
import MdocStores
import Testing

/// `mdoc-reader trust` end to end, with VICALs made by `mdoc-issuer vical` (ISO/IEC 18013-5
/// Annex C.1.7): with only a VICAL imported, the reader trusts the IACAs it lists for the doc
/// types it lists them for, and no others; each in a home of its own (``IsolatedRun``).
@Suite struct TrustStoreCommandTests {
    /// A provider PKI with its VICAL root and signer, and two issuers' PKIs, in `run`'s home.
    static func pkis(_ run: IsolatedRun) async throws {
        #expect(try await run.run("mdoc-issuer", ["pki", run.home + "/provider", "--vical"]).status == 0)
        for issuer in ["listed", "unlisted"] {
            #expect(try await run.run("mdoc-issuer", ["pki", run.home + "/\(issuer)"]).status == 0)
        }
        for (issuer, doctype) in [("listed", "mdl"), ("listed", "pid"), ("unlisted", "mdl")] {
            let issued = try await run.run("mdoc-issuer", [
                "issue", "--pki", run.home + "/\(issuer)", "--doctype", doctype, "--data", "Samples/\(doctype).json",
                "--out", run.home + "/\(issuer)-\(doctype).mdoc",
            ])
            #expect(issued.status == 0, "\(issued.standardError)")
        }
    }

    /// A VICAL of the provider listing the listed issuer's IACA for mDLs, with `options`.
    static func vical(_ run: IsolatedRun, _ name: String, _ options: [String] = []) async throws -> String {
        let out = run.home + "/\(name).vical"
        let made = try await run.run("mdoc-issuer", [
            "vical", "--pki", run.home + "/provider", "--provider", "Test provider", "--entry", run.home + "/listed/iaca.pem=mdl",
            "--out", out,
        ] + options)
        #expect(made.status == 0, "\(made.standardError)")
        return out
    }

    /// A session presenting `credential` (an mDL, or a PID when its name says so) to a reader
    /// trusting only the user's store, unless `reader` says otherwise.
    static func present(_ run: IsolatedRun, _ credential: String, _ reader: [String] = []) async throws -> ProgramRunner.Result {
        let request = credential.contains("pid") ? ["--doctype", "pid", "--elements", "family_name"] : ["--preset", "age-over-18"]
        return try await run.session(holder: ["--credential", run.home + "/" + credential, "--yes", "--no-qr"], reader: request + reader).reader
    }

    @Test("with only a VICAL imported, an mDL of the listed IACA verifies; its PID and an unlisted IACA's mDL do not")
    func onlyAVICAL() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        try await Self.pkis(run)
        let vical = try await Self.vical(run, "issue1", ["--issue-id", "1"])
        let imported = try await run.run("mdoc-reader", ["trust", "import-vical", vical, "--vical-anchor", run.home + "/provider/vical-root.pem"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("Imported the VICAL of Test provider, vicalIssueID 1"), "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("trusted 1 of 1 IACA"), "\(imported.standardOutput)")

        let mdl = try await Self.present(run, "listed-mdl.mdoc")
        #expect(mdl.status == 0, "\(mdl.standardError)")
        #expect(mdl.standardError.contains("trusting the IACA roots of the trust store \(run.issuerTrustStore)"), "\(mdl.standardError)")
        #expect(mdl.standardOutput.contains("from the VICAL of Test provider, vicalIssueID 1)"), "\(mdl.standardOutput)")

        let pid = try await Self.present(run, "listed-pid.mdoc")
        #expect(pid.status == 3, "\(pid.standardOutput)\(pid.standardError)")
        #expect(pid.standardOutput.contains("is trusted for org.iso.18013.5.1.mDL only, not for eu.europa.ec.eudi.pid.1"), "\(pid.standardOutput)")

        let unlisted = try await Self.present(run, "unlisted-mdl.mdoc")
        #expect(unlisted.status == 3, "\(unlisted.standardOutput)\(unlisted.standardError)")

        // `--trust` still means the files given, whatever the store says.
        let files = try await Self.present(run, "listed-pid.mdoc", ["--trust", run.home + "/listed/iaca.pem"])
        #expect(files.status == 0, "\(files.standardError)")
    }

    @Test("list shows each root's scope and provenance; remove takes a root by identifier or a provider's VICAL")
    func listAndRemove() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        try await Self.pkis(run)
        let vical = try await Self.vical(run, "issue7", ["--issue-id", "7"])
        #expect(try await run.run("mdoc-reader", ["trust", "import-vical", vical, "--vical-anchor", run.home + "/provider/vical-root.pem"]).status == 0)
        let added = try await run.run("mdoc-reader", ["trust", "add", run.home + "/unlisted/iaca.pem", "--doc-type", "eu.europa.ec.eudi.pid.1"])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput.contains("anchoring eu.europa.ec.eudi.pid.1"), "\(added.standardOutput)")

        let listed = try await run.run("mdoc-reader", ["trust", "list"])
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.contains("2 IACA roots in \(run.issuerTrustStore)"), "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("from the VICAL of Test provider, vicalIssueID 7"), "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("from the file \(run.home)/unlisted/iaca.pem"), "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("VICAL of Test provider, vicalIssueID 7 of "), "\(listed.standardOutput)")

        let json = try await run.run("mdoc-reader", ["trust", "list", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let anchors = try #require(object["anchors"] as? [[String: Any]])
        #expect(anchors.compactMap { $0["docTypes"] as? [String] } == [["org.iso.18013.5.1.mDL"], ["eu.europa.ec.eudi.pid.1"]])
        let id = try #require(anchors.last?["id"] as? String)

        #expect(try await run.run("mdoc-reader", ["trust", "remove", String(id.prefix(8))]).status == 0)
        let removed = try await run.run("mdoc-reader", ["trust", "remove", "--vical", "Test provider"])
        #expect(removed.status == 0, "\(removed.standardError)")
        let empty = try await run.run("mdoc-reader", ["trust", "list"])
        #expect(empty.standardOutput.contains("No IACA roots in"), "\(empty.standardOutput)")
        let gone = try await run.run("mdoc-reader", ["trust", "remove", "--vical", "Test provider"])
        #expect(gone.status == 64, "\(gone.standardError)")
    }

    @Test("a forged VICAL, an older issue and a stale one are refused; a stale one can be imported and then refused at use")
    func refusals() async throws {
        let run = try IsolatedRun()
        defer { run.remove() }
        try await Self.pkis(run)
        let anchor = ["--vical-anchor", run.home + "/provider/vical-root.pem"]
        let forged = try await Self.vical(run, "forged", ["--break", "signature"])
        let refused = try await run.run("mdoc-reader", ["trust", "import-vical", forged] + anchor)
        #expect(refused.status == 7 && refused.standardError.contains("signature"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: run.issuerTrustStore + "/.store/index.json"))

        #expect(try await run.run("mdoc-reader", ["trust", "import-vical", try await Self.vical(run, "five", ["--issue-id", "5"])] + anchor).status == 0)
        let older = try await run.run("mdoc-reader", ["trust", "import-vical", try await Self.vical(run, "four", ["--issue-id", "4"])])
        #expect(older.status == 7 && older.standardError.contains("older than vicalIssueID 5"), "\(older.standardError)")

        let stale = try await Self.vical(run, "stale", ["--issue-id", "6", "--date", "2026-01-01T00:00:00Z", "--next-update", "2026-02-01T00:00:00Z"])
        let staleRefused = try await run.run("mdoc-reader", ["trust", "import-vical", stale])
        #expect(staleRefused.status == 7 && staleRefused.standardError.contains("is stale"), "\(staleRefused.standardError)")
        let staleImported = try await run.run("mdoc-reader", ["trust", "import-vical", stale, "--stale-vical", "warn"])
        #expect(staleImported.status == 0 && staleImported.standardError.contains("stale"), "\(staleImported.standardError)")

        let warned = try await Self.present(run, "listed-mdl.mdoc")
        #expect(warned.status == 0 && warned.standardError.contains("is stale"), "\(warned.standardError)")
        let refusedAtUse = try await Self.present(run, "listed-mdl.mdoc", ["--stale-vical", "refuse"])
        #expect(refusedAtUse.status == 7 && refusedAtUse.standardError.contains("not trusting the 1 IACA root"), "\(refusedAtUse.standardError)")
    }
}
