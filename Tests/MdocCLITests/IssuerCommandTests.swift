import Foundation
import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

/// `mdoc-issuer pki` and `mdoc-issuer issue` end to end: the PKI validates under the Annex B
/// profiles with private keys written 0600, issued credentials verify in process (MSO signature,
/// x5chain to the IACA, every digest), and bad issuer data ends with the JSON path.
@Suite struct IssuerCommandTests {
    static let certificateFiles = ["iaca.pem", "ds.pem", "reader-root.pem", "reader.pem"]
    static let keyFiles = ["iaca-key.pem", "ds-key.pem", "reader-root-key.pem", "reader-key.pem"]

    /// A new empty temporary directory.
    static func temporaryDirectory() throws -> String {
        // Each test removes its folder with `defer { remove(folder) }`.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-issuer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func remove(_ folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
    }

    /// `mdoc-issuer pki DIR` with `options` for a new DIR inside `folder`; expects success.
    static func makePKI(in folder: String, _ options: [String] = []) async throws -> String {
        let directory = folder + "/pki-\(UUID().uuidString)"
        let result = try await ProgramRunner.run("mdoc-issuer", ["pki", directory] + options)
        #expect(result.status == 0, "\(result.standardError)")
        return directory
    }

    /// Checks that `credential` verifies as a reader would check the issuer data (ISO/IEC
    /// 18013-5 9.3.1): the x5chain validates to `iaca`, the MSO signature holds, and every
    /// IssuerSignedItemBytes matches its digest.
    static func verify(_ credential: Credential, iaca: Certificate, at time: Date = Date()) throws {
        let issuerAuth = credential.issuerSigned.issuerAuth
        let chain = try issuerAuth.x5chain.map { try Certificate(derEncoded: $0) }
        let result = CertificateChainValidator(trustAnchors: [iaca]).validate(chain: chain, profile: .documentSigner, at: time)
        #expect(result.isValid, "\(result)")
        let signer = try #require(chain.first)
        #expect(issuerAuth.isValidSignature(publicKey: signer.publicKey))
        let mso = credential.mobileSecurityObject.value
        #expect(mso.docType == credential.docType)
        #expect(mso.validityInfo.validFrom.date <= time && time < mso.validityInfo.validUntil.date)
        let digest = try #require(DigestAlgorithm(rawValue: mso.digestAlgorithm))
        var count = 0
        for (nameSpace, items) in credential.issuerSigned.nameSpaces ?? OrderedMap() {
            for item in items {
                let expected = mso.valueDigests[nameSpace]?[item.value.digestID]
                #expect(expected == CBORBytes(digest.hash(item.cbor.encoded())), "\(nameSpace)/\(item.value.elementIdentifier)")
                count += 1
            }
        }
        #expect(count > 0)
    }

    // MARK: pki

    @Test func pkiWritesPrivateKeysAndValidChains() async throws {
        let folder = try Self.temporaryDirectory()
        defer { Self.remove(folder) }
        let directory = try await Self.makePKI(in: folder, ["--curve", "p384", "--valid-days", "30", "--country", "NL"])
        for file in Self.keyFiles {
            #expect(try Self.mode("\(directory)/\(file)") == 0o600, "\(file)")
        }
        for file in Self.certificateFiles {
            #expect(try Self.mode("\(directory)/\(file)") == 0o644, "\(file)")
        }
        var certificates: [Certificate] = []
        for (certificateFile, keyFile) in zip(Self.certificateFiles, Self.keyFiles) {
            let certificate = try Certificate(pemEncoded: try Self.text("\(directory)/\(certificateFile)"))
            let key = try PrivateKey(pemRepresentation: try Self.text("\(directory)/\(keyFile)"))
            #expect(key.curve == .p384)
            #expect(key.publicKey == certificate.publicKey, "\(keyFile)")
            #expect(certificate.subject.hasPrefix("C=NL, "))
            #expect(certificate.signatureAlgorithm == .ecdsaWithSHA384)
            let days = certificate.notValidAfter.timeIntervalSince(certificate.notValidBefore) / 86_400
            #expect(days == 30)
            certificates.append(certificate)
        }
        let (iaca, ds, readerRoot, reader) = (certificates[0], certificates[1], certificates[2], certificates[3])
        let issuing = CertificateChainValidator(trustAnchors: [iaca])
        #expect(issuing.validate(chain: [ds], profile: .documentSigner, at: Date()).isValid)
        #expect(!issuing.validate(chain: [ds], profile: .readerAuthentication, at: Date()).isValid)
        let reading = CertificateChainValidator(trustAnchors: [readerRoot])
        #expect(reading.validate(chain: [reader], profile: .readerAuthentication, at: Date()).isValid)
        #expect(!reading.validate(chain: [reader], profile: .documentSigner, at: Date()).isValid)
    }

    /// `--reader-not-after` ends reader.pem alone: in the past, it makes an expired reader
    /// certificate of a root that is still valid; outside the root's validity it is refused.
    @Test func pkiReaderNotAfterEndsTheReaderCertificateAlone() async throws {
        let folder = try Self.temporaryDirectory()
        defer { Self.remove(folder) }
        let yesterday = TDate(Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded(.down)))
        let twoDaysAgo = TDate(Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 2 * 86_400).rounded(.down)))
        let directory = try await Self.makePKI(in: folder, ["--not-before", twoDaysAgo.text, "--reader-not-after", yesterday.text])
        let readerRoot = try Certificate(pemEncoded: try Self.text("\(directory)/reader-root.pem"))
        let reader = try Certificate(pemEncoded: try Self.text("\(directory)/reader.pem"))
        #expect(reader.notValidAfter == yesterday.date)
        #expect(readerRoot.notValidAfter > Date())
        let reading = CertificateChainValidator(trustAnchors: [readerRoot])
        #expect(reading.validate(chain: [reader], profile: .readerAuthentication, at: yesterday.date.addingTimeInterval(-3_600)).isValid)
        #expect(!reading.validate(chain: [reader], profile: .readerAuthentication, at: Date()).isValid)

        let before = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/before", "--reader-not-after", twoDaysAgo.text])
        #expect(before.status == 7, "\(before.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/before"))
        let notADate = try await ProgramRunner.run("mdoc-issuer", ["pki", folder + "/text", "--reader-not-after", "yesterday"])
        #expect(notADate.status == 64)
        #expect(notADate.standardError.contains("--reader-not-after yesterday: not an RFC 3339 date-time"), "\(notADate.standardError)")
    }

    @Test func pkiRefusesToOverwriteWithoutForce() async throws {
        let folder = try Self.temporaryDirectory()
        defer { Self.remove(folder) }
        let directory = try await Self.makePKI(in: folder)
        let before = try Self.text("\(directory)/iaca-key.pem")
        let refused = try await ProgramRunner.run("mdoc-issuer", ["pki", directory])
        #expect(refused.status == 7)
        #expect(refused.standardError.contains("\(directory)/iaca.pem: exists; give --force"))
        #expect(try Self.text("\(directory)/iaca-key.pem") == before)
        let forced = try await ProgramRunner.run("mdoc-issuer", ["pki", directory, "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try Self.text("\(directory)/iaca-key.pem") != before)
        #expect(try Self.mode("\(directory)/iaca-key.pem") == 0o600)
    }

    @Test func pkiRejectsBadOptions() async throws {
        let folder = try Self.temporaryDirectory()
        defer { Self.remove(folder) }
        let directory = folder + "/pki"
        for options in [["--valid-days", "0"], ["--curve", "x25519"], ["--valid-days", "36526"]] {
            let result = try await ProgramRunner.run("mdoc-issuer", ["pki", directory] + options)
            #expect(result.status == 64, "\(options)")
        }
        let country = try await ProgramRunner.run("mdoc-issuer", ["pki", directory, "--country", "usa"])
        #expect(country.status == 7)
        #expect(country.standardError.contains("countryName \"usa\""))
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    // MARK: issue

    @Test func issueWritesAVerifiableCredential() async throws {
        let folder = try Self.temporaryDirectory()
        defer { Self.remove(folder) }
        let pki = try await Self.makePKI(in: folder)
        let out = folder + "/mdl.mdoc"
        let result = try await ProgramRunner.run(
            "mdoc-issuer",
            ["issue", "--pki", pki, "--doctype", DocType.mDL, "--data", "Samples/mdl.json", "--out", out, "--valid-days", "30"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Issued org.iso.18013.5.1.mDL with 31 data elements in 1 name space"))
        #expect(try Self.mode(out) == 0o600)
        let credential = try Credential(encoded: Array(try #require(FileManager.default.contents(atPath: out))))
        #expect(credential.docType == DocType.mDL)
        #expect(credential.deviceKey.curve == .p256)
        #expect(credential.elementIdentifiers[NameSpace.mDL]?.first == "family_name")
        #expect(credential.item(nameSpace: NameSpace.mDL, identifier: "birth_date")?.value.elementValue
            == .tagged(1004, .textString("1990-01-01")))
        let iaca = try Certificate(pemEncoded: try Self.text("\(pki)/iaca.pem"))
        try Self.verify(credential, iaca: iaca)
        let validity = credential.mobileSecurityObject.value.validityInfo
        #expect(validity.validUntil.date.timeIntervalSince(validity.validFrom.date) == 30 * 86_400)
        // Another IACA does not trust it.
        let otherPKI = try await Self.makePKI(in: folder)
        let other = try Certificate(pemEncoded: try Self.text("\(otherPKI)/iaca.pem"))
        let chain = try credential.issuerSigned.issuerAuth.x5chain.map { try Certificate(derEncoded: $0) }
        #expect(!CertificateChainValidator(trustAnchors: [other]).validate(chain: chain, profile: .documentSigner, at: Date()).isValid)
    }

    @Test func issueUsesTheGivenDeviceKeyAndCapsValidityAtTheSigner() async throws {
        let directory = try Self.temporaryDirectory()
        defer { Self.remove(directory) }
        let pki = try await Self.makePKI(in: directory, ["--valid-days", "10"])
        let key = try PrivateKey(generating: .p384)
        let keyPath = directory + "/device.pem"
        try Data(key.pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyPath))
        let out = directory + "/pid.mdoc"
        let result = try await ProgramRunner.run(
            "mdoc-issuer",
            ["issue", "--pki", pki, "--doctype", DocType.eudiPID, "--data", "Samples/pid.json", "--out", out,
             "--device-key", keyPath])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("the MSO validity ends with the document signer certificate"))
        let credential = try Credential(encoded: Array(try #require(FileManager.default.contents(atPath: out))))
        #expect(credential.deviceKey.publicKey == key.publicKey)
        let ds = try Certificate(pemEncoded: try Self.text("\(pki)/ds.pem"))
        #expect(credential.mobileSecurityObject.value.validityInfo.validUntil.date == ds.notValidAfter)
        try Self.verify(credential, iaca: try Certificate(pemEncoded: try Self.text("\(pki)/iaca.pem")))
    }

    @Test func badIssuerDataEndsWithTheJSONPath() async throws {
        let directory = try Self.temporaryDirectory()
        defer { Self.remove(directory) }
        let pki = try await Self.makePKI(in: directory)
        let data = directory + "/data.json"
        try Data(#"{"nameSpaces": {"org.iso.18013.5.1": {"family_name": "Doe", "birth_date": {"full-date": "1990-13-01"}}}}"#.utf8)
            .write(to: URL(fileURLWithPath: data))
        let out = directory + "/x.mdoc"
        let result = try await ProgramRunner.run(
            "mdoc-issuer", ["issue", "--pki", pki, "--doctype", DocType.mDL, "--data", data, "--out", out])
        #expect(result.status == 2)
        #expect(result.standardError == """
            mdoc-issuer: error: \(data): $["nameSpaces"]["org.iso.18013.5.1"]["birth_date"]["full-date"]: \
            "1990-13-01" is not a full-date (YYYY-MM-DD, a day that exists)

            """)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func issueRefusesUnusableInputsAndExistingOutput() async throws {
        let directory = try Self.temporaryDirectory()
        defer { Self.remove(directory) }
        let pki = try await Self.makePKI(in: directory)
        let out = directory + "/mdl.mdoc"
        let base = ["issue", "--doctype", DocType.mDL, "--data", "Samples/mdl.json", "--out", out]
        let empty = directory + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let missingPKI = try await ProgramRunner.run("mdoc-issuer", base + ["--pki", empty])
        #expect(missingPKI.status == 7)
        #expect(missingPKI.standardError.contains("--pki \(empty)/ds.pem"))
        // A PKI whose document signer key is another one's.
        let other = try await Self.makePKI(in: directory)
        try FileManager.default.removeItem(atPath: "\(other)/ds-key.pem")
        try FileManager.default.copyItem(atPath: "\(pki)/ds-key.pem", toPath: "\(other)/ds-key.pem")
        let mismatch = try await ProgramRunner.run("mdoc-issuer", base + ["--pki", other])
        #expect(mismatch.status == 7)
        #expect(mismatch.standardError.contains("ds-key.pem is not the key of ds.pem"))
        #expect(try await ProgramRunner.run("mdoc-issuer", base + ["--pki", pki]).status == 0)
        let again = try await ProgramRunner.run("mdoc-issuer", base + ["--pki", pki])
        #expect(again.status == 7)
        #expect(again.standardError.contains("\(out): exists; give --force"))
        #expect(try await ProgramRunner.run("mdoc-issuer", base + ["--pki", pki, "--force"]).status == 0)
    }

    // MARK: The committed demo

    @Test(arguments: [("mdl", DocType.mDL), ("pid", DocType.eudiPID)])
    func demoCredentialsVerify(name: String, docType: String) throws {
        let demo = ProgramRunner.repositoryRoot + "/Certs/demo"
        let bytes = try #require(FileManager.default.contents(atPath: "\(demo)/\(name).mdoc"))
        let credential = try Credential(encoded: Array(bytes))
        #expect(credential.docType == docType)
        try Self.verify(credential, iaca: try Certificate(pemEncoded: try Self.text("\(demo)/iaca.pem")))
        let readerRoot = try Certificate(pemEncoded: try Self.text("\(demo)/reader-root.pem"))
        let reader = try Certificate(pemEncoded: try Self.text("\(demo)/reader.pem"))
        #expect(CertificateChainValidator(trustAnchors: [readerRoot]).validate(
            chain: [reader], profile: .readerAuthentication, at: Date()).isValid)
    }
}
