import Foundation
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocIssuance
import MdocModel
import MdocSession
import Testing

/// Credentials as other ecosystems make them, verified by the real `mdoc-reader`: an EU PID whose
/// document signer carries the EUDI purpose 1.3.130.2.0.0.1.2 (and an mDL that must not pass
/// with it), a DeviceSignature with its payload attached, and trust anchors that are not IACA
/// roots (a pinned document signer, private keys in the PKI folder).
@Suite struct IssuerProfileCommandTests {
    /// A DeviceResponse and the SessionTranscriptBytes it is bound to, written to files.
    struct StoredResponse {
        let response: String
        let transcript: String
    }

    /// Presents every element of `credential` in a new session (QR handover, fresh ephemeral
    /// keys), authenticated with a DeviceSignature whose payload is `payload` (detached when
    /// nil; ISO/IEC 18013-5 9.1.3.6), and writes the response and transcript into `folder`.
    static func present(_ credential: Credential, in folder: String, attaching payload: ((_ expected: [UInt8]) -> [UInt8])? = nil) throws -> StoredResponse {
        let engagement = DeviceEngagement(
            security: Security(eDeviceKeyBytes: EmbeddedCBOR(COSEKey(publicKey: try PrivateKey(generating: .p256).publicKey))))
        let transcript = SessionTranscriptBinding(SessionTranscript(
            deviceEngagementBytes: EmbeddedCBOR(engagement),
            eReaderKeyBytes: EmbeddedCBOR(COSEKey(publicKey: try PrivateKey(generating: .p256).publicKey)),
            handover: .qr))
        let deviceNameSpaces = EmbeddedCBOR(DeviceNameSpaces())
        let expected = transcript.deviceAuthenticationBytes(docType: credential.docType, deviceNameSpacesBytes: deviceNameSpaces)
        var signature = try COSESign1.sign(payload: expected, detached: true, algorithm: .es256, key: credential.deviceKey)
        signature.payload = payload.map { attached in CBORBytes(attached(expected)) }
        let document = Document(
            docType: credential.docType, issuerSigned: credential.issuerSigned,
            deviceSigned: DeviceSigned(nameSpaces: deviceNameSpaces, deviceAuth: .deviceSignature(signature)))
        let stored = StoredResponse(response: folder + "/response-\(UUID().uuidString).cbor", transcript: folder + "/transcript-\(UUID().uuidString).cbor")
        try Data(DeviceResponse(documents: [document]).encoded()).write(to: URL(fileURLWithPath: stored.response))
        try Data(transcript.taggedBytes).write(to: URL(fileURLWithPath: stored.transcript))
        return stored
    }

    /// `mdoc-issuer issue` of `data` as `docType` under `pki`; expects success.
    static func issue(_ docType: String, data: String, pki: String, in folder: String) async throws -> Credential {
        let out = folder + "/\(UUID().uuidString).mdoc"
        let result = try await ProgramRunner.run("mdoc-issuer", ["issue", "--pki", pki, "--doctype", docType, "--data", data, "--out", out])
        #expect(result.status == 0, "\(result.standardError)")
        return try Credential(encoded: Array(try #require(FileManager.default.contents(atPath: out))))
    }

    static func verify(_ stored: StoredResponse, _ options: [String]) async throws -> ProgramRunner.Result {
        try await ProgramRunner.run("mdoc-reader", ["verify", stored.response, "--transcript", stored.transcript] + options, timeout: 20)
    }

    static func json(_ result: ProgramRunner.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    /// The first document of a `--json` report.
    static func document(_ result: ProgramRunner.Result) throws -> [String: Any] {
        try #require((try json(result)["documents"] as? [[String: Any]])?.first)
    }

    /// The issuer certificate check of the first document of a `--json` report.
    static func issuerCertificateCheck(_ result: ProgramRunner.Result) throws -> [String: Any] {
        let checks = try #require(try document(result)["checks"] as? [[String: Any]])
        return try #require(checks.first { $0["check"] as? String == "issuer certificate" })
    }

    // MARK: Document signer extended key usage per doc type

    @Test func pidFromAnEUDIPKIVerifiesWithThePKIFolderAsTrust() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder, ["--country", "BE", "--ds-eku", CertificateProfile.eudiPIDDocumentSignerOID])
        let ds = try Certificate(pemEncoded: try IssuerCommandTests.text(pki + "/ds.pem"))
        #expect(ds.extendedKeyUsage == ["1.3.130.2.0.0.1.2"])
        let pid = try await Self.issue(DocType.eudiPID, data: "Samples/pid.json", pki: pki, in: folder)
        let stored = try Self.present(pid, in: folder)

        let result = try await Self.verify(stored, ["--trust", pki, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        // The PKI folder as it is: keys and the certificates that are no roots are skipped, in one line.
        #expect(result.standardError == """
            mdoc-reader: note: --trust \(pki): skipped private keys ds-key.pem, iaca-key.pem, reader-key.pem, reader-root-key.pem; \
            certificates that are not self-signed roots ds.pem, reader.pem

            """)
        let document = try Self.document(result)
        #expect(document["outcome"] as? String == "verified")
        let rule = try #require(document["documentSignerRule"] as? [String: Any])
        #expect(rule["name"] as? String == "EUDI PID")
        #expect(rule["acceptedExtendedKeyUsages"] as? [String] == ["1.3.130.2.0.0.1.2", "1.0.23220.4.1.2", "1.0.18013.5.1.2"])
        #expect(rule["addedExtendedKeyUsages"] as? [String] == [])
        let detail = try Self.issuerCertificateCheck(result)["detail"] as? String ?? ""
        #expect(detail.contains("extendedKeyUsage 1.3.130.2.0.0.1.2 accepted by the EUDI PID rule"), "\(detail)")
    }

    @Test func mDLSignedByAnEUDIDocumentSignerFailsTheMDLRule() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder, ["--ds-eku", CertificateProfile.eudiPIDDocumentSignerOID])

        // mdoc-issuer refuses to issue what would not verify...
        let refused = try await ProgramRunner.run(
            "mdoc-issuer", ["issue", "--pki", pki, "--doctype", DocType.mDL, "--data", "Samples/mdl.json", "--out", folder + "/mdl.mdoc"])
        #expect(refused.status == 7)
        #expect(refused.standardError.contains("ds.pem cannot sign org.iso.18013.5.1.mDL: "), "\(refused.standardError)")
        #expect(refused.standardError.contains("which the ISO/IEC 18013-5 mDL rule (1.0.18013.5.1.2) requires"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/mdl.mdoc"))

        // ...so sign one with the library, as another issuer would.
        let issuer = DocumentIssuer(
            documentSignerKey: try PrivateKey(pemRepresentation: try IssuerCommandTests.text(pki + "/ds-key.pem")),
            documentSignerChain: [try Certificate(pemEncoded: try IssuerCommandTests.text(pki + "/ds.pem"))])
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let mDL = try issuer.issueCredential(
            docType: DocType.mDL, nameSpaces: [(NameSpace.mDL, [("family_name", .textString("Doe")), ("age_over_18", .boolean(true))])],
            deviceKey: try PrivateKey(generating: .p256),
            validityInfo: ValidityInfo(signed: TDate(now), validFrom: TDate(now), validUntil: TDate(now.addingTimeInterval(86_400))))
        let stored = try Self.present(mDL, in: folder)

        let result = try await Self.verify(stored, ["--trust", pki + "/iaca.pem", "--json"])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.contains("extendedKeyUsage [1.3.130.2.0.0.1.2] lacks 1.0.18013.5.1.2 (document signer), which the ISO/IEC 18013-5 mDL rule (1.0.18013.5.1.2) requires"),
                "\(result.standardError)")
        let check = try Self.issuerCertificateCheck(result)
        #expect(check["code"] as? String == "certificate.extendedKeyUsage")
        #expect((try Self.document(result)["documentSignerRule"] as? [String: Any])?["name"] as? String == "ISO/IEC 18013-5 mDL")

        // Accepting the purpose for the mDL is the user's call, and the report says so.
        let accepted = try await Self.verify(stored, ["--trust", pki + "/iaca.pem", "--json", "--accept-ds-eku", "org.iso.18013.5.1.mDL=1.3.130.2.0.0.1.2"])
        #expect(accepted.status == 0, "\(accepted.standardError)")
        let rule = try #require(try Self.document(accepted)["documentSignerRule"] as? [String: Any])
        #expect(rule["addedExtendedKeyUsages"] as? [String] == ["1.3.130.2.0.0.1.2"])
        let detail = try Self.issuerCertificateCheck(accepted)["detail"] as? String ?? ""
        #expect(detail.contains("accepted by the ISO/IEC 18013-5 mDL rule (1.0.18013.5.1.2; added: 1.3.130.2.0.0.1.2)"), "\(detail)")
    }

    @Test(arguments: [
        (["--accept-ds-eku", "1.3.130.2.0.0.1.2"], "give DOCTYPE=OID"),
        (["--accept-ds-eku", "eu.europa.ec.av.1=1.3.130.x"], "not a dotted OID"),
        (["--accept-ds-eku", "=1.2.3"], "doc type must be non-empty"),
    ])
    func badAcceptedPurposeIsAUsageError(options: [String], message: String) async throws {
        for command in [["verify", "response.cbor"], ["request", "mdoc:x"]] {
            let result = try await ProgramRunner.run("mdoc-reader", command + ["--trust", "Certs/demo/iaca.pem"] + options)
            #expect(result.status == 64, "\(command): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(result.standardError)")
        }
    }

    @Test func badDocumentSignerPurposeIsAUsageError() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let result = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/pki", "--ds-eku", "1.3.130.2.0.0.01.2"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--ds-eku 1.3.130.2.0.0.01.2: not a dotted object identifier: an arc has a leading zero"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/pki"))
    }

    // MARK: A DeviceSignature with its payload attached

    @Test func attachedDeviceAuthenticationBytesVerifyWithANote() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder)
        let mDL = try await Self.issue(DocType.mDL, data: "Samples/mdl.json", pki: pki, in: folder)

        let identical = try Self.present(mDL, in: folder) { $0 }
        let verified = try await Self.verify(identical, ["--trust", pki + "/iaca.pem"])
        #expect(verified.status == 0, "\(verified.standardError)")
        #expect(verified.standardOutput.contains(
            "ok   device authentication deviceAuth: DeviceSignature ES256 by the MSO deviceKey; note: the payload is attached, not detached as 9.1.3 requires, and byte-identical to this session's DeviceAuthenticationBytes"),
            "\(verified.standardOutput)")

        let other = try Self.present(mDL, in: folder) { Array($0.dropLast()) }
        let rejected = try await Self.verify(other, ["--trust", pki + "/iaca.pem", "--json"])
        #expect(rejected.status == 4, "\(rejected.standardError)")
        #expect(rejected.standardError.contains("FAILED: the DeviceSignature carries an attached payload of "), "\(rejected.standardError)")
        #expect(rejected.standardError.contains("that is not this session's DeviceAuthenticationBytes"))
        let checks = try #require(try Self.document(rejected)["checks"] as? [[String: Any]])
        #expect(checks.first { $0["check"] as? String == "device authentication" }?["code"] as? String == "payloadMismatch")
    }

    // MARK: Trust anchors that are not roots

    @Test func documentSignerGivenAsTrustIsNamed() async throws {
        let folder = try IssuerCommandTests.temporaryDirectory()
        defer { IssuerCommandTests.remove(folder) }
        let pki = try await IssuerCommandTests.makePKI(in: folder)
        let mDL = try await Self.issue(DocType.mDL, data: "Samples/mdl.json", pki: pki, in: folder)
        let stored = try Self.present(mDL, in: folder)
        let ds = try Certificate(pemEncoded: try IssuerCommandTests.text(pki + "/ds.pem"))

        let result = try await Self.verify(stored, ["--trust", pki + "/ds.pem"])
        #expect(result.status == 7)
        #expect(result.standardError == """
            mdoc-reader: error: --trust \(pki)/ds.pem: "\(ds.subject)" is a document signer certificate, not an IACA root: \
            pass the IACA that issued it ("\(ds.issuer)")

            """)
        let reader = try await Self.verify(stored, ["--trust", pki + "/iaca.pem", pki + "/reader.pem"])
        #expect(reader.status == 7)
        #expect(reader.standardError.contains("is a reader authentication certificate, not an IACA root: pass the IACA that issued it"))
        let key = try await Self.verify(stored, ["--trust", pki + "/iaca-key.pem"])
        #expect(key.status == 7)
        #expect(key.standardError.contains("--trust \(pki)/iaca-key.pem: holds a private key, not a certificate: pass the IACA certificate"))

        // A folder with no root in it.
        let signers = folder + "/signers"
        try FileManager.default.createDirectory(atPath: signers, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: pki + "/ds.pem", toPath: signers + "/ds.pem")
        let empty = try await Self.verify(stored, ["--trust", signers])
        #expect(empty.status == 7)
        #expect(empty.standardError.contains("--trust \(signers): holds no self-signed IACA certificate; ds.pem: \"\(ds.subject)\" is a document signer certificate"),
                "\(empty.standardError)")
    }

    @Test func readerCertificateGivenAsTrustedReaderRootIsNamed() async throws {
        let credential = "Certs/demo/mdl.mdoc"
        let refused = try await SecretsAtRestTests.run(
            "mdoc-holder", ["present", "--credential", credential, "--trust-readers", "Certs/demo/reader.pem", "--yes", "--no-qr", "--timeout", "1"])
        #expect(refused.status == 7)
        #expect(refused.standardError.contains(
            "--trust-readers Certs/demo/reader.pem: \"C=US, CN=swift-mdoc Demo Reader\" is a reader authentication certificate, not a reader root: pass the reader root that issued it"),
            "\(refused.standardError)")

        // The demo PKI folder, keys and all: the holder takes its roots and waits for a reader.
        let waiting = try await SecretsAtRestTests.run(
            "mdoc-holder", ["present", "--credential", credential, "--trust-readers", "Certs/demo", "--yes", "--no-qr", "--timeout", "1"])
        #expect(waiting.status == 8, "\(waiting.standardError)")
        #expect(waiting.standardError.contains("""
            mdoc-holder: note: --trust-readers Certs/demo: skipped private keys ds-key.pem, iaca-key.pem, reader-key.pem, \
            reader-root-key.pem; certificates that are not self-signed roots ds.pem, reader.pem; files that hold no \
            certificate README.md, mdl.mdoc, pid.mdoc

            """), "\(waiting.standardError)")
    }
}
