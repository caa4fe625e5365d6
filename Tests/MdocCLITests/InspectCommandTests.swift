import Foundation
import MdocCBOR
import MdocCOSE
import MdocSession
import MdocTestSupport
import Testing

/// `mdoc inspect` on real messages and on hostile input (issue "Bad input": every case ends with
/// one line naming the problem and a non-zero exit, never a crash or a hang).
@Suite struct InspectCommandTests {
    let vectors = "Vectors/iso18013-5-annex-d"

    @Test func decodesTheAnnexDDeviceResponseWithEmbeddedItemsExpanded() async throws {
        let result = try await ProgramRunner.run("mdoc", ["inspect", "--diagnostic", "\(vectors)/device_response.hex"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("/ DeviceResponse (18013-5 8.3.2.1.2.2), 3562 bytes, from hex input /"))
        // IssuerSignedItemBytes are expanded: the element values show as text.
        #expect(result.standardOutput.contains("\"Doe\""))
        #expect(result.standardOutput.contains("\"123456789\""))
        #expect(result.standardOutput.contains("24(<<"))
    }

    @Test func decodesAnMdocURIGivenAsTheArgument() async throws {
        let uri = "mdoc:owBjMS4wAYIB2BhYS6QBAiABIVggWojRgrzl9C76WZQ_MzWdLoqWj_KJ2T5fpES2JDQxZ_4iWCCxboz4WN3HaQQHumHUwzgjeoz8895qpnL8YKVXqjL8ZwKBgwIBowD0AfULUEXv73QrLEg3qaOw4dBaaRc"
        let result = try await ProgramRunner.run("mdoc", ["inspect", "--diagnostic", uri])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("/ DeviceEngagement (18013-5 8.2.1.1), 116 bytes, from mdoc: URI input /"))
        #expect(result.standardOutput.contains("h'45efef742b2c4837a9a3b0e1d05a6917'"))
    }

    @Test func readsBinaryFromStandardInputAndPrintsJSON() async throws {
        let bytes = Vectors.annexD("device_request")
        let result = try await ProgramRunner.run("mdoc", ["inspect", "-", "--json"], standardInput: Data(bytes))
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(json?["version"] as? String == "1.0")
    }

    @Test func readsBase64URLText() async throws {
        let path = try ProgramRunner.temporaryFile(Array(base64url(Vectors.annexD("session_termination")).utf8), suffix: ".txt")
        let result = try await ProgramRunner.run("mdoc", ["inspect", "--diagnostic", path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("\"status\": 20"))
    }

    @Test func explainsARequestWithIntentToRetainAndTheReaderCertificate() async throws {
        let result = try await ProgramRunner.run("mdoc", ["inspect", "--explain", "\(vectors)/device_request.hex"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("DeviceRequest (18013-5 8.3.2.1.2.1): 719 bytes, from hex input\n  Version: 1.0\n"))
        #expect(result.standardOutput.contains("portrait (Portrait): intent to retain: no"))
        #expect(result.standardOutput.contains("Annex B profile, mdoc reader authentication: fits"))
    }

    @Test func explainsInAPipeAsOnATerminalUnlessDiagnosticIsGiven() async throws {
        // Standard output is a pipe here: the default is still the explanation.
        let explained = try await ProgramRunner.run("mdoc", ["inspect", "\(vectors)/device_request.hex"])
        #expect(explained.status == 0, "\(explained.standardError)")
        #expect(explained.standardOutput.hasPrefix("DeviceRequest (18013-5 8.3.2.1.2.1): 719 bytes, from hex input\n"))
        let diagnostic = try await ProgramRunner.run("mdoc", ["inspect", "--diagnostic", "\(vectors)/device_request.hex"])
        #expect(diagnostic.status == 0, "\(diagnostic.standardError)")
        #expect(diagnostic.standardOutput.hasPrefix("/ DeviceRequest (18013-5 8.3.2.1.2.1), 719 bytes, from hex input /\n"))
    }

    @Test func explainsAPEMCertificate() async throws {
        let result = try await ProgramRunner.run("mdoc", ["inspect", "Certs/demo/ds.pem"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("X.509 certificate (RFC 5280): "))
        #expect(result.standardOutput.contains(" bytes, from PEM input\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("Subject: C=US, CN=swift-mdoc Demo Document Signer"))
        #expect(result.standardOutput.contains("Annex B profile, document signer: fits"))
    }

    @Test func namesTheFormOfACertificateReadAsItIs() async throws {
        let der = Vectors.annexD("ds_cert")
        let path = try ProgramRunner.temporaryFile(der, suffix: ".der")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await ProgramRunner.run("mdoc", ["inspect", path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("X.509 certificate (RFC 5280): \(der.count) bytes, from DER input\n"), "\(result.standardOutput)")
        let hex = try await ProgramRunner.run("mdoc", ["inspect", "\(vectors)/ds_cert.hex"])
        #expect(hex.standardOutput.hasPrefix("X.509 certificate (RFC 5280): \(der.count) bytes, from hex input\n"), "\(hex.standardOutput)")
    }

    @Test func writesJSONOnlyForCBOR() async throws {
        let result = try await ProgramRunner.run("mdoc", ["inspect", "--json", "\(vectors)/ds_cert.hex"])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("--json writes CBOR (docs/inspect-json.md), and this input is not CBOR; use --explain"))
    }

    @Test func aCredentialsPrivateKeyIsShownOnlyWithShowPrivateKey() async throws {
        let file = "Certs/demo/mdl.mdoc"
        let bytes = Array(try #require(FileManager.default.contents(atPath: Vectors.repositoryRoot + "/" + file)))
        let d = try #require(COSEKey(privateKey: Credential(encoded: bytes).deviceKey).d)
        // The key as each form writes bytes: hex (--explain, diagnostic notation), base64url (--json).
        let forms = [Hex.encode(d), Base64URL.encode(d)]
        for format in [[], ["--explain"], ["--diagnostic"], ["--json"]] {
            let hidden = try await ProgramRunner.run("mdoc", ["inspect", file] + format)
            #expect(hidden.status == 0, "\(format): \(hidden.standardError)")
            #expect(!forms.contains { hidden.standardOutput.contains($0) }, "\(format) shows the private key")
            #expect(hidden.standardOutput.contains("not shown"), "\(format): \(hidden.standardOutput)")
            let shown = try await ProgramRunner.run("mdoc", ["inspect", file, "--show-private-key"] + format)
            #expect(shown.status == 0, "\(format): \(shown.standardError)")
            #expect(forms.contains { shown.standardOutput.contains($0) }, "\(format) --show-private-key: \(shown.standardOutput)")
        }
    }

    @Test func theOutputFormatsExcludeEachOther() async throws {
        let result = try await ProgramRunner.run("mdoc", ["inspect", "--json", "--explain", "\(vectors)/device_request.hex"])
        #expect(result.status == 64)
    }

    @Test func theJSONKeepsTagsAndIntegerKeys() async throws {
        let result = try await ProgramRunner.run("mdoc", ["inspect", "--json", "\(vectors)/device_engagement.hex"])
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(json?["0"] as? String == "1.0")
        let security = json?["1"] as? [Any]
        let keyBytes = security?.last as? [String: Any]
        #expect(keyBytes?["$tag"] as? Int == 24)
        #expect((keyBytes?["$embedded"] as? [String: Any])?["-1"] as? Int == 1)
    }

    static let hostileInputs: [(String, [UInt8])] = [
        ("empty file", []),
        ("random bytes", (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }),
        ("truncated vector", Array(Vectors.annexD("device_response").prefix(1800))),
        ("JSON", Array(#"{"version": "1.0", "documents": []}"#.utf8)),
        ("depth bomb", [UInt8](repeating: 0x81, count: 200_000) + [0x00]),
        ("2^62-byte declared length", [0x5b, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x02]),
        ("trailing bytes", Vectors.annexD("session_termination") + [0x00]),
    ]

    @Test(arguments: hostileInputs.map(\.0))
    func rejectsHostileInputWithOneLineAndExitTwo(_ name: String) async throws {
        let bytes = try #require(Self.hostileInputs.first { $0.0 == name }).1
        let path = try ProgramRunner.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await ProgramRunner.run("mdoc", ["inspect", path], timeout: 10)
        #expect(!result.timedOut)
        #expect(result.status == 2, "\(name): \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(name): \(result.standardError)")
        #expect(result.standardError.hasPrefix("mdoc: error: \(path)"))
    }

    @Test func rejectsAMissingFile() async throws {
        let result = try await ProgramRunner.run("mdoc", ["inspect", "/nonexistent/response.cbor"])
        #expect(result.status == 2)
        #expect(result.standardError == "mdoc: error: /nonexistent/response.cbor: cannot open: No such file or directory\n")
    }

    private func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
