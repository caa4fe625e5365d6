import Foundation
import MdocModel
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Live sessions end to end (ISO/IEC 18013-5 8.3.3.1.1 over the `sim` BLE bearer): the real
/// `mdoc-holder present` and `mdoc-reader request` as separate processes, checked by what is the
/// programs' own: their options, exit codes, JSON and text output, the consent prompt and policy
/// files, the QR code, signals. What the session does is tested in one process with the drivers
/// (MdocPresentationTests).
@Suite struct LiveSessionTests {
    static let mDL = "org.iso.18013.5.1.mDL"
    static let mDLNameSpace = "org.iso.18013.5.1"
    static let pid = "eu.europa.ec.eudi.pid.1"
    static let pidNameSpace = "eu.europa.ec.eudi.pid.1"
    static let trust = ["--trust", "Certs/demo/iaca.pem"]
    static let readerAuthentication = [
        "--reader-cert", "Certs/demo/reader.pem", "--reader-key", "Certs/demo/reader-key.pem",
    ]
    /// Values of the demo mDL (Samples/mdl.json) that must never reach a reader the holder refused.
    static let demoValues = ["Doe", "Jane", "D1234567", "A-7654321", "Springfield"]

    // MARK: What is disclosed

    @Test func fullPresetReturnsEveryCatalogueElementOfTheCredential() async throws {
        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes"])
        let reader = try await session.request(["--preset", "full", "--json"] + Self.trust)
        let holder = await session.holderResult(after: reader)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")
        let json = try ReaderJSON(reader.standardOutput)
        #expect(json.outcome == "verified")
        let document = try #require(json.document(Self.mDL), "\(reader.standardOutput)")
        #expect(document["outcome"] as? String == "verified")
        let returned = json.values(Self.mDL, Self.mDLNameSpace)

        let sample = try Self.sampleElements("Samples/mdl.json", nameSpace: Self.mDLNameSpace)
        let catalogue = Set(DataElementCatalogue.identifiers(in: Self.mDLNameSpace))
        let expected = sample.filter { catalogue.contains($0.key) }
        #expect(expected.count > 20, "the sample and the catalogue should share most elements")
        #expect(Set(returned.keys) == Set(expected.keys))
        for (identifier, value) in expected {
            let want = try Self.canonicalJSON(try Self.readerForm(of: value))
            let got = try returned[identifier].map(Self.canonicalJSON)
            #expect(got == want, "\(identifier)")
        }
        #expect(returned["family_name"] as? String == "Doe")
        #expect(returned["document_number"] as? String == "D1234567")
        #expect(returned["birth_date"] as? String == "1990-01-01")
        #expect(returned["height"] as? Int == 170)
        // The default --termination status: SessionData status 20 from the reader.
        #expect(holder.standardError.contains("mdoc-holder: the reader ended the session"))
    }

    // MARK: Consent

    @Test func denyAllPolicyReturnsNoDocument() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let policy = folder + "/deny.json"
        try LiveSession.write(#"{"default": "deny", "rules": []}"#, to: policy)

        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc", "--policy", policy])
        let reader = try await session.request(["--preset", "full"] + Self.trust)
        let holder = await session.holderResult(after: reader)

        #expect(reader.status == 6, "\(reader.standardError)")
        #expect(reader.standardOutput.contains("NO DOCUMENTS"), "\(reader.standardOutput)")
        for value in Self.demoValues {
            #expect(!reader.standardOutput.contains(value), "\(value) reached the reader")
            #expect(!reader.standardError.contains(value), "\(value) reached the reader")
        }
        #expect(holder.status == 0, "\(holder.standardError)")
        #expect(holder.standardOutput.contains(
            "refuse org.iso.18013.5.1.mDL/org.iso.18013.5.1/family_name: no rule allows it (default deny)"),
            "\(holder.standardOutput)")
        #expect(holder.standardError.contains("sending no elements"))
    }

    @Test func policyReleasesOnlyTheAllowedElement() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let policy = folder + "/age.json"
        try LiveSession.write(
            #"{"rules": [{"docType": "org.iso.18013.5.1.mDL", "nameSpace": "org.iso.18013.5.1", "allow": ["age_over_18"]}]}"#,
            to: policy)

        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc", "--policy", policy])
        let reader = try await session.request(["--elements", "family_name,age_over_18", "--json"] + Self.trust)
        let holder = await session.holderResult(after: reader)

        #expect(reader.status == 0, "\(reader.standardError)")
        let json = try ReaderJSON(reader.standardOutput)
        let returned = json.values(Self.mDL, Self.mDLNameSpace)
        #expect(Set(returned.keys) == ["age_over_18"], "\(reader.standardOutput)")
        #expect(returned["age_over_18"] as? Bool == true)
        #expect(!reader.standardOutput.contains("Doe"))
        #expect(holder.status == 0, "\(holder.standardError)")
        #expect(holder.standardOutput.contains("release org.iso.18013.5.1.mDL/org.iso.18013.5.1/age_over_18: allowed by rules[0]"),
                "\(holder.standardOutput)")
        #expect(holder.standardOutput.contains("refuse org.iso.18013.5.1.mDL/org.iso.18013.5.1/family_name"))
    }

    /// The answers typed at the holder's `[a]ll / [n]one / [c]hoose` prompt (the request asks
    /// for family_name, then age_over_18), what the holder then says, and what the reader gets.
    struct PromptCase: Sendable, CustomTestStringConvertible {
        var answers: String
        var holderSays: String
        var readerStatus: Int32
        var disclosed: Set<String>
        var testDescription: String { answers.debugDescription }
    }

    static let promptCases = [
        PromptCase(answers: "n\n", holderSays: "Releasing nothing.", readerStatus: 6, disclosed: []),
        PromptCase(answers: "a\n", holderSays: "Releasing all 2 elements.", readerStatus: 0,
                   disclosed: ["family_name", "age_over_18"]),
        PromptCase(answers: "c\nn\ny\n", holderSays: "Releasing 1 of 2 elements.", readerStatus: 0,
                   disclosed: ["age_over_18"]),
    ]

    @Test(arguments: promptCases)
    func interactiveConsent(_ answers: PromptCase) async throws {
        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc"])
        let reader = try session.startReader(["--elements", "family_name,age_over_18", "--json"] + Self.trust)
        #expect(await session.holder.waitForOutput(containing: "Release [a]ll 2, [n]one, or [c]hoose? ", timeout: LiveSession.waitTimeout),
                "\(session.holder.standardOutput)\n\(session.holder.standardError)")
        session.holder.send(answers.answers)
        let readerResult = await reader.wait(timeout: LiveSession.waitTimeout)
        let holder = await session.holderResult(after: readerResult)

        #expect(readerResult.status == answers.readerStatus, "\(readerResult.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")
        #expect(holder.standardOutput.contains(answers.holderSays), "\(holder.standardOutput)")
        let json = try ReaderJSON(readerResult.standardOutput)
        #expect(json.outcome == (answers.disclosed.isEmpty ? "noDocuments" : "verified"), "\(readerResult.standardOutput)")
        let returned = json.values(Self.mDL, Self.mDLNameSpace)
        #expect(Set(returned.keys) == answers.disclosed, "\(readerResult.standardOutput)")
        #expect(readerResult.standardOutput.contains("\"Doe\"") == answers.disclosed.contains("family_name"))
    }

    // MARK: BLE modes (ISO/IEC 18013-5 8.3.3.1.1)

    @Test(arguments: [("both", "central"), ("peripheral", "peripheral")])
    func bleModes(holderMode: String, readerMode: String) async throws {
        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--ble-mode", holderMode])
        let reader = try await session.request(["--preset", "age-over-18", "--ble-mode", readerMode] + Self.trust)
        let holder = await session.holderResult(after: reader)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")
        #expect(reader.standardOutput.contains("Document 0: org.iso.18013.5.1.mDL: VERIFIED"), "\(reader.standardOutput)")
        let holderMode = readerMode == "central" ? "central client" : "peripheral server"
        #expect(holder.standardError.contains("reader connected in mdoc \(holderMode) mode"), "\(holder.standardError)")
        #expect(reader.standardError.contains("in \(readerMode) mode over sim"), "\(reader.standardError)")
    }

    // MARK: Termination (ISO/IEC 18013-5 9.1.1.4, 8.3.3.1.1.5)

    @Test func readerEndsWithBLEStateOnly() async throws {
        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes"])
        let reader = try await session.request(["--preset", "age-over-18", "--termination", "state"] + Self.trust)
        let holder = await session.holderResult(after: reader)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(reader.standardOutput.contains(": VERIFIED"))
        #expect(holder.status == 0, "\(holder.standardError)")
        #expect(holder.standardError.contains("mdoc-holder: the connection ended after the response"), "\(holder.standardError)")
        #expect(!holder.standardError.contains("the reader ended the session"))
    }

    @Test func holderEndsTheSessionAfterTheResponse() async throws {
        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--terminate-after-response"])
        let reader = try await session.request(["--preset", "age-over-18", "--termination", "wait"] + Self.trust)
        let holder = await session.holderResult(after: reader)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(reader.standardOutput.contains(": VERIFIED"))
        #expect(reader.standardError.contains("mdoc-reader: the mdoc ended the session"), "\(reader.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")
        #expect(holder.standardError.contains("mdoc-holder: the mdoc ended the session"), "\(holder.standardError)")
    }

    // MARK: Failures

    @Test func readerWithoutHolderGivesUpAfterItsTimeout() async throws {
        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes"])
        #expect(kill(session.holder.processIdentifier, SIGKILL) == 0)
        _ = await session.holder.wait(timeout: LiveSession.waitTimeout)

        let start = Date()
        let reader = try await session.request(["--preset", "age-over-18"] + Self.trust, readerTimeout: 3)
        let elapsed = Date().timeIntervalSince(start)

        #expect(reader.status == 8, "\(reader.standardError)")
        // It gave up by itself (status 8, not killed by the test) once its timeout ran out.
        #expect(elapsed >= 2.5, "the reader ended after \(elapsed) s with --timeout 3")
        #expect(reader.standardError.contains("no mdoc on service"), "\(reader.standardError)")
        #expect(reader.standardError.contains("within 3 s"), "\(reader.standardError)")
        #expect(reader.standardOutput.isEmpty)
    }

    @Test func keepRunningHolderStartsNoSessionSoonerThanASecondAfterAFailedOne() async throws {
        // With no reader, each session fails after its 0.1 s: the next may start no sooner than
        // a second after the failed one began, so the sixth begins 5 s after the holder started
        // at the earliest, however fast the machine.
        let launched = Date()
        let holder = try BackgroundProgram(
            "mdoc-holder", ["present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--no-qr", "--keep-running", "--timeout", "0.1"],
            environment: ["MDOC_SIM_NAMESPACE": "e2e-\(UUID().uuidString)"])
        defer { holder.stop() }
        let sixth = await holder.line(startingWith: "mdoc:", number: 6, timeout: LiveSession.waitTimeout)
        let elapsed = Date().timeIntervalSince(launched)
        #expect(sixth != nil, "\(holder.standardError)")
        #expect(elapsed >= 5, "six sessions began within \(elapsed) s")
    }

    // MARK: Engagement by QR code (ISO/IEC 18013-5 8.2.2.3)

    @Test func engagementQRImageRoundTrip() async throws {
        let folder = try LiveSession.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let png = folder + "/engagement.png"
        let session = try await LiveSession(holder: ["--credential", "Certs/demo/mdl.mdoc", "--yes", "--qr-png", png])
        let bytes = try #require(FileManager.default.contents(atPath: png), "no --qr-png file")
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        let reader = try await session.reader([
            "request", "--qr-image", png, "--preset", "age-over-18", "--json", "--timeout", "\(LiveSession.programTimeout)",
        ] + Self.trust)
        let holder = await session.holderResult(after: reader)

        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(holder.status == 0, "\(holder.standardError)")
        #expect(try ReaderJSON(reader.standardOutput).values(Self.mDL, Self.mDLNameSpace)["age_over_18"] as? Bool == true)
    }

    // MARK: mdoc demo

    @Test func demoVerifies() async throws {
        let result = try await ProgramRunner.run(
            "mdoc", ["demo"], timeout: LiveSession.waitTimeout,
            environment: ["MDOC_SIM_NAMESPACE": "e2e-\(UUID().uuidString)"])

        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Document 0: org.iso.18013.5.1.mDL: VERIFIED"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("Reader: trusted: C=US, CN=swift-mdoc Demo Reader"))
        #expect(result.standardOutput.contains("\"Doe\""))
    }

    // MARK: Helpers

    /// The elements of `nameSpace` in an issuer data file (docs/issuer-data-format.md).
    static func sampleElements(_ path: String, nameSpace: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: ProgramRunner.repositoryRoot + "/" + path))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let nameSpaces = try #require(root["nameSpaces"] as? [String: Any])
        return try #require(nameSpaces[nameSpace] as? [String: Any])
    }

    /// How `mdoc-reader --json` shows an issuer data value: full-date and tdate as their text,
    /// a `bytes-file` as `{"hex": …}` of the file's bytes (Samples/ relative).
    static func readerForm(of value: Any) throws -> Any {
        if let object = value as? [String: Any] {
            if object.count == 1, let text = object["full-date"] as? String ?? object["tdate"] as? String {
                return text
            }
            if object.count == 1, let file = object["bytes-file"] as? String {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: ProgramRunner.repositoryRoot + "/Samples/" + file))
                return ["hex": bytes.map { String(format: "%02x", $0) }.joined()]
            }
            return try object.mapValues(readerForm)
        }
        if let array = value as? [Any] {
            return try array.map(readerForm)
        }
        return value
    }

    /// `value` as JSON text with sorted keys, to compare values whatever their key order.
    static func canonicalJSON(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }
}
