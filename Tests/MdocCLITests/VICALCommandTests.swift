import Foundation
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import Testing

/// `mdoc-issuer pki --vical` and `mdoc-issuer vical` end to end: the VICAL provider's files are
/// written with private keys 0600, a VICAL made from them verifies with a reader's
/// `VICALVerifier` trusting the VICAL root (ISO/IEC 18013-5 Annex C.1.7), every `--break` makes
/// exactly the check it names fail, and bad inputs end with a message naming the option.
@Suite struct VICALCommandTests {
    static let vicalCertificateFiles = ["vical-root.pem", "vical-signer.pem"]
    static let vicalKeyFiles = ["vical-root-key.pem", "vical-signer-key.pem"]

    static func certificate(_ path: String) throws -> Certificate {
        try Certificate(pemEncoded: try IssuerCommandTests.text(path))
    }

    static func signedVICAL(_ path: String) throws -> SignedVICAL {
        try SignedVICAL(encoded: Array(try #require(FileManager.default.contents(atPath: path))))
    }

    /// `mdoc-issuer vical --pki pki --provider "Test provider" ... --out out` with `options`.
    static func vical(pki: String, out: String, _ options: [String]) async throws -> ProgramRunner.Result {
        try await ProgramRunner.run("mdoc-issuer", ["vical", "--pki", pki, "--provider", "Test provider", "--out", out] + options)
    }

    // MARK: pki --vical

    @Test func pkiWithVICALWritesTheProviderRootAndSigner() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let directory = try await IssuerCommandTests.makePKI(in: folder, ["--vical", "--curve", "p384", "--valid-days", "30", "--country", "NL"])
        for file in Self.vicalKeyFiles {
            #expect(try IssuerCommandTests.mode("\(directory)/\(file)") == 0o600, "\(file)")
        }
        for file in Self.vicalCertificateFiles {
            #expect(try IssuerCommandTests.mode("\(directory)/\(file)") == 0o644, "\(file)")
        }
        var certificates: [Certificate] = []
        for (certificateFile, keyFile) in zip(Self.vicalCertificateFiles, Self.vicalKeyFiles) {
            let certificate = try Self.certificate("\(directory)/\(certificateFile)")
            let key = try PrivateKey(pemRepresentation: try IssuerCommandTests.text("\(directory)/\(keyFile)"))
            #expect(key.curve == .p384)
            #expect(key.publicKey == certificate.publicKey, "\(keyFile)")
            #expect(certificate.subject.hasPrefix("C=NL, "))
            #expect(certificate.notValidAfter.timeIntervalSince(certificate.notValidBefore) == 30 * 86_400)
            certificates.append(certificate)
        }
        let (root, signer) = (certificates[0], certificates[1])
        #expect(root.isSelfSigned)
        #expect(signer.extendedKeyUsage == [CertificateProfile.vicalSignerOID])
        let validator = CertificateChainValidator(trustAnchors: [root])
        #expect(validator.validate(chain: [signer], profile: .vicalSigner, at: Date()).isValid)
        #expect(!validator.validate(chain: [signer], profile: .documentSigner, at: Date()).isValid)
        let iaca = try Self.certificate("\(directory)/iaca.pem")
        #expect(!CertificateChainValidator(trustAnchors: [iaca]).validate(chain: [signer], profile: .vicalSigner, at: Date()).isValid)
    }

    @Test func pkiListsTheVICALFilesOnlyWithVICAL() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let text = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/text", "--vical"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("  vical-signer.pem  C=US, CN=swift-mdoc Test VICAL Signer  serial "))
        #expect(text.standardOutput.contains("EKU \(CertificateProfile.vicalSignerOID)"))
        let json = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/json", "--vical", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let files = try #require(object["certificates"] as? [[String: Any]]).map { $0["keyFile"] as? String }
        #expect(files == IssuerCommandTests.keyFiles + Self.vicalKeyFiles)
        let plain = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/plain"])
        #expect(!plain.standardOutput.contains("vical"))
        for file in Self.vicalCertificateFiles + Self.vicalKeyFiles {
            #expect(!FileManager.default.fileExists(atPath: "\(folder)/plain/\(file)"), "\(file)")
        }
        // --force replaces the VICAL files too; without it the first existing one is named.
        let refused = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/plain", "--vical"])
        #expect(refused.status == 7)
        #expect(refused.standardError.contains("\(folder)/plain/iaca.pem: exists; give --force"))
    }

    // MARK: vical

    @Test func aVICALVerifiesWithTheVICALRootAndListsTheEntries() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder, ["--vical"])
        let other = try await IssuerCommandTests.makePKI(in: folder)
        let out = folder + "/test.vical"
        let before = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let result = try await Self.vical(pki: pki, out: out, [
            "--entry", "\(pki)/iaca.pem", "--entry", "\(other)/iaca.pem=mdl,pid,org.example.1", "--issue-id", "7",
            "--issuing-authority", "Test authority",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("Wrote a VICAL of Test provider listing 2 certificates, dated "), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("TEST MATERIAL"))
        #expect(try IssuerCommandTests.mode(out) == 0o644)
        let signed = try Self.signedVICAL(out)
        let (root, signer) = (try Self.certificate("\(pki)/vical-root.pem"), try Self.certificate("\(pki)/vical-signer.pem"))
        #expect(signed.message.x5chain == [signer.derRepresentation])
        let verification = VICALVerifier(anchors: [root]).verify(signed, at: Date())
        #expect(verification.isVerified, "\(verification.failures)")
        let iacas = [try Self.certificate("\(pki)/iaca.pem"), try Self.certificate("\(other)/iaca.pem")]
        #expect(verification.trustedEntries.map(\.certificate) == iacas)
        #expect(verification.trustedEntries.map(\.docTypes) == [[DocType.mDL], [DocType.mDL, DocType.eudiPID, "org.example.1"]])
        #expect(verification.entries.map(\.info.issuingAuthority) == ["Test authority", "Test authority"])
        let vical = signed.vical
        #expect(vical.vicalProvider == "Test provider")
        #expect(vical.vicalIssueID == 7)
        #expect(vical.extensions == nil)
        #expect(vical.date.date >= before && vical.date.date <= Date())
        #expect(vical.nextUpdate?.date == vical.date.date.addingTimeInterval(30 * 86_400))
        #expect(!verification.isStale)
        // A reader trusting another VICAL root does not trust the list.
        let stranger = try await IssuerCommandTests.makePKI(in: folder, ["--vical"])
        let untrusted = VICALVerifier(anchors: [try Self.certificate("\(stranger)/vical-root.pem")]).verify(signed, at: Date())
        #expect(untrusted.failures.map(\.check) == [.signerChain], "\(untrusted.failures)")
        #expect(untrusted.trustedEntries.isEmpty)
    }

    @Test func datesAndJSONAreAsGiven() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder, ["--vical"])
        let out = folder + "/stale.vical"
        let result = try await Self.vical(pki: pki, out: out, [
            "--entry", "\(pki)/iaca.pem=pid", "--date", "2024-01-01T00:00:00Z", "--next-update", "2024-02-01T00:00:00Z", "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "vical")
        #expect(object["date"] as? String == "2024-01-01T00:00:00Z")
        #expect(object["nextUpdate"] as? String == "2024-02-01T00:00:00Z")
        #expect(object["vicalIssueID"] is NSNull)
        #expect((object["testMaterial"] as? [Any])?.isEmpty == true)
        let entries = try #require(object["certificates"] as? [[String: Any]])
        #expect(entries.first?["docTypes"] as? [String] == [DocType.eudiPID])
        let verification = VICALVerifier(anchors: [try Self.certificate("\(pki)/vical-root.pem")]).verify(try Self.signedVICAL(out), at: Date())
        #expect(verification.isVerified, "\(verification.failures)")
        #expect(verification.isStale)
    }

    /// A `--break` kind and the one check it must make fail: of the list, or of the first entry.
    struct Breakage: Sendable, CustomTestStringConvertible {
        let kind: String
        var check: VICALVerification.Check? = nil
        var entryCheck: VICALVerification.EntryCheck? = nil
        var testDescription: String { kind }
    }

    static let breakages = [
        Breakage(kind: "signature", check: .signature),
        Breakage(kind: "version", check: .version),
        Breakage(kind: "future-date", check: .date),
        Breakage(kind: "no-x5chain", check: .signerCertificate),
        Breakage(kind: "serial", entryCheck: .serialNumber),
        Breakage(kind: "ski", entryCheck: .ski),
        Breakage(kind: "issuer", entryCheck: .issuer),
        Breakage(kind: "subject", entryCheck: .subject),
        Breakage(kind: "not-after", entryCheck: .validityFields),
    ]

    @Test(arguments: breakages)
    func eachBreakageFailsItsCheck(_ breakage: Breakage) async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder, ["--vical"])
        let other = try await IssuerCommandTests.makePKI(in: folder)
        let out = folder + "/broken.vical"
        let result = try await Self.vical(pki: pki, out: out, [
            "--entry", "\(pki)/iaca.pem", "--entry", "\(other)/iaca.pem", "--break", breakage.kind,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("TEST MATERIAL, made to fail verification"), "\(result.standardOutput)")
        let signed = try Self.signedVICAL(out)
        let verification = VICALVerifier(anchors: [try Self.certificate("\(pki)/vical-root.pem")]).verify(signed, at: Date())
        #expect(verification.failures.map(\.check) == (breakage.check.map { [$0] } ?? []), "\(verification.failures)")
        #expect(verification.entries[0].problems.map(\.check) == (breakage.entryCheck.map { [$0] } ?? []),
                "\(verification.entries[0].problems)")
        #expect(verification.entries[1].isUsable)
        guard case .array(let notes)? = signed.vical.extensions?[text: "testMaterial"] else {
            Issue.record("the VICAL's extensions hold no test-material notes: \(String(describing: signed.vical.extensions))")
            return
        }
        #expect(notes.count == 1, "\(notes)")
    }

    @Test func aDetachedVICALIsRefusedWhenDecoded() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder, ["--vical"])
        let out = folder + "/detached.vical"
        let result = try await Self.vical(pki: pki, out: out, ["--entry", "\(pki)/iaca.pem", "--break", "detached"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("the COSE_Sign1's payload is detached"))
        #expect(throws: CBORError.self) { try Self.signedVICAL(out) }
    }

    /// Every kind `--break` accepts, as its help lists them, has a case above.
    @Test func everyBreakageHasACase() async throws {
        let help = try await ProgramRunner.run("mdoc-issuer", ["vical", "--help"], environment: ["COLUMNS": "2000"])
        let line = try #require(help.standardOutput.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--break <break>") })
        let values = try #require(line.range(of: "(values: ")).upperBound
        let kinds = line[values...].prefix { $0 != ")" }.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Set(kinds) == Set(Self.breakages.map(\.kind) + ["detached"]), "\(kinds)")
    }

    @Test func anEntryThatIsNotAValidIACAIsMarkedTestMaterial() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder, ["--vical"])
        let out = folder + "/ds.vical"
        let result = try await Self.vical(pki: pki, out: out, ["--entry", "\(pki)/ds.pem", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let notes = try #require(object["testMaterial"] as? [String])
        #expect(notes.contains { $0.hasPrefix("entry 0 (\(pki)/ds.pem): iacaProfile: ") }, "\(notes)")
        let verification = VICALVerifier(anchors: [try Self.certificate("\(pki)/vical-root.pem")]).verify(try Self.signedVICAL(out), at: Date())
        #expect(verification.isVerified)
        #expect(verification.trustedEntries.isEmpty)
    }

    @Test func aDateGivenInTheFutureIsMarkedTestMaterial() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder, ["--vical"])
        let out = folder + "/future.vical"
        let result = try await Self.vical(pki: pki, out: out, ["--entry", "\(pki)/iaca.pem", "--date", "2999-01-01T00:00:00Z"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("  - the date 2999-01-01T00:00:00Z is after the time of signing "), "\(result.standardOutput)")
        let verification = VICALVerifier(anchors: [try Self.certificate("\(pki)/vical-root.pem")]).verify(try Self.signedVICAL(out), at: Date())
        #expect(verification.failures.map(\.check) == [.date], "\(verification.failures)")
    }

    @Test func badInputsNameTheOptionAndFile() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder, ["--vical"])
        let plain = try await IssuerCommandTests.makePKI(in: folder)
        let out = folder + "/x.vical"
        let iaca = "\(pki)/iaca.pem"

        let noProvider = try await Self.vical(pki: plain, out: out, ["--entry", iaca])
        #expect(noProvider.status == 7)
        #expect(noProvider.standardError.contains("--pki \(plain)/vical-signer.pem"), "\(noProvider.standardError)")
        #expect(noProvider.standardError.contains("`mdoc-issuer pki DIR --vical`"))

        let notACertificate = try await Self.vical(pki: pki, out: out, ["--entry", "Samples/mdl.json"])
        #expect(notACertificate.status == 7)
        #expect(notACertificate.standardError.hasPrefix("mdoc-issuer: error: --entry Samples/mdl.json"), "\(notACertificate.standardError)")

        let usage: [([String], String)] = [
            (["--entry", iaca + "="], "--entry \(iaca)=: names no doc type after \"=\""),
            (["--entry", "=mdl"], "--entry =mdl: names no certificate file before \"=\""),
            (["--entry", iaca + "=mdl,driving"], "--entry \(iaca)=mdl,driving: \"driving\" is neither a short name nor a docType"),
            (["--entry", iaca + "=mdl,"], "--entry \(iaca)=mdl,: \"\" is neither a short name nor a docType"),
            (["--entry", iaca, "--date", "2024-13-01T00:00:00Z"], "--date 2024-13-01T00:00:00Z: not an RFC 3339 date-time"),
            (["--entry", iaca, "--next-update", "tomorrow"], "--next-update tomorrow: not an RFC 3339 date-time"),
            (["--entry", iaca, "--date", "2024-01-01T00:00:00Z", "--break", "future-date"], "give --date or --break future-date, not both"),
            (["--break", "ski"], "--break ski breaks the first entry; give an --entry"),
            (["--entry", iaca, "--break", "everything"], "The value 'everything' is invalid for '--break <break>'"),
        ]
        for (options, message) in usage {
            let result = try await Self.vical(pki: pki, out: out, options)
            #expect(result.status == 64, "\(options)")
            #expect(result.standardError.hasPrefix("mdoc-issuer: error: " + message), "\(options): \(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))

        #expect(try await Self.vical(pki: pki, out: out, ["--entry", iaca]).status == 0)
        let again = try await Self.vical(pki: pki, out: out, ["--entry", iaca])
        #expect(again.status == 7)
        #expect(again.standardError.contains("\(out): exists; give --force"))
        #expect(try await Self.vical(pki: pki, out: out, ["--entry", iaca, "--force"]).status == 0)
    }
}
